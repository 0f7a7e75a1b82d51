package rules

import (
	"testing"

	"github.com/tablecam/tablecam/models"
)

// realmOf builds the lines of a game in which south plays one site per turn
// (north passes), then starts south's next turn: south then controls every
// site given, at C1, B1, D1, C2, B2, D2, A1, E1 in that order, each adjacent to
// the ones before. start is the game_start line.
func realmOf(start string, sites ...string) []string {
	cells := []string{"C1", "B1", "D1", "C2", "B2", "D2", "A1", "E1"}
	lines := []string{start}
	for i, s := range sites {
		lines = append(lines, southTurn, played("south", cells[i], s), southEnd, northTurn, northEnd)
	}
	return append(lines, southTurn)
}

// then appends more lines to a game's lines.
func then(lines []string, more ...string) []string {
	return append(append([]string(nil), lines...), more...)
}

// nextSouthTurn ends south's turn, lets north pass, and starts south's next.
var nextSouthTurn = []string{southEnd, northTurn, northEnd, southTurn}

// TestRulebookAudit checks rules point by point against the rulebook (and,
// where it says "clarifications", the judges' comprehensive clarifications).
// Each case quotes the line it checks.
func TestRulebookAudit(t *testing.T) {
	player := func(p string, life int, door, defeated bool) check {
		return func(t *testing.T, st models.GameState) {
			t.Helper()
			ps := st.Players[p]
			if ps.Life != life || ps.DeathsDoor != door || ps.Defeated != defeated {
				t.Errorf("%s life %d door %v defeated %v, want %d %v %v", p, ps.Life, ps.DeathsDoor, ps.Defeated, life, door, defeated)
			}
		}
	}
	mana := func(p string, avail, total int) check {
		return func(t *testing.T, st models.GameState) {
			t.Helper()
			if got := st.Players[p].Mana; got != (models.ManaState{Available: avail, Total: total}) {
				t.Errorf("%s mana %d/%d, want %d/%d", p, got.Available, got.Total, avail, total)
			}
		}
	}
	affinity := func(p string, air, earth, fire, water int) check {
		return func(t *testing.T, st models.GameState) {
			t.Helper()
			want := models.Thresholds{Air: air, Earth: earth, Fire: fire, Water: water}
			if got := st.Players[p].Affinity; got != want {
				t.Errorf("%s affinity %v, want %v", p, got, want)
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
	tapped := func(cell, card string, want bool) check {
		return func(t *testing.T, st models.GameState) {
			t.Helper()
			for _, u := range st.Realm.Cells[cell].Units {
				if u.Card == card {
					if u.Tapped != want {
						t.Errorf("%s at %s tapped %v, want %v", card, cell, u.Tapped, want)
					}
					return
				}
			}
			t.Errorf("no %s at %s", card, cell)
		}
	}

	// South controls C1 (fire), B1 (earth) and D1 (air): three mana.
	three := realmOf(gameStart, "Ember Flat", "Stone Field", "Windy Peak")
	// The same, with north's sites at C3 and C4, two steps from C1.
	withNorth := []string{gameStart,
		southTurn, played("south", "C1", "Ember Flat"), southEnd, northTurn, played("north", "C4", "Tide Pool"), northEnd,
		southTurn, played("south", "B1", "Stone Field"), southEnd, northTurn, played("north", "C3", "Tide Pool"), northEnd,
		southTurn, played("south", "C2", "Windy Peak")}
	atLife := func(south, north string) string {
		return `{"type":"game_start","south":{"avatar":"Test Seer","life":` + south + `},"north":{"avatar":"Test Warden","life":` + north + `},"first":"south"}`
	}

	startAs := func(southAvatar string) string {
		return `{"type":"game_start","south":{"avatar":"` + southAvatar + `"},"north":{"avatar":"Test Warden"},"first":"south"}`
	}
	// South's Wayfinder plays C2 and moves there, then C3 and moves there.
	wayfinder := []string{startAs("Test Wayfinder"),
		southTurn, played("south", "C2", "Ember Flat"), moved("Test Wayfinder", "C1", "C2"), southEnd, northTurn, northEnd,
		southTurn, played("south", "C3", "Ember Flat"), moved("Test Wayfinder", "C2", "C3"), southEnd, northTurn, northEnd, southTurn}

	cases := []ruleCase{
		// Avatars whose text plays sites by another rule. Rulebook, Cards: "Some cards will bend or
		// even break the rules in this rulebook, in these cases the card's text takes precedence";
		// Adjacent and Nearby: "Adjacent: Refers to the card's own location, and the squares that it
		// shares a border with."
		{"an Avatar that plays sites to an adjacent location starts beside itself",
			"card list: \"Pathfinder: Tap → If able, play the topmost site of your atlas to an adjacent location and move there.\"",
			[]string{startAs("Test Wayfinder"), southTurn, played("south", "C2", "Ember Flat"), moved("Test Wayfinder", "C1", "C2")},
			[]string{}, nil},
		{"an Avatar that plays sites to an adjacent location follows itself",
			"card list: \"Pathfinder: … play the topmost site of your atlas to an adjacent location and move there.\"",
			wayfinder, []string{}, []check{mana("south", 2, 2)}},
		{"an Avatar that plays sites to an adjacent location cannot play away from itself",
			"card list: \"Pathfinder: … play the topmost site of your atlas to an adjacent location and move there.\"",
			then(wayfinder, played("south", "C1", "Ember Flat")),
			[]string{"site.not_adjacent"}, nil},
		{"an Avatar that replaces an adjacent Rubble with a site",
			"card list: \"Geomancer: Tap → Replace an adjacent Rubble with the topmost site of your atlas.\"",
			then(realmOf(startAs("Test Delver"), "Stone Field", "Stone Field"), `{"type":"site_destroyed","cell":"C1"}`,
				played("south", "C2", "Rubble"), played("south", "C2", "Ember Flat")),
			[]string{}, nil},
		{"that Avatar replaces only an adjacent Rubble",
			"a site must be placed adjacent to another site that you control",
			then(realmOf(startAs("Test Delver"), "Stone Field", "Stone Field"), `{"type":"site_destroyed","cell":"C1"}`,
				played("south", "C3", "Rubble"), played("south", "C3", "Ember Flat")),
			[]string{"site.not_adjacent"}, nil},

		// Summoning sickness, Charge, and what a tap pays for.
		{"a minion cannot tap the turn it enters",
			"A minion suffering from summoning sickness cannot tap, or be tapped, to pay for costs",
			then(three, summon("south", "C1", "Scout"), cellEvent("card_tapped", "C1", "Scout")),
			[]string{"unit.summoning_sick"}, []check{tapped("C1", "Scout", true)}},
		{"Charge lets a minion tap the turn it enters",
			"Charge (card list: \"Gyre Hippogriffs: Airborne, Charge\") lifts summoning sickness",
			then(three, summon("south", "C1", "War Charger"), cellEvent("card_tapped", "C1", "War Charger")),
			[]string{}, nil},
		{"moving takes a tap, so a new minion cannot move",
			"Every unit can tap to activate the Move and Attack ability",
			then(three, summon("south", "C1", "Scout"), moved("Scout", "C1", "B1")),
			[]string{"unit.summoning_sick"}, nil},
		{"a tap and a move of a new minion are one breach",
			"Every unit can tap to activate the Move and Attack ability",
			then(three, summon("south", "C1", "Scout"), cellEvent("card_tapped", "C1", "Scout"), moved("Scout", "C1", "B1")),
			[]string{"unit.summoning_sick"}, nil},
		{"a Charge minion moves the turn it enters",
			"Charge lifts summoning sickness",
			then(three, summon("south", "C1", "War Charger"), moved("War Charger", "C1", "B1")),
			[]string{}, nil},
		{"summoning sickness lasts until the end of turn",
			"suffers from summoning sickness until the end of turn",
			then(then(three, summon("south", "C1", "Scout")), append(nextSouthTurn, moved("Scout", "C1", "B1"))...),
			[]string{}, nil},
		{"an Automaton is a minion and suffers summoning sickness",
			"Automatons are artifacts that are minions. As such, they have a power rating, have the same basic abilities as regular minions",
			then(three, summon("south", "C1", "Brass Golem"), cellEvent("card_tapped", "C1", "Brass Golem")),
			[]string{"unit.summoning_sick"}, nil},
		{"an ordinary artifact has no summoning sickness",
			"A minion that entered the realm this turn ... suffers from summoning sickness",
			then(three, summon("south", "C1", "Brass Amulet"), cellEvent("card_tapped", "C1", "Brass Amulet")),
			[]string{}, nil},

		// Movement.
		{"a unit moves one step",
			"By default, units can move one step.",
			then(withNorth, summon("south", "C1", "Scout"), southEnd, northTurn, northEnd, southTurn, moved("Scout", "C1", "C2")),
			[]string{}, nil},
		{"two steps without Movement +N",
			"By default, units can move one step.",
			then(withNorth, summon("south", "C1", "Scout"), southEnd, northTurn, northEnd, southTurn, moved("Scout", "C1", "C3")),
			[]string{"unit.move_range"}, nil},
		{"Movement +1 takes two steps",
			"some abilities allow units to take additional steps (such as Movement +1)",
			then(withNorth, summon("south", "C1", "Swift Hound"), southEnd, northTurn, northEnd, southTurn, moved("Swift Hound", "C1", "C3")),
			[]string{}, nil},
		{"a diagonal step is two steps for a unit on foot",
			"Adjacent: Refers to the card's own location, and the squares that it shares a border with.",
			then(withNorth, summon("south", "B1", "Scout"), southEnd, northTurn, northEnd, southTurn, moved("Scout", "B1", "C2")),
			[]string{"unit.move_range"}, nil},
		{"an Airborne unit steps diagonally over the surface",
			"other abilities allow units to take steps diagonally (clarifications: Airborne units only get to move diagonally on the surface)",
			then(withNorth, summon("south", "B1", "Storm Hawk"), southEnd, northTurn, northEnd, southTurn, moved("Storm Hawk", "B1", "C2")),
			[]string{}, nil},
		{"an Immobile unit takes no steps",
			"Units that cannot move by activating their own abilities, can still be moved by other cards and effects.",
			then(withNorth, summon("south", "C1", "Rooted Toad"), southEnd, northTurn, northEnd, southTurn, moved("Rooted Toad", "C1", "C2")),
			[]string{"unit.move_range"}, nil},
		{"an artifact moves with its bearer, whatever the distance",
			"A unit can carry any number of artifacts, which will move with the unit throughout the realm.",
			then(withNorth, summon("south", "C1", "Swift Hound"), summon("south", "C1", "Brass Amulet"), southEnd, northTurn, northEnd, southTurn,
				moved("Swift Hound", "C1", "C3"), moved("Brass Amulet", "C1", "C3")),
			[]string{}, nil},
		{"moving taps the unit",
			"Every unit can tap to activate the Move and Attack ability, which allows it to optionally move",
			then(withNorth, summon("south", "C1", "Scout"), southEnd, northTurn, northEnd, southTurn, moved("Scout", "C1", "C2")),
			[]string{}, []check{tapped("C2", "Scout", true)}},
		{"an Avatar that moved has tapped, so it cannot also play a site",
			"Sites come into play through your Avatar's activated ability: \"Tap → Play or draw a site\"",
			then(realmOf(gameStart, "Ember Flat", "Stone Field"), moved("Test Seer", "C1", "B1"), played("south", "D1", "Windy Peak")),
			[]string{"site.avatar_tapped"}, nil},
		{"an Avatar moves one step too",
			"By default, units can move one step.",
			then(withNorth, moved("Test Seer", "C1", "C3")),
			[]string{"unit.move_range"}, nil},

		// Artifacts that cannot be carried.
		{"an artifact may be conjured into an ally's hands in the void",
			"it is conjured into the realm atop any site you control or directly into the waiting hands of one of your units",
			then(then(realmOf(gameStart, "Windy Peak", "Stone Field"), summon("south", "C1", "Void Wraith")),
				append(nextSouthTurn, moved("Void Wraith", "C1", "C2"), summon("south", "C2", "Brass Amulet"))...),
			[]string{}, nil},
		// Rulebook, Units: "A unit is a collective term that includes both Avatars and minions";
		// Casting Artifacts: "conjured into the realm atop any site you control or directly into the
		// waiting hands of one of your units". An artifact lying there has no hands.
		{"an artifact is not conjured into the hands of another artifact",
			"it is conjured into the realm atop any site you control or directly into the waiting hands of one of your units",
			then(realmOf(gameStart, "Windy Peak", "Stone Field"), summon("south", "B1", "Brass Amulet"),
				cellEvent("card_removed", "B1", "Stone Field"), summon("south", "B1", "Brass Amulet")),
			[]string{"summon.not_own_site"}, nil},
		{"a Monument cannot be carried, so it goes atop a site you control",
			"Monuments are an artifact subtype that cannot be carried.",
			then(then(realmOf(gameStart, "Windy Peak", "Stone Field"), summon("south", "C1", "Void Wraith")),
				append(nextSouthTurn, moved("Void Wraith", "C1", "C2"), summon("south", "C2", "Stone Monolith"))...),
			[]string{"summon.not_own_site"}, nil},
		{"an Automaton conjured to the void is a minion in the void",
			"Any minion that somehow finds its way into the void ... is immediately banished",
			then(then(realmOf(gameStart, "Windy Peak", "Stone Field"), summon("south", "C1", "Void Wraith")),
				append(nextSouthTurn, moved("Void Wraith", "C1", "C2"), summon("south", "C2", "Brass Golem"))...),
			[]string{"unit.void"}, nil},

		{"a unit left in the void by its site is atop the next site, not under it",
			"clarifications: If the unit was in the void, it is now on the surface of the site.",
			then(then(realmOf(gameStart, "Windy Peak", "Stone Field"), summon("south", "B1", "Tunnel Mole"), cellEvent("unit_under", "B1", "Tunnel Mole")),
				append(nextSouthTurn, cellEvent("card_removed", "B1", "Stone Field"), played("south", "B1", "Tide Pool"))...),
			[]string{"unit.void"}, nil},

		// Life, death's door and death blow.
		{"life never exceeds the printed starting life",
			"This is also the Avatar's maximum life, which cannot be exceeded.",
			[]string{atLife("12", "20"), southTurn, amount("life_gain", "south", "15")},
			[]string{}, []check{player("south", 20, false, false)}},
		// Rulebook, Avatars: "This is also the Avatar's maximum life, which cannot be exceeded";
		// clarifications, Maximum and Minimum Life: "An avatar's maximum life is the value printed on
		// their card (20), and cannot exceed that number". A seat set up above it starts at the maximum.
		{"a game set up above the printed life starts at the printed life",
			"This is also the Avatar's maximum life, which cannot be exceeded.",
			[]string{atLife("25", "20"), southTurn},
			[]string{}, []check{player("south", 20, false, false)}},
		{"a seat set up above the printed life cannot heal above it later",
			"This is also the Avatar's maximum life, which cannot be exceeded.",
			[]string{atLife("25", "20"), southTurn, amount("damage", "south", "3"), amount("life_gain", "south", "5")},
			[]string{}, []check{player("south", 20, false, false)}},
		{"a game set up at life 0 starts at death's door, and damage is a death blow",
			"When an Avatar's life is reduced to 0, they are now at death's door",
			[]string{atLife("0", "20"), southTurn, amount("damage", "south", "1")},
			[]string{}, []check{player("south", 0, true, true), winner(models.North)}},
		{"death's door makes the Avatar immune for the rest of that turn",
			"At that moment, the wounded Avatar becomes immune to damage for the rest of that turn.",
			[]string{atLife("20", "3"), southTurn, amount("life_loss", "north", "3"), amount("damage", "north", "5")},
			[]string{}, []check{player("north", 0, true, false), winner(models.NoPlayer)}},
		{"after that window, any damage is a death blow",
			"After that brief and desperate window, any damage dealt to the Avatar is a death blow",
			[]string{atLife("20", "3"), southTurn, amount("damage", "north", "4"), southEnd, northTurn, amount("damage", "north", "1")},
			[]string{}, []check{player("north", 0, true, true), winner(models.South)}},
		{"no damage is no death blow",
			"clarifications: 0 power minions still strike (for 0 damage)",
			[]string{atLife("20", "3"), southTurn, amount("damage", "north", "4"), southEnd, northTurn, amount("damage", "north", "0")},
			[]string{}, []check{player("north", 0, true, false), winner(models.NoPlayer)}},
		{"gaining no life at death's door is no breach",
			"they are now at death's door and can no longer gain life",
			[]string{atLife("0", "20"), southTurn, amount("life_gain", "south", "0")},
			[]string{}, []check{player("south", 0, true, false)}},
		{"a site attack cannot deliver a death blow",
			"attacking a site cannot deliver a death blow because it causes the controlling Avatar to lose life, not take damage directly",
			[]string{atLife("0", "20"), southTurn, amount("life_loss", "south", "4")},
			[]string{}, []check{player("south", 0, true, false), winner(models.NoPlayer)}},

		// Mana and X costs.
		{"an X spell costs the X paid",
			"Spells cost mana to cast. ... You cannot pay a cost if the amount required exceeds the mana available.",
			then(three, `{"type":"spell_cast","player":"south","card":"Arc Volley","amount":3}`),
			[]string{}, []check{mana("south", 0, 3)}},
		{"an X spell cannot pay more X than the mana available",
			"You cannot pay a cost if the amount required exceeds the mana available.",
			then(three, `{"type":"spell_cast","player":"south","card":"Arc Volley","amount":4}`),
			[]string{"mana.insufficient"}, []check{mana("south", 0, 3)}},
		{"an X spell still needs its threshold",
			"you must be able to meet all of a spell's required threshold in order to cast it",
			then(realmOf(gameStart, "Ember Flat", "Stone Field"), `{"type":"spell_cast","player":"south","card":"Arc Volley","amount":1}`),
			[]string{"threshold.unmet"}, []check{mana("south", 1, 2)}},

		// What other cards provide.
		{"a minion that provides threshold adds to affinity",
			"Other card types might also provide mana turn-after-turn in a manner similar to sites (card list: \"Blacksmith Family: Provides (F)\")",
			then(then(realmOf(gameStart, "Stone Field"), summon("south", "C1", "Forge Folk")), append(nextSouthTurn, `{"type":"spell_cast","player":"south","card":"Spark"}`)...),
			[]string{}, []check{affinity("south", 0, 1, 1, 0), mana("south", 0, 1)}},
		{"a minion that provides mana gives it as it enters and each turn",
			"Other card types might also provide mana turn-after-turn in a manner similar to sites",
			then(realmOf(gameStart, "Stone Field"), summon("south", "C1", "Grove Nymphs")),
			[]string{}, []check{mana("south", 1, 2)}},
		{"a mana-providing minion's mana at the start of the turn",
			"At the start of your turn, all of your sites provide one mana each",
			then(then(realmOf(gameStart, "Stone Field"), summon("south", "C1", "Grove Nymphs")), nextSouthTurn...),
			[]string{}, []check{mana("south", 2, 2)}},
		{"an artifact that provides threshold and mana",
			"card list: \"Amethyst Core: Provides (A) and ① to its controller.\"",
			then(realmOf(gameStart, "Stone Field"), summon("south", "C1", "Sky Core")),
			[]string{}, []check{affinity("south", 1, 1, 0, 0), mana("south", 1, 2)}},
		// Rulebook, Cards: "Some cards will bend or even break the rules in this rulebook, in these
		// cases the card's text takes precedence" (card list: "Elementalist: You have an additional
		// (E)(F)(W)(A).").
		{"an Avatar that gives its player threshold adds to their affinity",
			"card list: \"Elementalist: You have an additional (E)(F)(W)(A).\"",
			then(realmOf(`{"type":"game_start","south":{"avatar":"Test Adept"},"north":{"avatar":"Test Warden"},"first":"south"}`, "Stone Field"),
				`{"type":"spell_cast","player":"south","card":"Spark"}`),
			[]string{}, []check{affinity("south", 0, 1, 1, 1), affinity("north", 0, 0, 0, 0), mana("south", 0, 1)}},
		{"a site that provides no mana still gives threshold",
			"card list: \"Wedding Hall: Provides no mana, but …\"; Rubble \"provides no mana or threshold\"",
			then(realmOf(gameStart, "Hollow Hall"), summon("south", "C1", "Scout")),
			[]string{"mana.insufficient"}, []check{affinity("south", 1, 1, 1, 1), mana("south", 0, 0)}},
		{"a site's ability opened by a threshold works while its controller meets it",
			"card list: \"City of Glass: (A) — Provides (2) instead …\"; a site's \"(E)(E)(E) —\" ability needs that affinity",
			realmOf(gameStart, "Windy Peak", "Glass Spire"),
			[]string{}, []check{affinity("south", 1, 0, 0, 0), mana("south", 3, 3)}},
		{"without the threshold the site provides its one mana",
			"At the start of your turn, all of your sites provide one mana each",
			realmOf(gameStart, "Ember Flat", "Glass Spire"),
			[]string{}, []check{mana("south", 2, 2)}},
		{"a site played in your turn provides what it would at once",
			"When one of your sites enters the realm, it immediately provides one mana.",
			then(realmOf(gameStart, "Windy Peak"), played("south", "B1", "Glass Spire")),
			[]string{}, []check{mana("south", 3, 3)}},
		{"a site that must be empty provides while empty",
			"card list: \"Pristine Paradise: Provides no mana or threshold unless completely empty.\"",
			realmOf(gameStart, "Ember Flat", "Quiet Glade"),
			[]string{}, []check{affinity("south", 0, 1, 1, 0), mana("south", 2, 2)}},
		{"a site that must be empty provides nothing once a unit stands on it",
			"card list: \"Pristine Paradise: Provides no mana or threshold unless completely empty.\"",
			then(then(realmOf(gameStart, "Ember Flat", "Quiet Glade"), summon("south", "B1", "Scout")), nextSouthTurn...),
			[]string{}, []check{affinity("south", 0, 0, 1, 0), mana("south", 1, 1)}},
		{"a site next to the void provides",
			"card list: \"The Colour Out of Space: Provides no mana or threshold if not adjacent to the void.\"",
			realmOf(gameStart, "Rift Edge", "Ember Flat", "Ember Flat"),
			[]string{}, []check{affinity("south", 1, 0, 2, 0), mana("south", 3, 3)}},
		{"a site walled in by sites provides nothing",
			"card list: \"The Colour Out of Space: Provides no mana or threshold if not adjacent to the void.\"",
			realmOf(gameStart, "Rift Edge", "Ember Flat", "Ember Flat", "Ember Flat"),
			[]string{}, []check{affinity("south", 0, 0, 3, 0), mana("south", 3, 3)}},
		{"a site that provides for everyone gives the opponent mana and threshold",
			"card list: \"Avalon: Provides mana and threshold for everyone.\"",
			then(realmOf(gameStart, "Isle of Mist"), southEnd, northTurn),
			[]string{}, []check{affinity("north", 0, 0, 0, 1), mana("north", 1, 1), affinity("south", 0, 0, 0, 1)}},
		{"a back-row site provides in the back row",
			"card list: \"Tintagel: Only provides mana and threshold while in your back row.\"",
			realmOf(gameStart, "Old Keep"),
			[]string{}, []check{affinity("south", 1, 1, 0, 0), mana("south", 1, 1)}},
		{"a back-row site provides nothing elsewhere",
			"card list: \"Tintagel: Only provides mana and threshold while in your back row.\"",
			then(realmOf(gameStart, "Ember Flat"), played("south", "C2", "Old Keep")),
			[]string{}, []check{affinity("south", 0, 0, 1, 0), mana("south", 1, 1)}},
	}
	runRuleCases(t, testCatalog(), cases)
}
