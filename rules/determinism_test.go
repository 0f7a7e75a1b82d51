package rules

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestReplayIsDeterministic: replaying the same events gives identical states,
// down to the JSON bytes, and the history returned is a copy.
func TestReplayIsDeterministic(t *testing.T) {
	lines := []string{gameStart, southTurn, played("south", "C1", "Tide Pool"), summon("south", "C1", "Reef Eel"), southEnd,
		northTurn, played("north", "C4", "Ember Flat"), played("north", "C3", "Tide Pool"), northEnd,
		southTurn, played("south", "C2", "Stone Field"), played("south", "B1", "Tide Pool"), moved("Reef Eel", "C1", "C2"),
		amount("damage", "north", "20"), southEnd, northTurn, amount("life_gain", "north", "2"), northEnd, southTurn, amount("damage", "north", "1")}
	g1, _ := play(t, testCatalog(), lines...)
	states1, err := Replay(testCatalog(), g1.Events())
	if err != nil {
		t.Fatal(err)
	}
	states2, err := Replay(testCatalog(), g1.Events())
	if err != nil {
		t.Fatal(err)
	}
	for i := range states1 {
		a, _ := json.Marshal(states1[i])
		b, _ := json.Marshal(states2[i])
		if string(a) != string(b) {
			t.Fatalf("state %d differs between replays:\n%s\n%s", i, a, b)
		}
	}
	if !reflect.DeepEqual(states1[len(states1)-1], g1.State()) {
		t.Errorf("the replayed final state differs from the live one")
	}
	for _, n := range []int{0, 5, len(states1) - 1} {
		at, err := g1.StateAt(n)
		if err != nil || !reflect.DeepEqual(at, states1[n]) {
			t.Errorf("StateAt(%d) differs from the replay (%v)", n, err)
		}
	}
	if _, err := g1.StateAt(len(states1)); err == nil {
		t.Errorf("StateAt past the end gave no error")
	}
	evs := g1.Events()
	evs[0].Type = "changed"
	if g1.Events()[0].Type == "changed" {
		t.Errorf("Events does not return a copy")
	}
	st := g1.State()
	st.Realm.Cells["C1"].Units[0].Card = "changed"
	if g1.State().Realm.Cells["C1"].Units[0].Card == "changed" {
		t.Errorf("State shares units with the game")
	}
}
