package rules

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tablecam/tablecam/models"
)

// Made-up cards, so every rule is tested without the shared card list.
func testCatalog() *models.Catalog {
	th := func(air, earth, fire, water int) models.Thresholds {
		return models.Thresholds{Air: air, Earth: earth, Fire: fire, Water: water}
	}
	avatar := func(name string) *models.Card {
		return &models.Card{Name: name, Slug: slug(name), Type: models.Avatar, Life: models.IntPtr(20), Attack: models.IntPtr(1)}
	}
	site := func(name string, t models.Thresholds, r models.Rarity) *models.Card {
		return &models.Card{Name: name, Slug: slug(name), Type: models.Site, Thresholds: t, Rarity: r}
	}
	spell := func(typ models.CardType, name string, cost int, t models.Thresholds, r models.Rarity, kw ...models.Keyword) *models.Card {
		return &models.Card{Name: name, Slug: slug(name), Type: typ, Cost: models.IntPtr(cost), Thresholds: t, Rarity: r, Keywords: kw}
	}
	cards := []*models.Card{
		avatar("Test Seer"), avatar("Test Warden"),
		{Name: "Test Adept", Slug: "test-adept", Type: models.Avatar, Life: models.IntPtr(20), Attack: models.IntPtr(1),
			RulesText: "Tap → Play or draw a site.\n\nYou have an additional (F)(W)."},
		{Name: "Test Wayfinder", Slug: "test-wayfinder", Type: models.Avatar, Life: models.IntPtr(20), Attack: models.IntPtr(1),
			RulesText: "Draw no sites during setup.\n\nTap → If able, play the topmost site of your atlas to an adjacent location and move there."},
		{Name: "Test Delver", Slug: "test-delver", Type: models.Avatar, Life: models.IntPtr(20), Attack: models.IntPtr(1),
			RulesText: "Tap → Play or draw a site.\n\nTap → Replace an adjacent Rubble with the topmost site of your atlas."},
		site("Ember Flat", th(0, 0, 1, 0), models.Ordinary),
		site("Tide Pool", th(0, 0, 0, 1), models.Ordinary),
		site("Windy Peak", th(1, 0, 0, 0), models.Ordinary),
		site("Stone Field", th(0, 1, 0, 0), models.Ordinary),
		site("Twin Steppe", th(0, 1, 1, 0), models.Exceptional),
		site("Bare Moor", th(0, 0, 0, 0), models.Unique),
		spell(models.Minion, "Scout", 1, th(0, 0, 0, 0), models.Ordinary),
		spell(models.Minion, "Water Sprite", 2, th(0, 0, 0, 2), models.Elite),
		spell(models.Minion, "Sky Knight", 3, th(1, 0, 0, 2), models.Unique, models.Submerge),
		spell(models.Minion, "Void Wraith", 2, th(1, 0, 0, 0), models.Exceptional, models.Voidwalk),
		spell(models.Minion, "Tunnel Mole", 1, th(0, 1, 0, 0), models.Ordinary, models.Burrowing),
		spell(models.Minion, "Reef Eel", 1, th(0, 0, 0, 1), models.Ordinary, models.Submerge),
		spell(models.Minion, "Sea Hulk", 1, th(0, 0, 0, 1), models.Ordinary, models.Waterbound),
		spell(models.Minion, "Dune Crawler", 1, th(0, 0, 0, 0), models.Ordinary, models.Landbound),
		spell(models.Magic, "Spark", 1, th(0, 0, 1, 0), models.Ordinary),
		spell(models.Magic, "Firestorm", 4, th(0, 0, 2, 0), models.Exceptional),
		spell(models.Artifact, "Brass Amulet", 1, th(0, 0, 0, 0), models.Ordinary),
		{Name: "Spirit Token", Slug: "spirit-token", Type: models.Minion, Token: true, Subtypes: []string{"Token"}},
		// Cards for the keyword, subtype, X-cost and "provides" rules.
		spell(models.Minion, "War Charger", 1, th(0, 0, 0, 0), models.Ordinary, models.Charge),
		spell(models.Minion, "Storm Hawk", 1, th(0, 0, 0, 0), models.Ordinary, models.Airborne),
		spell(models.Minion, "Swift Hound", 1, th(0, 0, 0, 0), models.Ordinary, models.Movement),
		spell(models.Minion, "Rooted Toad", 1, th(0, 0, 0, 0), models.Ordinary, models.Immobile),
		{Name: "Brass Golem", Slug: "brass-golem", Type: models.Artifact, Subtypes: []string{"Automaton"}, Cost: models.IntPtr(1), Attack: models.IntPtr(3), Rarity: models.Ordinary},
		{Name: "Stone Monolith", Slug: "stone-monolith", Type: models.Artifact, Subtypes: []string{"Monument"}, Cost: models.IntPtr(1), Rarity: models.Ordinary},
		{Name: "Arc Volley", Slug: "arc-volley", Type: models.Magic, Thresholds: th(1, 0, 0, 0), Rarity: models.Ordinary, RulesText: "Shoot X projectiles."},
		{Name: "Forge Folk", Slug: "forge-folk", Type: models.Minion, Cost: models.IntPtr(1), Rarity: models.Ordinary, RulesText: "Provides (F)"},
		{Name: "Grove Nymphs", Slug: "grove-nymphs", Type: models.Minion, Cost: models.IntPtr(1), Rarity: models.Ordinary, RulesText: "Grove Nymphs provide ①."},
		{Name: "Sky Core", Slug: "sky-core", Type: models.Artifact, Cost: models.IntPtr(1), Rarity: models.Ordinary, RulesText: "Provides (A) and ① to its controller."},
		{Name: "Hollow Hall", Slug: "hollow-hall", Type: models.Site, Thresholds: th(1, 1, 1, 1), Rarity: models.Elite, RulesText: "Provides no mana, but looks grand."},
		{Name: "Glass Spire", Slug: "glass-spire", Type: models.Site, Rarity: models.Elite, RulesText: "(A) — Provides (2) instead but breaks when damaged."},
		{Name: "Quiet Glade", Slug: "quiet-glade", Type: models.Site, Thresholds: th(0, 1, 0, 0), Rarity: models.Elite, RulesText: "Provides no mana or threshold unless completely empty."},
		{Name: "Rift Edge", Slug: "rift-edge", Type: models.Site, Thresholds: th(1, 0, 0, 0), Rarity: models.Elite, RulesText: "Provides no mana or threshold if not adjacent to the void."},
		{Name: "Isle of Mist", Slug: "isle-of-mist", Type: models.Site, Thresholds: th(0, 0, 0, 1), Rarity: models.Unique, RulesText: "Provides mana and threshold for everyone."},
		{Name: "Old Keep", Slug: "old-keep", Type: models.Site, Thresholds: th(1, 1, 0, 0), Rarity: models.Elite, RulesText: "Only provides mana and threshold while in your back row."},
	}
	for _, c := range cards {
		if c.Name == "Swift Hound" {
			c.MovementBonus = 1 // Movement +1
		}
	}
	return models.NewCatalog(cards)
}

