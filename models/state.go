package models

import (
	"encoding/json"
	"sort"
)

// WarningCode is the stable identifier of a rule warning, such as "site.not_adjacent".
type WarningCode string

// Warning says that something on the table breaks a rule.
type Warning struct {
	Code    WarningCode `json:"code"`
	Player  Player      `json:"player"`
	Cells   []Cell      `json:"cells"`
	Message string      `json:"message"`
}

// SameSubject reports whether w and o speak of the same thing: the same code,
// player and cells, whatever their messages say (an event's warning and the
// standing one it leaves on the board).
func (w Warning) SameSubject(o Warning) bool {
	if w.Code != o.Code || w.Player != o.Player || len(w.Cells) != len(o.Cells) {
		return false
	}
	for i := range w.Cells {
		if w.Cells[i] != o.Cells[i] {
			return false
		}
	}
	return true
}

// OtherStanding gives the standing warnings of st that none of its last event's
// warnings already speaks of.
func (st GameState) OtherStanding() []Warning {
	var out []Warning
next:
	for _, s := range st.Standing {
		for _, w := range st.Warnings {
			if w.SameSubject(s) {
				continue next
			}
		}
		out = append(out, s)
	}
	return out
}

// ManaState is a player's mana this turn.
type ManaState struct {
	Available int `json:"available"`
	Total     int `json:"total"`
}

// PlayerState is one player's side of a GameState.
type PlayerState struct {
	Life       int        `json:"life"`
	DeathsDoor bool       `json:"deaths_door"`
	Defeated   bool       `json:"defeated"`
	Mana       ManaState  `json:"mana"`
	Affinity   Thresholds `json:"affinity"`
	Sites      []Cell     `json:"sites"`
	Avatar     string     `json:"avatar,omitempty"`
	// UnnamedSites counts the player's sites the camera could not name:
	// Affinity leaves out the threshold they may provide.
	UnnamedSites int `json:"unnamed_sites,omitempty"`
}

// SiteState is the site on a cell. Rubble has Card "Rubble" and no controller.
type SiteState struct {
	Card       string `json:"card"`
	Controller Player `json:"controller"`
	// Unnamed marks a site the camera could not name; Card is empty.
	Unnamed bool `json:"unnamed,omitempty"`
}

// UnitState is a unit (minion, avatar, artifact or token) on a cell.
type UnitState struct {
	Card            string `json:"card"`
	Owner           Player `json:"owner"`
	Tapped          bool   `json:"tapped"`
	EnteredThisTurn bool   `json:"entered_this_turn"`
	// Avatar marks the player's Avatar.
	Avatar bool `json:"avatar,omitempty"`
	// Unnamed marks a unit the camera could not name; Card is empty.
	Unnamed bool `json:"unnamed,omitempty"`
}

// CellState is what one cell holds.
type CellState struct {
	Site  *SiteState  `json:"site,omitempty"`
	Units []UnitState `json:"units,omitempty"`
}

// RealmState is the board: only the cells that hold something, plus the
// water and land groupings (each sorted, each cluster's cells in order).
type RealmState struct {
	Cells         map[string]CellState `json:"cells"`
	BodiesOfWater [][]Cell             `json:"bodies_of_water"`
	SpansOfLand   [][]Cell             `json:"spans_of_land"`
}

// PlayerStates maps "south" and "north" to each player's state. In JSON south
// comes first, as players read it.
type PlayerStates map[string]PlayerState

// MarshalJSON writes south, then north, then any other keys in sorted order.
func (ps PlayerStates) MarshalJSON() ([]byte, error) {
	keys := make([]string, 0, len(ps))
	for k := range ps {
		if k != "south" && k != "north" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range []string{"north", "south"} {
		if _, ok := ps[k]; ok {
			keys = append([]string{k}, keys...)
		}
	}
	buf := []byte{'{'}
	for i, k := range keys {
		if i > 0 {
			buf = append(buf, ',')
		}
		kb, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		vb, err := json.Marshal(ps[k])
		if err != nil {
			return nil, err
		}
		buf = append(append(append(buf, kb...), ':'), vb...)
	}
	return append(buf, '}'), nil
}

// GameState is a snapshot of the game after one event, as `tablecam rules
// --json` prints it and as the overlay draws it.
type GameState struct {
	Event   int          `json:"event"`
	Active  Player       `json:"active"`
	Turn    int          `json:"turn"`
	Winner  Player       `json:"winner"`
	Players PlayerStates `json:"players"`
	Realm   RealmState   `json:"realm"`
	// Warnings were raised by the last event.
	Warnings []Warning `json:"warnings"`
	// Standing holds what breaks the rules on the table now, whichever
	// event brought it about, for as long as it lasts: a minion still in the
	// void, a minion still under a site it may not be under, a Waterbound or
	// Landbound minion where it is disabled.
	Standing []Warning `json:"standing"`
}

// RubbleName is the card name used for Rubble.
const RubbleName = "Rubble"
