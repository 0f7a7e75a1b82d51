package rules

import (
	"fmt"
	"reflect"
	"regexp"
	"testing"

	"github.com/tablecam/tablecam/models"
)

// TestRealProvisions reads what every real card whose text speaks of
// providing (or of an "additional" threshold) provides, against a table
// written from the card list. Cards whose provision depends on what the
// camera cannot see (a choice, an aura's area, "this turn", a cemetery, a
// Ward) are listed with nothing: they are left to the players.
func TestRealProvisions(t *testing.T) {
	cat := realCatalog(t)
	th := func(air, earth, fire, water int) models.Thresholds {
		return models.Thresholds{Air: air, Earth: earth, Fire: fire, Water: water}
	}
	want := map[string]provision{
		"Abundance":                {}, // "Each affected site provides one additional mana." (an aura's area)
		"Algae Bloom":              {genesisThreshold: th(1, 1, 1, 0)},
		"Älvalinne Dryads":         {mana: 1},
		"Amethyst Core":            {mana: 1, threshold: th(1, 0, 0, 0)},
		"Annual Fair":              {}, // "(1) → Gain (A), (E), (F), or (W) this turn."
		"Aquamarine Core":          {mana: 1, threshold: th(0, 0, 0, 1)},
		"Atlantean Fate":           {}, // an aura's area
		"Autumn Bloom":             {genesisThreshold: th(1, 0, 1, 1)},
		"Avalon":                   {everyone: true},
		"Beacon":                   {},
		"Blacksmith Family":        {threshold: th(0, 0, 1, 0)},
		"Caerleon-Upon-Usk":        {backRowOnly: true},
		"Castle Servants":          {threshold: th(1, 0, 0, 0)},
		"City of Glass":            {gatedMana: 2, gate: th(1, 0, 0, 0)},
		"City of Plenty":           {gatedMana: 2, gate: th(0, 0, 0, 1), opponentMana: 1},
		"City of Souls":            {gatedMana: 2, gate: th(0, 1, 0, 0)},
		"City of Traitors":         {gatedMana: 2, gate: th(0, 0, 1, 0)},
		"Common Cottagers":         {threshold: th(0, 1, 0, 0)},
		"Desert Bloom":             {genesisThreshold: th(1, 1, 0, 1)},
		"Drought":                  {}, // an aura's area
		"Elementalist":             {threshold: th(1, 1, 1, 1)},
		"Ether Core":               {mana: 3, voidOnly: true},
		"Ferryman's Coin":          {},
		"Field Laborers":           {},
		"Finwife":                  {perEnemyAvatar: 2},
		"Fisherman's Family":       {threshold: th(0, 0, 0, 1)},
		"Ghost Town":               {genesisMana: 1},
		"Glastonbury Tor":          {backRowOnly: true},
		"Granary Rats":             {siteNoThreshold: true},
		"Homecoming":               {},
		"Joyous Garde":             {backRowOnly: true},
		"Key to the City":          {mana: 1},
		"Myrrh's Trophy Room":      {}, // counts an opponent's cemetery
		"Onyx Core":                {mana: 1, threshold: th(0, 1, 0, 0)},
		"Pristine Paradise":        {unlessEmpty: true},
		"Rubble":                   {noMana: true},
		"Ruby Core":                {mana: 1, threshold: th(0, 0, 1, 0)},
		"Shrine of the Dragonlord": {siteMana: 1, siteThreshold: th(1, 1, 1, 1)},
		"Sinterfee":                {}, // a target
		"Sow the Earth":            {},
		"Temple of Moloch":         {},
		"The Colour Out of Space":  {nearVoidOnly: true},
		"The Empyrean":             {}, // "if you control a nearby Angel or Ward"
		"Tintagel":                 {backRowOnly: true},
		"Twilight Bloom":           {genesisThreshold: th(0, 1, 1, 1)},
		"Valley of Delight":        {}, // "Choose one: (A), (E), (F), (W)": a choice
		"Wedding Hall":             {noMana: true},
		"Dark Tower":               {genesisMana: 1, genesisOnly: "dark tower"},
		"Gothic Tower":             {genesisMana: 1, genesisOnly: "gothic tower"},
		"Lone Tower":               {genesisMana: 1, genesisOnly: "lone tower"},
		"Occult Ritual":            {}, // "for each allied Spellcaster here"
		"Black Obelisk":            {siteStartMana: 2},
	}
	mentions := regexp.MustCompile(`(?i)provide|additional \(|gain [(①②③④⑤]`)
	for _, c := range cat.Cards() {
		w, listed := want[c.Name]
		if !listed {
			if mentions.MatchString(c.RulesText) {
				t.Errorf("%s (%q) speaks of providing but is not in the table", c.Name, c.RulesText)
			}
			continue
		}
		if got := provisionOf(c); !reflect.DeepEqual(got, w) {
			t.Errorf("%s (%q):\nprovides %+v\nwant     %+v", c.Name, c.RulesText, got, w)
		}
		delete(want, c.Name)
	}
	for name := range want {
		t.Errorf("%s is not in the card list", name)
	}
}

