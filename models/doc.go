// Package models is tablecam's shared vocabulary: cards and the card catalog,
// elements and thresholds, realm cells A1–E4, players, game events, what vision
// observes in a frame, and the game state the rules derive.
//
// It is pure Go with no cgo, so every other package can depend on it.
package models
