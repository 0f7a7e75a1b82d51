package rules

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tablecam/tablecam/models"
)

const (
	southTurn = `{"type":"turn_start","player":"south"}`
	southEnd  = `{"type":"turn_end","player":"south"}`
	northTurn = `{"type":"turn_start","player":"north"}`
	northEnd  = `{"type":"turn_end","player":"north"}`
)

func played(p, cell, card string) string {
	return `{"type":"site_played","player":"` + p + `","cell":"` + cell + `","card":"` + card + `"}`
}
func summon(p, cell, card string) string {
	return `{"type":"unit_summoned","player":"` + p + `","cell":"` + cell + `","card":"` + card + `"}`
}
func cellEvent(typ, cell, card string) string {
	return `{"type":"` + typ + `","cell":"` + cell + `","card":"` + card + `"}`
}
func amount(typ, p string, n string) string {
	return `{"type":"` + typ + `","player":"` + p + `","amount":` + n + `}`
}
func moved(card, from, to string) string {
	return `{"type":"unit_moved","card":"` + card + `","from":"` + from + `","to":"` + to + `"}`
}

// TestRules runs every rule family on made-up cards: each case is a game after
// game_start, the warning codes it must raise (in order), and checks on the
// final state.
func TestRules(t *testing.T) {
	south := func(f func(t *testing.T, p models.PlayerState)) check {
		return func(t *testing.T, st models.GameState) { t.Helper(); f(t, st.Players["south"]) }
	}
	north := func(f func(t *testing.T, p models.PlayerState)) check {
		return func(t *testing.T, st models.GameState) { t.Helper(); f(t, st.Players["north"]) }
	}
	mana := func(avail, total int) func(t *testing.T, p models.PlayerState) {
		return func(t *testing.T, p models.PlayerState) {
			t.Helper()
			if p.Mana != (models.ManaState{Available: avail, Total: total}) {
				t.Errorf("mana %+v, want %d/%d", p.Mana, avail, total)
			}
		}
	}
	life := func(n int, door, defeated bool) func(t *testing.T, p models.PlayerState) {
		return func(t *testing.T, p models.PlayerState) {
			t.Helper()
			if p.Life != n || p.DeathsDoor != door || p.Defeated != defeated {
				t.Errorf("life %d door %v defeated %v, want %d %v %v", p.Life, p.DeathsDoor, p.Defeated, n, door, defeated)
			}
		}
	}
	winner := func(w models.Player) check {
		return func(t *testing.T, st models.GameState) {
			t.Helper()
			if st.Winner != w {
				t.Errorf("winner %v, want %v", st.Winner, w)
			}
		}
	}
	unit := func(cell, card string, tapped, entered bool) check {
		return func(t *testing.T, st models.GameState) {
			t.Helper()
			for _, u := range st.Realm.Cells[cell].Units {
				if u.Card == card {
					if u.Tapped != tapped || u.EnteredThisTurn != entered {
						t.Errorf("%s at %s: tapped %v entered %v, want %v %v", card, cell, u.Tapped, u.EnteredThisTurn, tapped, entered)
					}
					return
				}
			}
			t.Errorf("no %s at %s: %+v", card, cell, st.Realm.Cells[cell])
		}
	}
	noUnit := func(cell, card string) check {
		return func(t *testing.T, st models.GameState) {
			t.Helper()
			for _, u := range st.Realm.Cells[cell].Units {
				if u.Card == card {
					t.Errorf("%s still at %s", card, cell)
				}
			}
		}
	}
	affinity := func(p string, want models.Thresholds) check {
		return func(t *testing.T, st models.GameState) {
			t.Helper()
			if got := st.Players[p].Affinity; got != want {
				t.Errorf("%s affinity %v, want %v", p, got, want)
			}
		}
	}
	realm := func(water, land string) check {
		return func(t *testing.T, st models.GameState) {
			t.Helper()
			if got := groups(st.Realm.BodiesOfWater); got != water {
				t.Errorf("bodies of water %q, want %q", got, water)
			}
			if got := groups(st.Realm.SpansOfLand); got != land {
				t.Errorf("spans of land %q, want %q", got, land)
			}
		}
	}

	cases := []struct {
		name   string
		lines  []string
		want   []string
		checks []check
	}{
		// Mana.
		{"a site entering in your turn gives one mana at once",
			[]string{southTurn, played("south", "C1", "Ember Flat")}, nil,
			[]check{south(mana(1, 1)), north(mana(0, 0))}},
		{"each site you control gives one mana at the start of your turn",
			[]string{southTurn, played("south", "C1", "Ember Flat"), southEnd, northTurn, played("north", "C4", "Tide Pool"), northEnd,
				southTurn, played("south", "C2", "Tide Pool")}, nil,
			[]check{south(mana(2, 2)), north(mana(0, 0))}},
		{"spending lowers the pool",
			[]string{southTurn, played("south", "C1", "Ember Flat"), amount("mana_spent", "south", "1")}, nil,
			[]check{south(mana(0, 1))}},
		{"unspent mana is lost at the end of the turn",
			[]string{southTurn, played("south", "C1", "Ember Flat"), southEnd}, nil,
			[]check{south(mana(0, 0))}},
		{"spending more than is available",
			[]string{southTurn, played("south", "C1", "Ember Flat"), amount("mana_spent", "south", "2")}, []string{"mana.insufficient"},
			[]check{south(mana(0, 1))}},
		{"the inactive player has no mana to spend",
			[]string{southTurn, played("south", "C1", "Ember Flat"), amount("mana_spent", "north", "1")}, []string{"mana.insufficient"},
			[]check{north(mana(0, 0))}},
		{"mana already provided stays when the site is destroyed",
			[]string{southTurn, played("south", "C1", "Ember Flat"), `{"type":"site_destroyed","cell":"C1"}`}, nil,
			[]check{south(mana(1, 1)), affinity("south", models.Thresholds{})}},

		// Affinity.
		{"affinity sums the thresholds of your sites",
			[]string{southTurn, played("south", "C1", "Twin Steppe"), southEnd, northTurn, northEnd, southTurn, played("south", "C2", "Ember Flat")}, nil,
			[]check{affinity("south", models.Thresholds{Earth: 1, Fire: 2}), affinity("north", models.Thresholds{})}},
		{"Rubble gives no affinity and no mana",
			[]string{southTurn, played("south", "C1", "Twin Steppe"), `{"type":"site_destroyed","cell":"C1"}`, southEnd, northTurn, northEnd, southTurn}, nil,
			[]check{affinity("south", models.Thresholds{}), south(mana(0, 0)), func(t *testing.T, st models.GameState) {
				if s := st.Realm.Cells["C1"].Site; s == nil || s.Card != "Rubble" || s.Controller != models.NoPlayer {
					t.Errorf("C1 site %+v, want Rubble with no controller", s)
				}
			}}},

		// Site placement.
		{"the first site goes on the Avatar's cell",
			[]string{southTurn, played("south", "C1", "Ember Flat")}, nil, nil},
		{"a first site away from the Avatar",
			[]string{southTurn, played("south", "E4", "Ember Flat")}, []string{"site.not_nearest_avatar"}, nil},
		{"without sites, a free cell nearest the Avatar is fine",
			[]string{`{"type":"turn_start","player":"north"}`, played("north", "C4", "Ember Flat"), played("north", "C3", "Tide Pool"), northEnd,
				southTurn, moved("Test Seer", "C1", "C2"), moved("Test Seer", "C2", "C3"), southEnd, northTurn, northEnd,
				southTurn, played("south", "B3", "Ember Flat")},
			[]string{"turn.out_of_order", "site.avatar_tapped", "unit.void"}, []check{south(mana(1, 1))}},
		{"without sites, a free cell farther from the Avatar than needed",
			[]string{`{"type":"turn_start","player":"north"}`, played("north", "C4", "Ember Flat"), played("north", "C3", "Tide Pool"), northEnd,
				southTurn, moved("Test Seer", "C1", "C2"), moved("Test Seer", "C2", "C3"), southEnd, northTurn, northEnd,
				southTurn, played("south", "A3", "Ember Flat")},
			[]string{"turn.out_of_order", "site.avatar_tapped", "unit.void", "site.not_nearest_avatar"}, nil},
		{"a site adjacent to one you control",
			[]string{southTurn, played("south", "C1", "Ember Flat"), southEnd, northTurn, northEnd, southTurn, played("south", "C2", "Tide Pool")}, nil, nil},
		{"a site not adjacent to any you control",
			[]string{southTurn, played("south", "C1", "Ember Flat"), southEnd, northTurn, northEnd, southTurn, played("south", "D2", "Tide Pool")},
			[]string{"site.not_adjacent"}, nil},
		{"a diagonal site is not adjacent",
			[]string{southTurn, played("south", "C1", "Ember Flat"), southEnd, northTurn, northEnd, southTurn, played("south", "B2", "Tide Pool")},
			[]string{"site.not_adjacent"}, nil},
		{"a site on a site",
			[]string{southTurn, played("south", "C1", "Ember Flat"), southEnd, northTurn, northEnd, southTurn, played("south", "C1", "Tide Pool")},
			[]string{"site.occupied"}, nil},
		{"a site on Rubble",
			[]string{southTurn, played("south", "C1", "Ember Flat"), `{"type":"site_destroyed","cell":"C1"}`, southEnd, northTurn, northEnd,
				southTurn, played("south", "C1", "Tide Pool")}, nil, nil},
		{"playing a site taps the Avatar",
			[]string{southTurn, played("south", "C1", "Ember Flat")}, nil, []check{unit("C1", "Test Seer", true, false)}},
		{"a second site while the Avatar is tapped",
			[]string{southTurn, played("south", "C1", "Ember Flat"), played("south", "C2", "Tide Pool")}, []string{"site.avatar_tapped"},
			[]check{south(mana(2, 2))}},
		{"the Avatar seen tapping just before its site is played",
			[]string{southTurn, cellEvent("card_tapped", "C1", "Test Seer"), played("south", "C1", "Ember Flat")}, nil,
			[]check{unit("C1", "Test Seer", true, false)}},
		{"the Avatar tapped, moved, then a site played",
			[]string{southTurn, cellEvent("card_tapped", "C1", "Test Seer"), moved("Test Seer", "C1", "C2"), played("south", "C2", "Ember Flat")},
			[]string{"unit.void", "site.avatar_tapped"}, nil},
		{"a site played before any turn_start starts the first turn",
			[]string{played("south", "C1", "Ember Flat")}, nil,
			[]check{south(mana(1, 1)), func(t *testing.T, st models.GameState) {
				if st.Turn != 1 || st.Active != models.South {
					t.Errorf("turn %d active %v, want turn 1 south", st.Turn, st.Active)
				}
			}}},
		{"the second player acting before any turn_start",
			[]string{played("north", "C4", "Ember Flat")}, []string{"turn.out_of_order"}, []check{north(mana(1, 1))}},
		{"a site played by the inactive player",
			[]string{southTurn, played("north", "C4", "Tide Pool")}, []string{"turn.inactive_player"}, []check{north(mana(0, 0))}},

		// Water and land.
		{"bodies of water and spans of land",
			[]string{southTurn, played("south", "C1", "Tide Pool"), southEnd, northTurn, played("north", "C4", "Ember Flat"), northEnd,
				southTurn, played("south", "C2", "Tide Pool"), southEnd, northTurn, played("north", "C3", "Windy Peak"), northEnd,
				southTurn, played("south", "B1", "Stone Field"), southEnd, northTurn, played("north", "D4", "Tide Pool"), northEnd},
			nil, []check{realm("[C1 C2] [D4]", "[B1] [C3 C4]")}},

		// Life, death's door and death blow.
		{"damage lowers life",
			[]string{southTurn, amount("damage", "north", "3")}, nil, []check{north(life(17, false, false))}},
		{"life never goes above the starting life",
			[]string{southTurn, amount("damage", "north", "3"), amount("life_gain", "north", "5")}, nil, []check{north(life(20, false, false))}},
		{"life 0 puts the Avatar at death's door, immune for the rest of the turn",
			[]string{southTurn, amount("damage", "north", "25"), amount("damage", "north", "2")}, nil,
			[]check{north(life(0, true, false)), winner(models.NoPlayer)}},
		{"damage at death's door on a later turn is a death blow",
			[]string{southTurn, amount("damage", "north", "20"), southEnd, northTurn, northEnd, southTurn, amount("damage", "north", "1")}, nil,
			[]check{north(life(0, true, true)), winner(models.South)}},
		{"life loss at death's door is never a death blow",
			[]string{southTurn, amount("life_loss", "north", "20"), southEnd, northTurn, northEnd, southTurn, amount("life_loss", "north", "4")}, nil,
			[]check{north(life(0, true, false)), winner(models.NoPlayer)}},
		{"an Avatar at death's door cannot gain life",
			[]string{southTurn, amount("damage", "south", "20"), amount("life_gain", "south", "3")}, []string{"life.gain_at_deaths_door"},
			[]check{south(life(0, true, false))}},
		{"events after the death blow",
			[]string{southTurn, amount("damage", "north", "20"), southEnd, northTurn, amount("damage", "north", "1"), northEnd},
			[]string{"game.over"}, []check{winner(models.South)}},

		// Units.
		{"a minion cast to the void without Voidwalk",
			[]string{southTurn, played("south", "C1", "Ember Flat"), summon("south", "C2", "Scout")}, []string{"unit.void"}, nil},
		{"a minion with Voidwalk in the void",
			[]string{southTurn, played("south", "C1", "Windy Peak"), southEnd, northTurn, northEnd, southTurn,
				played("south", "C2", "Windy Peak"), summon("south", "B2", "Void Wraith")}, nil, nil},
		{"a minion moved into the void",
			[]string{southTurn, played("south", "C1", "Ember Flat"), summon("south", "C1", "Scout"), southEnd, northTurn, northEnd, southTurn,
				moved("Scout", "C1", "C2")}, []string{"unit.void"}, nil},
		{"an Avatar moved into the void",
			[]string{southTurn, played("south", "C1", "Ember Flat"), moved("Test Seer", "C1", "C2")}, []string{"unit.void"}, nil},
		{"a site taken away from under a minion",
			[]string{southTurn, played("south", "C1", "Ember Flat"), summon("south", "C1", "Scout"), cellEvent("card_removed", "C1", "Ember Flat")},
			[]string{"unit.void"}, []check{func(t *testing.T, st models.GameState) {
				if st.Realm.Cells["C1"].Site != nil {
					t.Errorf("C1 still has a site")
				}
			}}},
		{"a minion under a land site without Burrowing",
			[]string{southTurn, played("south", "C1", "Ember Flat"), summon("south", "C1", "Scout"), cellEvent("unit_under", "C1", "Scout")},
			[]string{"unit.subsurface"}, nil},
		{"an Avatar under its site",
			[]string{southTurn, played("south", "C1", "Stone Field"), cellEvent("unit_under", "C1", "Test Seer")},
			[]string{"unit.subsurface"}, nil},
		{"a Burrowing minion under a land site",
			[]string{southTurn, played("south", "C1", "Stone Field"), summon("south", "C1", "Tunnel Mole"), cellEvent("unit_under", "C1", "Tunnel Mole")},
			nil, nil},
		{"a Submerge minion under a land site",
			[]string{southTurn, played("south", "C1", "Tide Pool"), played("south", "C2", "Stone Field"), summon("south", "C2", "Reef Eel"),
				cellEvent("unit_under", "C2", "Reef Eel")},
			[]string{"site.avatar_tapped", "unit.subsurface"}, nil},
		{"a submerged minion when its water site becomes Rubble",
			[]string{southTurn, played("south", "C1", "Tide Pool"), summon("south", "C1", "Reef Eel"), cellEvent("unit_under", "C1", "Reef Eel"),
				`{"type":"site_destroyed","cell":"C1"}`},
			[]string{"unit.subsurface"}, nil},
		{"a Waterbound minion moved onto land",
			[]string{southTurn, played("south", "C1", "Tide Pool"), summon("south", "C1", "Sea Hulk"), southEnd, northTurn, northEnd,
				southTurn, played("south", "C2", "Stone Field"), moved("Sea Hulk", "C1", "C2")}, []string{"unit.waterbound"}, nil},
		{"a Waterbound minion when its water site becomes Rubble",
			[]string{southTurn, played("south", "C1", "Tide Pool"), summon("south", "C1", "Sea Hulk"), `{"type":"site_destroyed","cell":"C1"}`},
			[]string{"unit.waterbound"}, nil},
		{"a Landbound minion cast to water",
			[]string{southTurn, played("south", "C1", "Tide Pool"), summon("south", "C1", "Dune Crawler")}, []string{"unit.landbound"}, nil},
		{"a Landbound minion on land",
			[]string{southTurn, played("south", "C1", "Stone Field"), summon("south", "C1", "Dune Crawler")}, nil, nil},
		{"Rubble placed by an effect",
			[]string{southTurn, played("south", "C1", "Stone Field"), played("south", "C2", "Rubble")}, nil,
			[]check{realm("", "[C1 C2]"), south(mana(1, 1)), unit("C1", "Test Seer", true, false)}},
		{"Rubble placed on a site",
			[]string{southTurn, played("south", "C1", "Stone Field"), played("south", "C1", "Rubble")}, []string{"site.occupied"},
			[]check{realm("", "[C1]"), affinity("south", models.Thresholds{})}},
		{"a minion back on the surface is safe when its site changes",
			[]string{southTurn, played("south", "C1", "Tide Pool"), summon("south", "C1", "Reef Eel"), cellEvent("unit_under", "C1", "Reef Eel"),
				cellEvent("unit_surfaced", "C1", "Reef Eel"), `{"type":"site_destroyed","cell":"C1"}`}, nil, nil},
		{"a minion that entered this turn taps",
			[]string{southTurn, played("south", "C1", "Ember Flat"), summon("south", "C1", "Scout"), cellEvent("card_tapped", "C1", "Scout")},
			[]string{"unit.summoning_sick"}, []check{unit("C1", "Scout", true, true)}},
		{"a minion taps on a later turn",
			[]string{southTurn, played("south", "C1", "Ember Flat"), summon("south", "C1", "Scout"), southEnd, northTurn, northEnd, southTurn,
				cellEvent("card_tapped", "C1", "Scout")}, nil, []check{unit("C1", "Scout", true, false)}},
		{"a token that entered this turn taps",
			[]string{southTurn, played("south", "C1", "Ember Flat"), summon("south", "C1", "Spirit Token"), cellEvent("card_tapped", "C1", "Spirit Token")},
			[]string{"unit.summoning_sick"}, []check{south(mana(1, 1))}},
		{"a site taps for its ability",
			[]string{southTurn, played("south", "C1", "Ember Flat"), cellEvent("card_tapped", "C1", "Ember Flat")}, nil, nil},
		{"an Avatar is never summoning sick",
			[]string{southTurn, cellEvent("card_tapped", "C1", "Test Seer")}, nil, nil},

		// Turns.
		{"the start phase untaps the active player's cards",
			[]string{southTurn, played("south", "C1", "Ember Flat"), southEnd, northTurn, cellEvent("card_tapped", "C4", "Test Warden"), northEnd, southTurn},
			nil, []check{unit("C1", "Test Seer", false, false), unit("C4", "Test Warden", true, false)}},
		{"a card untaps in its controller's start phase",
			[]string{southTurn, played("south", "C1", "Ember Flat"), southEnd, northTurn, northEnd, cellEvent("card_tapped", "C1", "Test Seer"),
				southTurn, cellEvent("card_untapped", "C1", "Test Seer")}, nil, nil},
		{"a card untaps in its controller's main phase",
			[]string{southTurn, played("south", "C1", "Ember Flat"), cellEvent("card_untapped", "C1", "Test Seer")},
			[]string{"untap.out_of_turn"}, []check{unit("C1", "Test Seer", false, false)}},
		{"a card untaps in the opponent's turn",
			[]string{southTurn, cellEvent("card_tapped", "C4", "Test Warden"), cellEvent("card_untapped", "C4", "Test Warden")},
			[]string{"untap.out_of_turn"}, nil},
		{"the wrong player takes the first turn",
			[]string{northTurn}, []string{"turn.out_of_order"}, nil},
		{"a player takes two turns in a row",
			[]string{southTurn, southEnd, southTurn}, []string{"turn.out_of_order"}, nil},
		{"a turn ended by the other player",
			[]string{southTurn, northEnd}, []string{"turn.out_of_order"}, nil},
		{"a missing turn_end ends the turn anyway",
			[]string{southTurn, played("south", "C1", "Ember Flat"), summon("south", "C1", "Scout"), northTurn}, nil,
			[]check{south(mana(0, 0)), unit("C1", "Scout", false, false)}},

		// Casting.
		{"a spell within mana and threshold",
			[]string{southTurn, played("south", "C1", "Ember Flat"), `{"type":"spell_cast","player":"south","card":"Spark"}`}, nil,
			[]check{south(mana(0, 1))}},
		{"a spell costing more than the mana available",
			[]string{southTurn, played("south", "C1", "Ember Flat"), `{"type":"spell_cast","player":"south","card":"Firestorm"}`},
			[]string{"threshold.unmet", "mana.insufficient"}, []check{south(mana(0, 1))}},
		{"a minion whose threshold is unmet",
			[]string{southTurn, played("south", "C1", "Tide Pool"), summon("south", "C1", "Water Sprite")},
			[]string{"threshold.unmet", "mana.insufficient"}, nil},
		{"a minion cast to the opponent's site",
			[]string{southTurn, played("south", "C1", "Ember Flat"), southEnd, northTurn, played("north", "C4", "Ember Flat"), northEnd,
				southTurn, summon("south", "C4", "Scout")}, []string{"summon.not_own_site"}, nil},
		{"an artifact conjured into the hands of the caster's Avatar",
			[]string{southTurn, played("south", "C1", "Ember Flat"), southEnd, northTurn, played("north", "C4", "Ember Flat"), northEnd,
				southTurn, `{"type":"unit_moved","card":"Test Seer","from":"C1","to":"C2"}`, summon("south", "C2", "Brass Amulet")},
			[]string{"unit.void"}, nil},
		{"an artifact conjured to the opponent's site",
			[]string{southTurn, played("south", "C1", "Ember Flat"), southEnd, northTurn, played("north", "C4", "Ember Flat"), northEnd,
				southTurn, summon("south", "C4", "Brass Amulet")}, []string{"summon.not_own_site"}, nil},
		{"a spell cast by the inactive player",
			[]string{southTurn, played("south", "C1", "Ember Flat"), `{"type":"spell_cast","player":"north","card":"Spark"}`},
			[]string{"turn.inactive_player", "threshold.unmet", "mana.insufficient"}, nil},
		{"an artifact with no threshold",
			[]string{southTurn, played("south", "C1", "Tide Pool"), summon("south", "C1", "Brass Amulet")}, nil,
			[]check{south(mana(0, 1)), unit("C1", "Brass Amulet", false, true)}},
		{"removing a unit",
			[]string{southTurn, played("south", "C1", "Ember Flat"), summon("south", "C1", "Scout"), cellEvent("card_removed", "C1", "Scout")}, nil,
			[]check{noUnit("C1", "Scout")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g, all := play(t, testCatalog(), append([]string{gameStart}, tc.lines...)...)
			want := tc.want
			if want == nil {
				want = []string{}
			}
			if got := allCodes(all); !reflect.DeepEqual(got, want) {
				t.Errorf("warnings %v, want %v", got, want)
				for _, ws := range all {
					for _, w := range ws {
						t.Logf("  %s: %s", w.Code, w.Message)
					}
				}
			}
			st := g.State()
			for _, c := range tc.checks {
				c(t, st)
			}
		})
	}
}