// TestRealFAQ plays the cards of the clarifications' card-by-card FAQ, and
// cards whose own text changes what a site provides or where it goes.
func TestRealFAQ(t *testing.T) {
	cat := realCatalog(t)
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
	water := func(want string) check {
		return func(t *testing.T, st models.GameState) {
			t.Helper()
			if got := groups(st.Realm.BodiesOfWater); got != want {
				t.Errorf("bodies of water %s, want %s", got, want)
			}
		}
	}
	standing := func() check {
		return func(t *testing.T, st models.GameState) {
			t.Helper()
			if len(st.Standing) != 0 {
				t.Errorf("standing warnings %v, want none", codes(st.Standing))
			}
		}
	}
	// North's Avatar starts at C3, nearby south's C2.
	nearNorth := `{"type":"game_start","south":{"avatar":"Sorcerer"},"north":{"avatar":"Geomancer","cell":"C3"},"first":"south"}`
	water4 := realmOf(nearNorth, "Stream", "Pond", "Autumn River", "Stream")

	cases := []ruleCase{
		{"Shrine of the Dragonlord adds mana and threshold to its site",
			"Shrine of the Dragonlord: This site provides an additional (1) and (E)(F)(W)(A).",
			then(realmOf(realStart, "Stream", "Pond"), summon("south", "C1", "Shrine of the Dragonlord")),
			[]string{}, []check{mana("south", 1, 3), affinity("south", 1, 1, 1, 3)}},
		{"Shrine of the Dragonlord's site provides two mana turn after turn",
			"Shrine of the Dragonlord: This site provides an additional (1) and (E)(F)(W)(A).",
			then(then(realmOf(realStart, "Stream", "Pond"), summon("south", "C1", "Shrine of the Dragonlord")), nextSouthTurn...),
			[]string{}, []check{mana("south", 3, 3)}},
		{"Granary Rats take their site's threshold, not its mana",
			"Granary Rats: This site doesn't provide threshold.",
			then(realmOf(realStart, "Arid Desert", "Stream"), summon("south", "C1", "Granary Rats")),
			[]string{}, []check{mana("south", 1, 2), affinity("south", 0, 0, 0, 1)}},
		{"Black Obelisk's site gains its controller two mana at the start of their turn",
			"Black Obelisk: Black Obelisk's site has \"At the start of your turn, lose 2 life and gain (2) this turn.\"",
			then(then(realmOf(realStart, "Stream", "Pond", "Autumn River"), summon("south", "C1", "Black Obelisk")), nextSouthTurn...),
			[]string{}, []check{mana("south", 5, 5)}},
		{"Black Obelisk on Rubble has no effect",
			"FAQ, Black Obelisk: \"Assuming no one controls the Rubble, Black Obelisk will have no effect.\"",
			then(then(realmOf(realStart, "Stream", "Pond", "Autumn River"), summon("south", "C1", "Black Obelisk"),
				`{"type":"site_destroyed","cell":"C1"}`), nextSouthTurn...),
			[]string{}, []check{mana("south", 2, 2)}},
		{"Finwife near an enemy Avatar provides two mana as she enters",
			"FAQ, Finwife: \"Assuming it's near at least one enemy Avatar, when it enters the realm and at the start of each of your turns.\"",
			then(water4, summon("south", "C2", "Finwife")),
			[]string{}, []check{mana("south", 4, 6)}},
		{"Finwife near an enemy Avatar provides two mana at the start of the turn",
			"FAQ, Finwife: \"… and at the start of each of your turns.\"",
			then(then(water4, summon("south", "C2", "Finwife")), nextSouthTurn...),
			[]string{}, []check{mana("south", 6, 6)}},
		{"Finwife far from the enemy Avatar provides nothing",
			"Finwife: Provides (2) for each nearby enemy Avatar.",
			then(realmOf(realStart, "Stream", "Pond"), summon("south", "C1", "Finwife")),
			[]string{}, []check{mana("south", 0, 2)}},
		{"City of Plenty also provides one mana for the opponent",
			"City of Plenty: (W) — Provides (2) instead but also provides (1) for your opponent.",
			then(realmOf(realStart, "Stream", "City of Plenty"), southEnd, northTurn),
			[]string{}, []check{mana("north", 1, 1)}},
		{"City of Plenty without water provides nothing for the opponent",
			"City of Plenty: (W) — Provides (2) instead but also provides (1) for your opponent.",
			then(realmOf(realStart, "Arid Desert", "City of Plenty"), southEnd, northTurn),
			[]string{}, []check{mana("north", 0, 0)}},
		// Flooded sites are water sites. FAQ, Giant Shark: "Tide Naiads move
		// to a land site … by the time the "On Enter" effect would be
		// checked, the site is water."
		{"a Frog may submerge under Mismanaged Mortuary, which is flooded",
			"Mismanaged Mortuary: Flooded. …",
			then(realmOf(realStart, "Mismanaged Mortuary"), summon("south", "C1", "Frog"), cellEvent("unit_under", "C1", "Frog")),
			[]string{}, []check{water("[C1]")}},
		{"Tide Naiads flood the land site they stand on",
			"Tide Naiads: This site is flooded. It is a water site.",
			then(realmOf(realStart, "Stream", "Pond", "Arid Desert"), summon("south", "D1", "Tide Naiads")),
			[]string{}, []check{water("[B1 C1 D1]")}},
		{"a Frog may submerge under the land site Tide Naiads flood",
			"Tide Naiads: This site is flooded. It is a water site.",
			then(realmOf(realStart, "Stream", "Pond", "Arid Desert"), summon("south", "D1", "Tide Naiads"), summon("south", "D1", "Frog"), cellEvent("unit_under", "D1", "Frog")),
			[]string{}, nil},
		// Planar Gate: "Minions here can traverse the void, gaining Voidwalk
		// until leaving it." FAQ: "Treat it as: Minions here may move as if
		// they had Voidwalk. If they do so to enter the void, they gain
		// Voidwalk until they leave the void."
		{"a minion steps from Planar Gate into the void and stays there",
			"FAQ, Planar Gate: \"If they do so to enter the void, they gain Voidwalk until they leave the void.\"",
			then(then(realmOf(realStart, "Stream", "Planar Gate"), summon("south", "B1", "Frog")), append(nextSouthTurn, moved("Frog", "B1", "A1"))...),
			[]string{}, []check{standing()}},
		{"a minion that left the void lost the Voidwalk Planar Gate gave it",
			"FAQ, Planar Gate: \"… they gain Voidwalk until they leave the void.\"",
			then(realmOf(realStart, "Stream", "Planar Gate"), summon("south", "B1", "Frog"),
				southEnd, northTurn, northEnd, southTurn, moved("Frog", "B1", "A1"), // into the void from Planar Gate
				southEnd, northTurn, northEnd, southTurn, moved("Frog", "A1", "B1"), // out of it: Voidwalk is gone
				southEnd, northTurn, northEnd, southTurn, moved("Frog", "B1", "C1"),
				southEnd, northTurn, northEnd, southTurn, moved("Frog", "C1", "C2")), // into the void from Stream
			[]string{"unit.void"}, nil},
		// A site's Genesis that provides for the turn it is played.
		{"Algae Bloom's Genesis provides (A)(E)(F) the turn it is played",
			"Algae Bloom: Genesis → Provides (A)(E)(F) this turn.",
			then(realmOf(realStart, "Stream"), played("south", "B1", "Algae Bloom")),
			[]string{}, []check{affinity("south", 1, 1, 1, 2), mana("south", 2, 2)}},
		{"Algae Bloom's Genesis threshold is gone the next turn",
			"Algae Bloom: Genesis → Provides (A)(E)(F) this turn.",
			then(then(realmOf(realStart, "Stream"), played("south", "B1", "Algae Bloom")), nextSouthTurn...),
			[]string{}, []check{affinity("south", 0, 0, 0, 2), mana("south", 2, 2)}},
		{"Ghost Town's Genesis gains one mana",
			"Ghost Town: Genesis → Gain (1) this turn.",
			then(realmOf(realStart, "Stream"), played("south", "B1", "Ghost Town")),
			[]string{}, []check{mana("south", 3, 3)}},
		{"the only Dark Tower gains one mana",
			"Dark Tower: Genesis → If this is the only Dark Tower you control, gain ① this turn.",
			then(realmOf(realStart, "Stream"), played("south", "B1", "Dark Tower")),
			[]string{}, []check{mana("south", 3, 3)}},
		{"a second Dark Tower gains nothing",
			"Dark Tower: Genesis → If this is the only Dark Tower you control, gain ① this turn.",
			then(realmOf(realStart, "Dark Tower"), played("south", "B1", "Dark Tower")),
			[]string{}, []check{mana("south", 2, 2)}},
		{"Pristine Paradise with an aura there provides nothing",
			"FAQ, Pristine Paradise: \"Is Pristine Paradise turned off via an Aura there? Yes. That's not pristine!\"",
			then(then(realmOf(realStart, "Stream", "Pristine Paradise"), summon("south", "B1", "Blizzard")), nextSouthTurn...),
			[]string{}, []check{mana("south", 1, 1), affinity("south", 0, 0, 0, 1)}},
		{"a minion and an Avatar at a destroyed site stay on its Rubble",
			"FAQ, Sinkhole: \"When a site is destroyed by Sinkhole, are minions/avatars at that site killed/destroyed? No, nothing happens. They're just at a rubble location now.\"",
			then(realmOf(realStart, "Arid Desert", "Stream"), summon("south", "C1", "Granary Rats"), `{"type":"site_destroyed","cell":"C1"}`),
			[]string{}, []check{standing(), mana("south", 1, 2)}},
		{"Ether Core provides nothing atop a site",
			"Ether Core: Provides (3) while in the void.",
			then(then(realmOf(realStart, "Stream", "Pond"), summon("south", "C1", "Ether Core")), nextSouthTurn...),
			[]string{}, []check{mana("south", 2, 2)}},
		{"Ether Core provides three mana in the void",
			"Ether Core: Provides (3) while in the void.",
			then(then(realmOf(realStart, "Stream", "Pond"), summon("south", "C1", "Ether Core"), moved("Ether Core", "C1", "C2")), nextSouthTurn...),
			[]string{}, []check{mana("south", 5, 5)}},
	}
	runRuleCases(t, cat, cases)
}

