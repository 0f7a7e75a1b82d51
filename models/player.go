package models

import (
	"encoding/json"
	"fmt"
)

// Player is a seat at the table. The zero value is NoPlayer.
type Player int8

const (
	// NoPlayer means nobody (for example the controller of Rubble); it is null in JSON.
	NoPlayer Player = iota
	// South sits at the bottom of the camera image by default.
	South
	// North sits across the table from South; their cards appear upside down.
	North
)

// Players lists both seats, south first.
var Players = [2]Player{South, North}

// String gives "south", "north" or "none".
func (p Player) String() string {
	switch p {
	case South:
		return "south"
	case North:
		return "north"
	}
	return "none"
}

// Opponent gives the other seat.
func (p Player) Opponent() Player {
	switch p {
	case South:
		return North
	case North:
		return South
	}
	return NoPlayer
}

// ParsePlayer reads "south" or "north".
func ParsePlayer(s string) (Player, error) {
	switch s {
	case "south":
		return South, nil
	case "north":
		return North, nil
	}
	return NoPlayer, fmt.Errorf("player %q: want \"south\" or \"north\"", s)
}

// MarshalJSON writes "south", "north", or null for NoPlayer.
func (p Player) MarshalJSON() ([]byte, error) {
	if p == NoPlayer {
		return []byte("null"), nil
	}
	return json.Marshal(p.String())
}

// UnmarshalJSON reads "south", "north" or null.
func (p *Player) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*p = NoPlayer
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("player: %w", err)
	}
	v, err := ParsePlayer(s)
	if err != nil {
		return err
	}
	*p = v
	return nil
}