// TestWarningShape checks that a warning names the player, the cells, and cites the rule.
func TestWarningShape(t *testing.T) {
	_, all := play(t, testCatalog(), gameStart, southTurn, played("south", "E4", "Ember Flat"))
	ws := all[len(all)-1]
	if len(ws) != 1 {
		t.Fatalf("warnings %+v", ws)
	}
	w := ws[0]
	if w.Code != SiteNotNearestAvatar || w.Player != models.South || cellNames(w.Cells) != "E4 C1" {
		t.Errorf("warning %+v", w)
	}
	if !strings.Contains(w.Message, "(Playing Sites)") || !strings.HasSuffix(w.Message, ".") {
		t.Errorf("message %q does not cite the rule in one sentence", w.Message)
	}
}

func TestWarningCodesAreDistinct(t *testing.T) {
	seen := map[models.WarningCode]bool{}
	for _, c := range WarningCodes() {
		if seen[c] || !strings.Contains(string(c), ".") {
			t.Errorf("code %q repeated or malformed", c)
		}
		seen[c] = true
	}
	for _, c := range []models.WarningCode{"site.occupied", "site.not_adjacent", "site.not_nearest_avatar", "site.avatar_tapped",
		"mana.insufficient", "threshold.unmet", "unit.void", "unit.subsurface", "unit.summoning_sick", "untap.out_of_turn", "life.gain_at_deaths_door"} {
		if !seen[c] {
			t.Errorf("missing code %q", c)
		}
	}
}
