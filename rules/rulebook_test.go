package rules

import (
	"reflect"
	"testing"

	"github.com/tablecam/tablecam/models"
)

// realCatalog loads the public card list that sits beside the repository, or
// skips the test when it is absent.
func realCatalog(t *testing.T) *models.Catalog {
	t.Helper()
	cat, err := models.LoadCatalog("../../shared/data/sorcery-cards.json")
	if err != nil {
		t.Skipf("no shared card list: %v", err)
	}
	return cat
}

const realStart = `{"type":"game_start","south":{"avatar":"Sorcerer"},"north":{"avatar":"Geomancer"},"first":"south"}`

// TestRulebookWaterAndLand is the rulebook's example of groups of water and
// land: Autumn River alone (the other water site is only diagonal), Steppe and
// Dark Tower as one span of land, and Arid Desert alone.
func TestRulebookWaterAndLand(t *testing.T) {
	g, _ := play(t, realCatalog(t), realStart, southTurn,
		played("south", "B2", "Autumn River"), played("south", "C3", "Pond"),
		played("south", "C1", "Steppe"), played("south", "D1", "Dark Tower"),
		played("south", "A4", "Arid Desert"))
	st := g.State()
	if got, want := groups(st.Realm.BodiesOfWater), "[B2] [C3]"; got != want {
		t.Errorf("bodies of water %s, want %s", got, want)
	}
	if got, want := groups(st.Realm.SpansOfLand), "[A4] [C1 D1]"; got != want {
		t.Errorf("spans of land %s, want %s", got, want)
	}
}

// TestRulebookMana is the rulebook's Using Mana example: with three mana you
// may cast Sedge Crabs and Polar Explorers (total cost three); Captain
// Baldassare (cost four) needs one more, which playing Maelström provides.
func TestRulebookMana(t *testing.T) {
	cat := realCatalog(t)
	// Three water sites by south's third turn.
	setup := []string{realStart,
		southTurn, played("south", "C1", "Autumn River"), southEnd, northTurn, northEnd,
		southTurn, played("south", "C2", "Pond"), southEnd, northTurn, northEnd,
		southTurn, played("south", "B1", "Stream"), southEnd, northTurn, northEnd,
		southTurn}
	tests := []struct {
		name  string
		lines []string
		want  []string
		mana  models.ManaState
	}{
		{"Sedge Crabs plus Polar Explorers cost three",
			[]string{summon("south", "C1", "Sedge Crabs"), summon("south", "C2", "Polar Explorers")}, []string{}, models.ManaState{Available: 0, Total: 3}},
		{"Captain Baldassare costs four",
			[]string{summon("south", "C1", "Captain Baldassare")}, []string{"mana.insufficient"}, models.ManaState{Available: 0, Total: 3}},
		{"Maelström brings the mana to four for Captain Baldassare",
			[]string{played("south", "D1", "Maelstrom"), summon("south", "C1", "Captain Baldassare")}, []string{}, models.ManaState{Available: 0, Total: 4}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lines := append(append([]string(nil), setup...), tc.lines...)
			g, all := play(t, cat, lines...)
			if got := allCodes(all[len(setup):]); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("warnings %v, want %v", got, tc.want)
			}
			if got := g.State().Players["south"].Mana; got != tc.mana {
				t.Errorf("mana %+v, want %+v", got, tc.mana)
			}
		})
	}
}

// TestRulebookThreshold covers Sir Pelleas (one air and two water) and an
// affinity of three water meeting Adept Illusionist's and Polar Explorers'
// threshold of two.
func TestRulebookThreshold(t *testing.T) {
	cat := realCatalog(t)
	turns := func(sites ...string) []string {
		lines := []string{realStart}
		cells := []string{"C1", "C2", "B1", "D1"}
		for i, s := range sites {
			lines = append(lines, southTurn, played("south", cells[i], s), southEnd, northTurn, northEnd)
		}
		return append(lines, southTurn)
	}
	tests := []struct {
		name     string
		sites    []string
		cast     []string
		affinity models.Thresholds
		want     []string
	}{
		{"Sir Pelleas with water but no air", []string{"Autumn River", "Pond", "Stream"},
			[]string{summon("south", "C1", "Sir Pelleas")}, models.Thresholds{Water: 3}, []string{"threshold.unmet"}},
		{"Sir Pelleas with one air and two water", []string{"Autumn River", "Pond", "Dark Tower"},
			[]string{summon("south", "C1", "Sir Pelleas")}, models.Thresholds{Air: 1, Water: 2}, []string{}},
		{"Sir Pelleas with one air and one water", []string{"Autumn River", "Dark Tower", "Arid Desert"},
			[]string{summon("south", "C1", "Sir Pelleas")}, models.Thresholds{Air: 1, Water: 1, Fire: 1}, []string{"threshold.unmet"}},
		{"affinity of three water meets thresholds of two", []string{"Autumn River", "Pond", "Stream", "Dark Tower"},
			[]string{summon("south", "C1", "Adept Illusionist"), summon("south", "C2", "Polar Explorers")}, models.Thresholds{Air: 1, Water: 3}, []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			setup := turns(tc.sites...)
			g, all := play(t, cat, append(setup, tc.cast...)...)
			if got := g.State().Players["south"].Affinity; got != tc.affinity {
				t.Errorf("affinity %v, want %v", got, tc.affinity)
			}
			if got := allCodes(all[len(setup):]); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("warnings %v, want %v", got, tc.want)
			}
		})
	}
	// Three water exactly, as in the rulebook's picture.
	card, err := cat.Lookup("Adept Illusionist")
	if err != nil {
		t.Fatal(err)
	}
	if !(models.Thresholds{Water: 3}).Meets(card.Thresholds) {
		t.Errorf("an affinity of 3 water does not meet %v", card.Thresholds)
	}
}

// TestRulebookDeathsDoor: death's door, then a death blow on a later turn; and
// life loss at death's door, which ends nothing.
func TestRulebookDeathsDoor(t *testing.T) {
	cat := realCatalog(t)
	g, _ := play(t, cat, realStart, southTurn, amount("damage", "north", "18"), amount("life_loss", "north", "2"),
		amount("damage", "north", "5"), southEnd)
	st := g.State()
	if p := st.Players["north"]; !p.DeathsDoor || p.Defeated || p.Life != 0 || st.Winner != models.NoPlayer {
		t.Fatalf("after reaching 0: %+v winner %v", p, st.Winner)
	}
	for _, ev := range []string{northTurn, amount("life_loss", "north", "3"), northEnd, southTurn, amount("life_loss", "north", "1")} {
		if _, err := applyLine(g, ev); err != nil {
			t.Fatal(err)
		}
	}
	if st := g.State(); st.Winner != models.NoPlayer || st.Players["north"].Defeated {
		t.Fatalf("life loss at death's door ended the game: %+v", st.Players["north"])
	}
	if _, err := applyLine(g, amount("damage", "north", "1")); err != nil {
		t.Fatal(err)
	}
	if st := g.State(); st.Winner != models.South || !st.Players["north"].Defeated {
		t.Fatalf("the death blow did not end the game: winner %v %+v", st.Winner, st.Players["north"])
	}
}