func slug(name string) string { return strings.ReplaceAll(strings.ToLower(name), " ", "-") }

// gameStart is the usual first line of a test game: south (Test Seer, C1) goes first.
const gameStart = `{"type":"game_start","south":{"avatar":"Test Seer"},"north":{"avatar":"Test Warden"},"first":"south"}`

// play applies JSON lines to a new game and returns it with the warnings of each event.
func play(t *testing.T, cat *models.Catalog, lines ...string) (*Game, [][]models.Warning) {
	t.Helper()
	evs, err := ParseEvents(strings.NewReader(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	g := NewGame(cat)
	var all [][]models.Warning
	for i, ev := range evs {
		ws, err := g.Apply(ev)
		if err != nil {
			t.Fatalf("event %d (%s): %v", i, lines[i], err)
		}
		all = append(all, ws)
	}
	return g, all
}

// codes lists the warning codes of ws.
func codes(ws []models.Warning) []string {
	out := []string{}
	for _, w := range ws {
		out = append(out, string(w.Code))
	}
	return out
}

// allCodes lists the codes of every event's warnings, in order.
func allCodes(all [][]models.Warning) []string {
	var out []string
	for _, ws := range all {
		out = append(out, codes(ws)...)
	}
	if out == nil {
		out = []string{}
	}
	return out
}

func cellNames(cs []models.Cell) string {
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = c.String()
	}
	return strings.Join(s, " ")
}

func groups(gs [][]models.Cell) string {
	s := make([]string, len(gs))
	for i, g := range gs {
		s[i] = "[" + cellNames(g) + "]"
	}
	return strings.Join(s, " ")
}

// applyLine applies one JSON line to g.
func applyLine(g *Game, line string) ([]models.Warning, error) {
	ev, err := DecodeEvent([]byte(line))
	if err != nil {
		return nil, err
	}
	return g.Apply(ev)
}

// check looks at a game's state after a scenario's events.
type check func(t *testing.T, st models.GameState)

// ruleCase is one scenario of the rule audits: the events played, the
// rule it checks (quoted from the rulebook, the clarifications or a card),
// the warning codes wanted over all the events, and checks of the state
// after the last.
type ruleCase struct {
	name   string
	rule   string
	lines  []string
	want   []string
	checks []check
}

// runRuleCases plays each case with the catalog cat as a subtest.
func runRuleCases(t *testing.T, cat *models.Catalog, cases []ruleCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g, all := play(t, cat, tc.lines...)
			if got := allCodes(all); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("rule %q:\nwarnings %v, want %v", tc.rule, got, tc.want)
			}
			for _, c := range tc.checks {
				c(t, g.State())
			}
		})
	}
}
