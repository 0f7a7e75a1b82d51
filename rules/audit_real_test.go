package rules

import (
	"testing"

	"github.com/tablecam/tablecam/models"
)

// TestRealAvatarsLife: every Avatar of the card list starts at its printed
// life, 20, which is also its maximum ("Avatars have a starting life … This is
// also the Avatar's maximum life, which cannot be exceeded").
func TestRealAvatarsLife(t *testing.T) {
	cat := realCatalog(t)
	n := 0
	for _, c := range cat.Cards() {
		if c.Type != models.Avatar {
			continue
		}
		n++
		start := `{"type":"game_start","south":{"avatar":"` + c.Name + `","life":15},"north":{"avatar":"` + c.Name + `"},"first":"south"}`
		g, _ := play(t, cat, start, southTurn, amount("life_gain", "south", "9"))
		st := g.State()
		if st.Players["north"].Life != 20 || st.Players["south"].Life != 20 {
			t.Errorf("%s: life %d (north) and %d (south after 15 + 9), want 20 and 20",
				c.Name, st.Players["north"].Life, st.Players["south"].Life)
		}
	}
	if n < 20 {
		t.Errorf("only %d Avatars in the card list", n)
	}
}

// TestRealCardsRules plays real cards of the shared card list against the
// rulebook: keywords, Automatons, X costs, tokens and what cards provide.
func TestRealCardsRules(t *testing.T) {
	cat := realCatalog(t)
	mana := func(avail, total int) check {
		return func(t *testing.T, st models.GameState) {
			t.Helper()
			if got := st.Players["south"].Mana; got != (models.ManaState{Available: avail, Total: total}) {
				t.Errorf("south mana %d/%d, want %d/%d", got.Available, got.Total, avail, total)
			}
		}
	}
	affinity := func(air, earth, fire, water int) check {
		return func(t *testing.T, st models.GameState) {
			t.Helper()
			want := models.Thresholds{Air: air, Earth: earth, Fire: fire, Water: water}
			if got := st.Players["south"].Affinity; got != want {
				t.Errorf("south affinity %v, want %v", got, want)
			}
		}
	}
	// Sites at C1, B1, D1, C2: 4 mana, 2 air, 1 earth, 2 fire.
	airRealm := realmOf(realStart, "Dark Tower", "Dark Tower", "Steppe", "Arid Desert")
	// Sites at C1, B1, D1, C2, B2: 5 mana, 1 earth, 4 fire.
	fireRealm := realmOf(realStart, "Arid Desert", "Arid Desert", "Red Desert", "Steppe", "Red Desert")

	cases := []ruleCase{
		{"Gyre Hippogriffs (Airborne, Charge) tap and step diagonally the turn they arrive",
			"Airborne units only get to move diagonally on the surface (clarifications); Charge lifts summoning sickness",
			then(airRealm, summon("south", "B1", "Gyre Hippogriffs"), cellEvent("card_tapped", "B1", "Gyre Hippogriffs"), moved("Gyre Hippogriffs", "B1", "C2")),
			[]string{}, []check{mana(0, 4)}},
		{"Ravenous Werewolf (Charge, Movement +1) runs two steps at once",
			"some abilities allow units to take additional steps (such as Movement +1)",
			then(fireRealm, summon("south", "B1", "Ravenous Werewolf"), moved("Ravenous Werewolf", "B1", "D1")),
			[]string{}, []check{mana(0, 5)}},
		{"Rimland Nomads (Movement +1, no Charge) cannot move the turn they arrive",
			"A minion suffering from summoning sickness cannot tap",
			then(fireRealm, summon("south", "B1", "Rimland Nomads"), moved("Rimland Nomads", "B1", "C1")),
			[]string{"unit.summoning_sick"}, nil},
		{"Rimland Nomads take three steps: too far",
			"By default, units can move one step.",
			then(then(fireRealm, summon("south", "B2", "Rimland Nomads")), append(nextSouthTurn, moved("Rimland Nomads", "B2", "D1"))...),
			[]string{"unit.move_range"}, nil},
		{"Clay Golem is an Automaton, so a minion with summoning sickness",
			"Automatons are artifacts that are minions.",
			then(airRealm, summon("south", "C1", "Clay Golem"), cellEvent("card_tapped", "C1", "Clay Golem")),
			[]string{"unit.summoning_sick"}, []check{mana(0, 4)}},
		{"Arcane Barrage costs the X paid",
			"You cannot pay a cost if the amount required exceeds the mana available.",
			then(realmOf(realStart, "Dark Tower", "Dark Tower", "Dark Tower"), `{"type":"spell_cast","player":"south","card":"Arcane Barrage","amount":2}`),
			[]string{}, []check{mana(1, 3)}},
		{"Arcane Barrage needs three air",
			"you must be able to meet all of a spell's required threshold in order to cast it",
			then(airRealm, `{"type":"spell_cast","player":"south","card":"Arcane Barrage","amount":2}`),
			[]string{"threshold.unmet"}, []check{mana(2, 4)}},
		{"Blacksmith Family provides fire",
			"Other card types might also provide mana turn-after-turn in a manner similar to sites",
			then(realmOf(realStart, "Stream", "Pond"), summon("south", "C1", "Blacksmith Family")),
			[]string{}, []check{affinity(0, 0, 1, 2), mana(0, 2)}},
		{"Amethyst Core provides air and mana as it enters",
			"Other card types might also provide mana turn-after-turn in a manner similar to sites",
			then(realmOf(realStart, "Stream"), summon("south", "C1", "Amethyst Core")),
			[]string{}, []check{affinity(1, 0, 0, 1), mana(1, 2)}},
		{"Tintagel provides in the back row",
			"Tintagel: Only provides mana and threshold while in your back row.",
			realmOf(realStart, "Tintagel"),
			[]string{}, []check{affinity(1, 1, 0, 1), mana(1, 1)}},
		{"Tintagel provides nothing out of the back row",
			"Tintagel: Only provides mana and threshold while in your back row.",
			then(realmOf(realStart, "Stream"), played("south", "C2", "Tintagel")),
			[]string{}, []check{affinity(0, 0, 0, 1), mana(1, 1)}},
		{"City of Glass provides two mana to a player with air",
			"City of Glass: (A) — Provides (2) instead but is destroyed when damaged.",
			realmOf(realStart, "Dark Tower", "City of Glass"),
			[]string{}, []check{affinity(1, 0, 0, 0), mana(3, 3)}},
		{"City of Glass provides one mana to a player without air",
			"City of Glass: (A) — Provides (2) instead but is destroyed when damaged.",
			realmOf(realStart, "Arid Desert", "City of Glass"),
			[]string{}, []check{affinity(0, 0, 1, 0), mana(2, 2)}},
		{"Avalon provides for both players",
			"Avalon: Provides mana and threshold for everyone.",
			then(realmOf(realStart, "Avalon"), southEnd, northTurn),
			[]string{}, []check{affinity(1, 1, 1, 1), func(t *testing.T, st models.GameState) {
				t.Helper()
				if got := st.Players["north"].Mana; got != (models.ManaState{Available: 1, Total: 1}) {
					t.Errorf("north mana %+v from south's Avalon, want 1/1", got)
				}
			}}},
		{"Pristine Paradise under the Avatar provides nothing",
			"Pristine Paradise: Provides no mana or threshold unless completely empty.",
			realmOf(realStart, "Pristine Paradise"),
			[]string{}, []check{affinity(0, 0, 0, 0), mana(0, 0)}},
		{"Wedding Hall provides threshold but no mana",
			"Wedding Hall: Provides no mana, but …",
			realmOf(realStart, "Wedding Hall"),
			[]string{}, []check{affinity(1, 1, 1, 1), mana(0, 0)}},
		{"Elementalist's additional threshold meets Pendragon Legacy's two earth",
			"Elementalist: You have an additional (E)(F)(W)(A).",
			then(realmOf(`{"type":"game_start","south":{"avatar":"Elementalist"},"north":{"avatar":"Geomancer"},"first":"south"}`, "Steppe"),
				`{"type":"spell_cast","player":"south","card":"Pendragon Legacy"}`),
			[]string{}, []check{affinity(1, 2, 2, 1), mana(0, 1)}},
		{"without Elementalist one earth site does not meet Pendragon Legacy",
			"you must be able to meet all of a spell's required threshold in order to cast it",
			then(realmOf(realStart, "Steppe"), `{"type":"spell_cast","player":"south","card":"Pendragon Legacy"}`),
			[]string{"threshold.unmet"}, []check{affinity(0, 1, 1, 0)}},
		{"Pathfinder plays its first site beside itself and moves there",
			"Pathfinder: Tap → If able, play the topmost site of your atlas to an adjacent location and move there.",
			[]string{`{"type":"game_start","south":{"avatar":"Pathfinder"},"north":{"avatar":"Geomancer"},"first":"south"}`,
				southTurn, played("south", "B1", "Steppe"), moved("Pathfinder", "C1", "B1")},
			[]string{}, []check{mana(1, 1)}},
		{"a Frog token costs nothing and may submerge under water",
			"Tokens are small-sized cards that work more or less the same as regular cards while in the realm",
			then(realmOf(realStart, "Autumn River"), summon("south", "C1", "Frog"), cellEvent("unit_under", "C1", "Frog")),
			[]string{}, []check{mana(1, 1)}},
		{"a Frog cannot burrow under land",
			"Existing in the subsurface is extremely hazardous and minions that somehow find their way there immediately die",
			then(realmOf(realStart, "Arid Desert"), summon("south", "C1", "Frog"), cellEvent("unit_under", "C1", "Frog")),
			[]string{"unit.subsurface"}, nil},
		{"Sand Worm (Burrowing, Landbound) burrows under a land site",
			"The lower level of a land site is part of the underground.",
			then(fireRealm, summon("south", "C1", "Sand Worm"), southEnd, northTurn, northEnd, southTurn, cellEvent("unit_under", "C1", "Sand Worm")),
			[]string{}, nil},
	}
	runRuleCases(t, cat, cases)
}
