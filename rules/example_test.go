package rules_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/rules"
)

func ExampleGame_Apply() {
	cat := models.NewCatalog([]*models.Card{
		{Name: "Sorcerer", Slug: "sorcerer", Type: models.Avatar, Life: models.IntPtr(20)},
		{Name: "Geomancer", Slug: "geomancer", Type: models.Avatar, Life: models.IntPtr(20)},
		{Name: "Arid Desert", Slug: "arid-desert", Type: models.Site, Thresholds: models.Thresholds{Fire: 1}},
	})
	g := rules.NewGame(cat)
	c1, e4 := models.MustCell("C1"), models.MustCell("E4")
	events := []models.Event{
		{Type: models.GameStart, South: &models.Seat{Avatar: "Sorcerer"}, North: &models.Seat{Avatar: "Geomancer"}, First: models.South},
		{Type: models.TurnStart, Player: models.South},
		{Type: models.SitePlayed, Player: models.South, Cell: &c1, Card: "Arid Desert"},
		{Type: models.SitePlayed, Player: models.South, Cell: &e4, Card: "Arid Desert"},
	}
	for _, ev := range events {
		warnings, err := g.Apply(ev)
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, w := range warnings {
			fmt.Println(w.Code, w.Player, w.Cells)
		}
	}
	st := g.State()
	south := st.Players["south"]
	fmt.Printf("turn %d: south has %d/%d mana, affinity %v, sites %v\n", st.Turn, south.Mana.Available, south.Mana.Total, south.Affinity, south.Sites)
	// Output:
	// site.not_adjacent south [E4]
	// site.avatar_tapped south [E4 C1]
	// turn 1: south has 2/2 mana, affinity 2 fire, sites [C1 E4]
}

func ExampleParseEvents() {
	_, err := rules.ParseEvents(strings.NewReader(`{"type":"game_start","south":{"avatar":"Sorcerer"},"north":{"avatar":"Geomancer"}}
{"type":"site_played","player":"south","cell":"F9","card":"Arid Desert"}`))
	fmt.Println(err)
	// Output:
	// line 2: field "cell": "F9" is not a realm cell (A1–E4)
}

func ExampleWriteText() {
	cat := models.NewCatalog([]*models.Card{
		{Name: "Sorcerer", Slug: "sorcerer", Type: models.Avatar, Life: models.IntPtr(20)},
		{Name: "Geomancer", Slug: "geomancer", Type: models.Avatar, Life: models.IntPtr(20)},
		{Name: "Autumn River", Slug: "autumn-river", Type: models.Site, Thresholds: models.Thresholds{Water: 1}},
	})
	events, _ := rules.ParseEvents(strings.NewReader(`{"type":"game_start","south":{"avatar":"Sorcerer"},"north":{"avatar":"Geomancer"},"first":"south"}
{"type":"turn_start","player":"south"}
{"type":"site_played","player":"south","cell":"C1","card":"Autumn River"}
{"type":"life_gain","player":"north","amount":2}`))
	g := rules.NewGame(cat)
	for _, ev := range events {
		if _, err := g.Apply(ev); err != nil {
			fmt.Println(err)
			return
		}
	}
	rules.WriteText(os.Stdout, events[len(events)-1], g.State())
	// Output:
	// #3 life_gain north 2
	//    turn 1, south active
	//    south Sorcerer: life 20, mana 1/1, affinity 1 water; sites C1
	//    north Geomancer: life 20, mana 0/0, affinity none; sites -
	//         A     B     C     D     E
	//      4  .     .     .@    .     .
	//      3  .     .     .     .     .
	//      2  .     .     .     .     .
	//      1  .     .     s~@   .     .
	//    C1 Autumn River (south): Sorcerer (south, tapped)
	//    C4 void: Geomancer (north)
	//    bodies of water [C1]; spans of land -
}

func ExampleCheckDeck() {
	cat := models.NewCatalog([]*models.Card{
		{Name: "Sorcerer", Slug: "sorcerer", Type: models.Avatar},
		{Name: "Arid Desert", Slug: "arid-desert", Type: models.Site, Rarity: models.Ordinary},
		{Name: "Fireball", Slug: "fireball", Type: models.Magic, Rarity: models.Exceptional},
	})
	list := `Avatar
1 Sorcerer
Atlas
4x Arid Desert
Spellbook
3 Fireball
1 fireball   # a fourth copy, counted across the deck
`
	deck, err := rules.ParseDeck(strings.NewReader(list), "deck.txt", cat)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range rules.CheckDeck(deck) {
		fmt.Printf("deck.txt:%d: %s\n", p.Line, p.Message)
	}
	// Output:
	// deck.txt:3: the atlas has 4 sites; it needs at least 30
	// deck.txt:5: the spellbook has 4 spells; it needs at least 60
	// deck.txt:7: 4 copies of Fireball (lines 6, 7); Exceptional cards are limited to 3 per deck
}

// A minion with Charge may tap and move the turn it arrives; one without may
// not, and a unit takes one step unless it has Movement +N.
func ExampleGame_Apply_keywords() {
	cat := models.NewCatalog([]*models.Card{
		{Name: "Sorcerer", Slug: "sorcerer", Type: models.Avatar, Life: models.IntPtr(20)},
		{Name: "Geomancer", Slug: "geomancer", Type: models.Avatar, Life: models.IntPtr(20)},
		{Name: "Steppe", Slug: "steppe", Type: models.Site, Thresholds: models.Thresholds{Earth: 1}},
		{Name: "Wild Fanatic", Slug: "wild-fanatic", Type: models.Minion, Cost: models.IntPtr(0), RulesText: "Charge"},
		{Name: "Foot Soldier", Slug: "foot-soldier", Type: models.Minion, Cost: models.IntPtr(0)},
	})
	events, _ := rules.ParseEvents(strings.NewReader(`{"type":"game_start","south":{"avatar":"Sorcerer"},"north":{"avatar":"Geomancer"},"first":"south"}
{"type":"turn_start","player":"south"}
{"type":"site_played","player":"south","cell":"C1","card":"Steppe"}
{"type":"unit_summoned","player":"south","cell":"C1","card":"Wild Fanatic"}
{"type":"unit_summoned","player":"south","cell":"C1","card":"Foot Soldier"}
{"type":"unit_moved","card":"Wild Fanatic","from":"C1","to":"C3"}
{"type":"unit_moved","card":"Foot Soldier","from":"C1","to":"C2"}`))
	g := rules.NewGame(cat)
	for _, ev := range events {
		warnings, err := g.Apply(ev)
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, w := range warnings {
			fmt.Println(ev.Card, w.Code)
		}
	}
	// Output:
	// Wild Fanatic unit.move_range
	// Wild Fanatic unit.void
	// Foot Soldier unit.summoning_sick
	// Foot Soldier unit.void
}