// TestRealPosternGate: a site that enters under the opponent's control.
func TestRealPosternGate(t *testing.T) {
	cat := realCatalog(t)
	// FAQ, Postern Gate: "Do I get mana for playing Postern Gate? No. The site
	// comes into play as your opponent's site." "Do I play this adjacent to my
	// sites, or my opponent's sites? You play it adjacent to your own sites."
	g, all := play(t, cat, then(realmOf(realStart, "Stream"), played("south", "B1", "Postern Gate"))...)
	if got := allCodes(all); len(got) != 0 {
		t.Errorf("warnings %v, want none", got)
	}
	st := g.State()
	if got := st.Realm.Cells["B1"].Site.Controller; got != models.North {
		t.Errorf("Postern Gate controlled by %v, want north", got)
	}
	if got := st.Players["south"].Mana; got != (models.ManaState{Available: 1, Total: 1}) {
		t.Errorf("south mana %+v, want 1/1 (no mana for Postern Gate)", got)
	}
	g, _ = play(t, cat, then(realmOf(realStart, "Stream"), played("south", "B1", "Postern Gate"), southEnd, northTurn)...)
	if got := g.State().Players["north"].Mana; got != (models.ManaState{Available: 1, Total: 1}) {
		t.Errorf("north mana %+v, want 1/1 from Postern Gate", got)
	}
}

