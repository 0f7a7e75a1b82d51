package rules

import (
	"fmt"
	"sort"

	"github.com/tablecam/tablecam/models"
)

// Ruleset is a card game's rules over the events seen on a table. Sorcery:
// Contested Realm (*Game) is the one implementation today.
//
// Another game plugs in by adding a type that implements Ruleset in its own
// files of this package (say ageofwildmagic.go for the two-row battlefield of 5
// slots, or riftbound.go for battlefields and scoring) and one case in
// NewRuleset. Its cells map onto models.Cell (a two-row battlefield uses rows 1
// and 2 of columns A–E), its own event types are new models.EventType values
// declared in a models/<game>_events.go file, and its warnings are
// models.Warning values with codes of its own. The Sorcery files (placement,
// mana, water, life…) need no change, and tablecam's commands, the tracker
// and the overlay keep talking to the Ruleset interface.
type Ruleset interface {
	// Apply checks an event against the rules and applies it. It returns the
	// warnings the event raises; an error wrapping ErrInvalidEvent means the
	// event is malformed and was not applied.
	Apply(ev models.Event) ([]models.Warning, error)
	// State gives the state after the last applied event.
	State() models.GameState
	// Events gives a copy of the applied events.
	Events() []models.Event
}

// Sorcery is the name of the Sorcery: Contested Realm ruleset.
const Sorcery = "sorcery"

// Names lists the rulesets NewRuleset knows.
func Names() []string {
	names := []string{Sorcery}
	sort.Strings(names)
	return names
}

// NewRuleset makes an empty game of the named ruleset.
func NewRuleset(name string, cat *models.Catalog, opts ...Option) (Ruleset, error) {
	switch name {
	case Sorcery, "":
		return NewGame(cat, opts...), nil
	}
	return nil, fmt.Errorf("rules: unknown ruleset %q (known: %v)", name, Names())
}

var _ Ruleset = (*Game)(nil)
