package rules

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// FuzzApply feeds any line to a game under way: it never panics, a line it
// refuses is an ErrInvalidEvent, and a refused event leaves the game as it was.
func FuzzApply(f *testing.F) {
	for _, line := range []string{southTurn, played("south", "B1", "Stone Field"), summon("south", "C1", "Scout"),
		moved("Scout", "C1", "C3"), cellEvent("card_tapped", "C1", "Test Seer"), amount("damage", "north", "0"),
		`{"type":"spell_cast","player":"south","card":"Arc Volley","amount":3,"note":"x"}`,
		`{"type":"game_start","south":{"avatar":"Test Seer","life":0,"deck":1},"north":{"avatar":"Test Warden"}}`,
		`{"type":"unit_under","cell":"C1","card":"Test Seer"}`, `{"type":"site_destroyed","cell":"C1"}`} {
		f.Add(line)
	}
	cat := testCatalog()
	f.Fuzz(func(t *testing.T, line string) {
		g, _ := play(t, cat, gameStart, southTurn, played("south", "C1", "Ember Flat"), summon("south", "C1", "Forge Folk"))
		for _, l := range strings.Split(line, "\n") {
			before := g.State()
			n := len(g.Events())
			if _, err := applyLine(g, l); err != nil {
				if !errors.Is(err, ErrInvalidEvent) {
					t.Fatalf("%q: %v does not wrap ErrInvalidEvent", l, err)
				}
				if !reflect.DeepEqual(before, g.State()) || len(g.Events()) != n {
					t.Fatalf("%q was refused but changed the game", l)
				}
			}
		}
	})
}