// versus builds a game in which south plays its sites at C1, B1, D1 (one a
// turn) while north plays Stream at C4 and then northSite at C3, and starts
// south's next turn.
func versus(northSite string, south ...string) []string {
	cells := []string{"C1", "B1", "D1"}
	north := []string{"Stream", northSite}
	lines := []string{realStart}
	for i, s := range south {
		lines = append(lines, southTurn, played("south", cells[i], s), southEnd, northTurn)
		if i < len(north) {
			lines = append(lines, played("north", []string{"C4", "C3"}[i], north[i]))
		}
		lines = append(lines, northEnd)
	}
	return append(lines, southTurn)
}

// TestRealCastAnywhere: cards whose text, or whose site's text, lets a
// player cast a minion to a site they do not control. Rulebook, Cards: "Some
// cards will bend or even break the rules in this rulebook, in these cases
// the card's text takes precedence".
func TestRealCastAnywhere(t *testing.T) {
	cat := realCatalog(t)
	towers := []string{"Dark Tower", "Dark Tower", "Dark Tower"}
	deserts := []string{"Arid Desert", "Arid Desert", "Arid Desert"}
	cases := []ruleCase{
		{"Castle Haunt to the opponent's Elite site", "Castle Haunt: May be cast to any Elite or Unique site.",
			then(versus("Planar Gate", towers...), summon("south", "C3", "Castle Haunt")), []string{}, nil},
		{"Castle Haunt to the opponent's Ordinary site", "Castle Haunt: May be cast to any Elite or Unique site.",
			then(versus("Pond", towers...), summon("south", "C3", "Castle Haunt")), []string{"summon.not_own_site"}, nil},
		{"Saracen Scout to the opponent's site without enemies", "Saracen Scout: May be cast to any site without enemies.",
			then(versus("Pond", deserts...), summon("south", "C3", "Saracen Scout")), []string{}, nil},
		{"Saracen Scout to the opponent's site with their Avatar", "Saracen Scout: May be cast to any site without enemies.",
			then(versus("Pond", deserts...), summon("south", "C4", "Saracen Scout")), []string{"summon.not_own_site"}, nil},
		{"Lugbog Cat to the opponent's water site", "Lugbog Cat: Can and must be cast to any water site.",
			then(versus("Pond", "Stream", "Pond", "Stream"), summon("south", "C3", "Lugbog Cat")), []string{}, nil},
		{"a minion to the opponent's Donnybrook Inn", "Donnybrook Inn: Anyone may cast minions here …",
			then(versus("Donnybrook Inn", deserts...), summon("south", "C3", "Granary Rats")), []string{}, nil},
		{"a minion to the opponent's City of Traitors", "City of Traitors: … your opponent can cast minions to this site Stealthed.",
			then(versus("City of Traitors", deserts...), summon("south", "C3", "Granary Rats")), []string{}, nil},
		{"a Knight to the opponent's Tournament Grounds", "Tournament Grounds: Anyone may cast Knights, Sirs, or Dames to this site …",
			then(versus("Tournament Grounds", "Steppe", "Arid Desert", "Arid Desert"), summon("south", "C3", "Penitent Knight")), []string{}, nil},
		{"another minion to the opponent's Tournament Grounds", "Tournament Grounds: Anyone may cast Knights, Sirs, or Dames to this site …",
			then(versus("Tournament Grounds", deserts...), summon("south", "C3", "Granary Rats")), []string{"summon.not_own_site"}, nil},
	}
	runRuleCases(t, cat, cases)
}

