// Package tracker turns the noisy stream of per-frame observations into stable board changes and
// game events, feeds them to the rules, and keeps an append-only journal with undo, corrections and
// replay. It is pure Go.
package tracker
