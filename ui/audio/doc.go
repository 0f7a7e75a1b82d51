// Package audio plays the overlay's cues: short sounds synthesized in code for
// a site played, a unit summoned, a rule warning, death's door, the death
// blow and the start of a turn. Samples turns a cue into samples (pure Go);
// a Player plays them through PortAudio, with volume and mute, and disables
// itself with one log line when there is no sound device.
package audio
