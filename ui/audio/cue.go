package audio

import (
	"fmt"
	"math"
	"time"
)

// Cue is one of the overlay's sounds.
type Cue int

const (
	// SitePlayed is a low, round thump.
	SitePlayed Cue = iota + 1
	// UnitSummoned is a bright pluck.
	UnitSummoned
	// Warning is a buzzing, trembling tone.
	Warning
	// DeathsDoor is a low heartbeat.
	DeathsDoor
	// DeathBlow is a long, deep toll.
	DeathBlow
	// TurnStart is a high bell.
	TurnStart
)

// Cues lists every cue.
func Cues() []Cue { return []Cue{SitePlayed, UnitSummoned, Warning, DeathsDoor, DeathBlow, TurnStart} }

// String gives the cue's name, such as "site_played".
func (c Cue) String() string {
	switch c {
	case SitePlayed:
		return "site_played"
	case UnitSummoned:
		return "unit_summoned"
	case Warning:
		return "warning"
	case DeathsDoor:
		return "deaths_door"
	case DeathBlow:
		return "death_blow"
	case TurnStart:
		return "turn_start"
	}
	return fmt.Sprintf("Cue(%d)", int(c))
}

// Spec is what a cue sounds like: its dominant pitch and its length.
type Spec struct {
	Pitch    float64 // Hz
	Duration time.Duration
}

// SpecOf gives a cue's pitch and length. Every cue has its own pitch, at
// least a fourth apart from the others.
func SpecOf(c Cue) Spec {
	switch c {
	case SitePlayed:
		return Spec{330, 280 * time.Millisecond}
	case UnitSummoned:
		return Spec{660, 220 * time.Millisecond}
	case Warning:
		return Spec{880, 450 * time.Millisecond}
	case DeathsDoor:
		return Spec{220, 900 * time.Millisecond}
	case DeathBlow:
		return Spec{110, 1400 * time.Millisecond}
	case TurnStart:
		return Spec{1320, 500 * time.Millisecond}
	}
	return Spec{}
}

// Samples synthesizes a cue as mono samples in [-1, 1] at the given rate.
// The sound starts at once and ends with a short fade, so it has no silent
// head or tail.
func Samples(c Cue, rate int) []float32 {
	sp := SpecOf(c)
	n := int(math.Round(sp.Duration.Seconds() * float64(rate)))
	out := make([]float32, n)
	f := sp.Pitch
	dur := sp.Duration.Seconds()
	for i := range out {
		t := float64(i) / float64(rate)
		ph := 2 * math.Pi * f * t
		var wave, env float64
		switch c {
		case SitePlayed:
			wave = math.Sin(ph) + 0.35*math.Sin(2*ph)
			env = 0.3 + 0.7*math.Exp(-t/0.07)
		case UnitSummoned:
			vib := 0.004 * math.Sin(2*math.Pi*7*t)
			ph = 2 * math.Pi * f * t * (1 + vib)
			wave = math.Sin(ph) + 0.3*math.Sin(2*ph) + 0.15*math.Sin(3*ph)
			env = 0.35 + 0.65*math.Exp(-t/0.05)
		case Warning:
			wave = math.Sin(ph) + math.Sin(3*ph)/4 + math.Sin(5*ph)/8
			env = 0.65 + 0.35*math.Sin(2*math.Pi*12*t)
		case DeathsDoor:
			wave = math.Sin(ph) + 0.4*math.Sin(2*ph) + 0.2*math.Sin(3*ph)
			beat := math.Mod(t, 0.45)
			env = 0.3 + 0.7*math.Exp(-beat/0.08)
		case DeathBlow:
			wave = math.Sin(ph) + 0.45*math.Sin(2*ph) + 0.25*math.Sin(3*ph) + 0.1*math.Sin(4*ph)
			env = 0.3 + 0.7*math.Exp(-t/0.5)
		case TurnStart:
			wave = math.Sin(ph) + 0.25*math.Sin(2.76*ph) + 0.1*math.Sin(5.4*ph)
			env = 0.25 + 0.75*math.Exp(-t/0.12)
		}
		// 4 ms attack, 25 ms release.
		env *= math.Min(1, t/0.004) * math.Min(1, (dur-t)/0.025)
		out[i] = float32(0.45 * wave * env)
	}
	return out
}