// TestRealMovementText: cards whose text changes how far a unit steps.
func TestRealMovementText(t *testing.T) {
	cat := realCatalog(t)
	// Seven sites: C1, B1, D1, C2, B2, D2 and A1, two steps from C1.
	wide := func(first string) []string {
		return realmOf(realStart, first, "Dark Tower", "Dark Tower", "Steppe", "Steppe", "Steppe", "Arid Desert")
	}
	cases := []ruleCase{
		{"Felbog Frog Men leap over a site in one step",
			"Felbog Frog Men: Can leap entirely over adjacent sites in one step. FAQ: \"Is this a 'move as if adjacent' ability? Yes.\"",
			then(then(realmOf(realStart, "Stream", "Pond", "Autumn River"), summon("south", "B1", "Felbog Frog Men")), append(nextSouthTurn, moved("Felbog Frog Men", "B1", "D1"))...),
			[]string{}, nil},
		{"Felbog Frog Men do not leap over the void",
			"Felbog Frog Men: Can leap entirely over adjacent sites in one step.",
			then(then(realmOf(realStart, "Stream", "Pond", "Autumn River", "Pond", "Stream", "Pond", "Stream"), summon("south", "A1", "Felbog Frog Men")),
				append(nextSouthTurn, moved("Felbog Frog Men", "A1", "A3"))...),
			[]string{"unit.move_range", "unit.void"}, nil},
		{"an Airborne minion moves freely away from Updraft Ridge",
			"FAQ, Updraft Ridge: \"Treat it as: Airborne minions atop Updraft Ridge move freely away.\"",
			then(wide("Updraft Ridge"), summon("south", "C1", "Gyre Hippogriffs"), moved("Gyre Hippogriffs", "C1", "A1")),
			[]string{}, nil},
		{"an Airborne minion moves two steps from another site",
			"By default, units can move one step.",
			then(wide("Dark Tower"), summon("south", "C1", "Gyre Hippogriffs"), moved("Gyre Hippogriffs", "C1", "A1")),
			[]string{"unit.move_range"}, nil},
		{"Polar Bears cross from the bottom edge to the top",
			"Polar Bears: Can move as if the top and bottom edges of the realm were connected.",
			then(then(versus("Pond", "Stream", "Pond"), summon("south", "C1", "Polar Bears")), append(nextSouthTurn, moved("Polar Bears", "C1", "C4"))...),
			[]string{}, nil},
		{"Phantom Steed steps from Astral Alcazar to a far void",
			"Astral Alcazar: Units can move between this site and any void as if they were adjacent.",
			then(then(realmOf(realStart, "Astral Alcazar", "Dark Tower", "Dark Tower"), summon("south", "C1", "Phantom Steed")), append(nextSouthTurn, moved("Phantom Steed", "C1", "E4"))...),
			[]string{}, nil},
		{"Phantom Steed runs three steps at most from another site",
			"some abilities allow units to take additional steps (such as Movement +1)",
			then(then(realmOf(realStart, "Dark Tower", "Dark Tower", "Dark Tower"), summon("south", "C1", "Phantom Steed")), append(nextSouthTurn, moved("Phantom Steed", "C1", "E4"))...),
			[]string{"unit.move_range"}, nil},
	}
	runRuleCases(t, cat, cases)
}

