// Package samples holds the bundled sample data: a self-made card catalog with
// procedural faces, recorded demo games, a still set with truth, and scripted
// games as event lists. Everything here is rebuilt from a seed by
// `go generate ./samples/...` (see generate.go).
package samples
