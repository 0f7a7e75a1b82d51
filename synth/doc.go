// Package synth renders what a camera over a Sorcery table would see, with exact ground truth: a
// self-made card catalog with procedural art, still table scenes and recorded games. It feeds the
// tests, the benchmarks and the demo.
//
// # Catalog
//
// RenderCatalog writes about 40 made-up cards (sites, minions, avatars, spells and tokens) in the
// public API's older cards.json shape with a reference face per card in images/<slug>.png at
// FacePxPerMM. As real scans do, every other site is stored portrait with its landscape face turned
// 90° counter-clockwise; UprightFace and LoadFace turn any reference image into the face as it lies
// in play for its owner.
//
// # Scenes
//
// RenderScene (or Renderer.Scene, which caches faces) lays out a random mid-game board on a mat,
// views it through a random camera (tilt up to 30°, roll up to ±10° or SceneOptions.MaxRollDeg, the realm spanning 50–90% of
// the frame width, south at the bottom), adds hands, shadows, light, glare, blur and noise, and
// returns the frame with its SceneTruth. Mat coordinates are millimetres from the realm's A1
// (south-west) outer corner, x east and y north; SceneTruth.RealmToImage maps them to pixels. A
// card's rotation is the clockwise turn of its upright face from upright for the south player (0
// south, 90 south tapped, 180 north, 270 north tapped) and its quad starts at the face's top-left
// corner, going clockwise. WriteStills writes a numbered still set (NNNN.jpg + NNNN.json).
//
// # Games
//
// WriteGame scripts a legal game (sites on the Avatar's cell, then adjacent; summons paid with mana
// and threshold; no summoning-sick taps except one deliberate break in the last turn), renders it
// from a still camera with hands reaching in for each change, hand passes, a nudge and a light
// flicker, and writes game.avi (Motion-JPEG at 30 fps), truth.json (per-frame stable board, events
// with the frame they became visible) and events.jsonl for `tablecam rules`.
package synth