// TestRealCastCosts: texts that change what casting a minion costs or needs.
func TestRealCastCosts(t *testing.T) {
	cat := realCatalog(t)
	lives := func(south, north int) string {
		return fmt.Sprintf(`{"type":"game_start","south":{"avatar":"Sorcerer","life":%d},"north":{"avatar":"Geomancer","life":%d},"first":"south"}`, south, north)
	}
	cases := []struct {
		name  string
		rule  string
		lines []string
		want  []string
		avail int
	}{
		{"an Ordinary minion costs one less at Hamlet", "Hamlet: Ordinary minions cost (1) less to cast to this site.",
			then(realmOf(realStart, "Stream", "Hamlet"), summon("south", "B1", "Polar Bears")), []string{}, 1},
		{"an Ordinary minion costs its price elsewhere", "Hamlet: Ordinary minions cost (1) less to cast to this site.",
			then(realmOf(realStart, "Stream", "Hamlet"), summon("south", "C1", "Polar Bears")), []string{}, 0},
		{"Black Knight costs two less to a player with more life", "Black Knight: Costs (2) less to cast if you have more life than each opponent.",
			then(realmOf(lives(20, 15), "Steppe", "Stream", "Pond"), summon("south", "C1", "Black Knight")), []string{}, 0},
		{"Black Knight costs five at equal life", "Black Knight: Costs (2) less to cast if you have more life than each opponent.",
			then(realmOf(lives(20, 20), "Steppe", "Stream", "Pond"), summon("south", "C1", "Black Knight")), []string{"mana.insufficient"}, 0},
		{"a Knight needs no threshold at Tournament Grounds", "Tournament Grounds: … and may do so for no threshold.",
			then(realmOf(realStart, "Arid Desert", "Arid Desert", "Tournament Grounds"), summon("south", "D1", "Penitent Knight")), []string{}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g, all := play(t, cat, tc.lines...)
			if got := allCodes(all); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("rule %q:\nwarnings %v, want %v", tc.rule, got, tc.want)
			}
			if got := g.State().Players["south"].Mana.Available; got != tc.avail {
				t.Errorf("south has %d mana left, want %d", got, tc.avail)
			}
		})
	}
}
