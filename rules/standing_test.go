package rules

import (
	"strings"
	"testing"
)

// TestStandingWarnings: what breaks the rules on the table stays listed in
// the state for as long as it is there, across events and turns, and goes
// when the table is put right; the event's own warning comes once.
func TestStandingWarnings(t *testing.T) {
	northEnd := `{"type":"turn_end","player":"north"}`
	tests := []struct {
		name  string
		lines []string
		// want is the standing codes and cells after the last line, as "code cells".
		want []string
	}{
		{"a minion left in the void stands into the next turn",
			[]string{southTurn, played("south", "C1", "Ember Flat"), summon("south", "C2", "Scout"), southEnd, northTurn},
			[]string{"unit.void C2"}},
		{"taken off the table, it no longer stands",
			[]string{southTurn, played("south", "C1", "Ember Flat"), summon("south", "C2", "Scout"), cellEvent("card_removed", "C2", "Scout"), southEnd},
			nil},
		{"Voidwalk may stay in the void",
			[]string{southTurn, played("south", "C1", "Windy Peak"), southEnd, northTurn, northEnd, southTurn,
				played("south", "C2", "Windy Peak"), summon("south", "B2", "Void Wraith"), southEnd},
			nil},
		{"an Avatar left in the void is allowed",
			[]string{southTurn, played("south", "C1", "Ember Flat"), cellEvent("card_removed", "C1", "Ember Flat"), southEnd},
			nil},
		{"a minion under a land site without Burrowing",
			[]string{southTurn, played("south", "C1", "Ember Flat"), summon("south", "C1", "Scout"), cellEvent("unit_under", "C1", "Scout"), southEnd},
			[]string{"unit.subsurface C1"}},
		{"back on the surface, it no longer stands",
			[]string{southTurn, played("south", "C1", "Ember Flat"), summon("south", "C1", "Scout"), cellEvent("unit_under", "C1", "Scout"),
				cellEvent("unit_surfaced", "C1", "Scout")},
			nil},
		{"a Waterbound minion on land",
			[]string{southTurn, played("south", "C1", "Tide Pool"), southEnd, northTurn, northEnd, southTurn,
				played("south", "C2", "Ember Flat"), summon("south", "C2", "Sea Hulk"), southEnd},
			[]string{"unit.waterbound C2"}},
		{"the game is over: nothing stands",
			[]string{southTurn, played("south", "C1", "Ember Flat"), summon("south", "C2", "Scout"), amount("damage", "north", "20"), southEnd,
				northTurn, amount("damage", "north", "1")},
			nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, _ := play(t, testCatalog(), append([]string{gameStart}, tt.lines...)...)
			st := g.State()
			var got []string
			for _, w := range st.Standing {
				got = append(got, string(w.Code)+" "+cellNames(w.Cells))
				if w.Message == "" || !strings.Contains(w.Message, "(") {
					t.Errorf("standing %s: message %q should say what to do and cite the rule", w.Code, w.Message)
				}
			}
			if strings.Join(got, "; ") != strings.Join(tt.want, "; ") {
				t.Errorf("standing %q, want %q", got, tt.want)
			}
			if st.Standing == nil {
				t.Error("Standing is nil; want an empty list, as JSON []")
			}
		})
	}
}

// TestOtherStandingLeavesOutTheEventsOwn: the event that put a minion in
// the void warns of it; the same thing standing is not said twice.
func TestOtherStandingLeavesOutTheEventsOwn(t *testing.T) {
	g, _ := play(t, testCatalog(), gameStart, southTurn, played("south", "C1", "Ember Flat"), summon("south", "C2", "Scout"))
	st := g.State()
	if len(st.Warnings) != 1 || len(st.Standing) != 1 {
		t.Fatalf("warnings %v standing %v, want one of each", st.Warnings, st.Standing)
	}
	if other := st.OtherStanding(); len(other) != 0 {
		t.Errorf("OtherStanding %v, want none: the event's warning speaks of it", other)
	}
	if _, err := applyLine(g, southEnd); err != nil {
		t.Fatal(err)
	}
	if other := g.State().OtherStanding(); len(other) != 1 || !strings.Contains(other[0].Message, "still in the void at C2") {
		t.Errorf("after the next event OtherStanding %v, want Scout still in the void at C2", other)
	}
}
