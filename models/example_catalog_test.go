package models_test

import (
	"errors"
	"fmt"

	"github.com/tablecam/tablecam/models"
)

func exampleCatalog() *models.Catalog {
	return models.NewCatalog([]*models.Card{
		{Name: "Arid Desert", Slug: "arid_desert", Type: models.Site, Thresholds: models.Thresholds{Fire: 1},
			Printings: []string{"alp-arid_desert-b-s"}},
		{Name: "Æther Wolf", Slug: "aether_wolf", Type: models.Minion, Cost: models.IntPtr(3),
			RulesText: "Voidwalk, Movement +1"},
	})
}

func ExampleCatalog_Lookup() {
	cat := exampleCatalog()
	for _, name := range []string{"arid desert", "AETHER-WOLF", "alp-arid_desert-b-s", "Arid Dessert"} {
		card, err := cat.Lookup(name)
		switch {
		case errors.Is(err, models.ErrUnknownCard):
			fmt.Println(err)
		case err != nil:
			fmt.Println("error:", err)
		default:
			fmt.Printf("%s → %s\n", name, card)
		}
	}
	// Output:
	// arid desert → Arid Desert (site)
	// AETHER-WOLF → Æther Wolf (minion)
	// alp-arid_desert-b-s → Arid Desert (site)
	// unknown card "Arid Dessert" (did you mean Arid Desert?)
}

func ExampleCatalog_Search() {
	cat := exampleCatalog()
	for _, card := range cat.Search("type:minion cost<=3") {
		fmt.Println(card.Name)
	}
	// Output:
	// Æther Wolf
}

func ExampleFindKeywords() {
	keywords, movement := models.FindKeywords("Airborne, Movement +2\n\nGenesis → Give an ally Stealth.")
	fmt.Println(keywords, movement)
	// Output:
	// [Airborne Genesis Movement] 2
}

func ExampleParseCards() {
	// One card in the newer API shape, with a mistake on line 3.
	data := []byte(`[
  {"name": "Glimmer Moth",
   "engine": {"type": "Minion", "cost": "three"}}
]`)
	_, err := models.ParseCards(data)
	var ce *models.CatalogError
	if errors.As(err, &ce) {
		fmt.Printf("line %d, column %d, card %d: %v\n", ce.Line, ce.Column, ce.Card, ce.Err)
	}
	// Output:
	// line 3, column 33, card 1: engine.cost is a string, want a whole number
}
