package samples

// These lines rebuild every bundled sample from its seed: go generate ./samples/...
//go:generate go run ../cmd/tablecam synth catalog --quiet --out catalog --seed 1
//go:generate go run ../cmd/tablecam synth scenes --quiet --catalog catalog --out stills --seed 1 --count 100
//go:generate go run ../cmd/tablecam synth game --quiet --catalog catalog --out games/demo --seed 1
