// Package synth renders what a camera over a Sorcery table would see, with exact ground truth: a
// self-made card catalog with procedural art, still table scenes and recorded games. It feeds the
// tests, the benchmarks and the demo.
package synth
