package models

import "testing"

// realCatalogPath is the public card list beside the repository (absent in
// some checkouts; the tests that need it skip).
const realCatalogPath = "../../shared/data/sorcery-cards.json"

// BenchmarkLoadCatalog loads the 1,104 cards of the public card list; the
// target is under 100 ms per load.
func BenchmarkLoadCatalog(b *testing.B) {
	if _, err := LoadCatalog(realCatalogPath); err != nil {
		b.Skip(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := LoadCatalog(realCatalogPath); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLookup(b *testing.B) {
	c, err := LoadCatalog(realCatalogPath)
	if err != nil {
		b.Skip(err)
	}
	names := make([]string, 0, c.Len())
	for _, card := range c.Cards() {
		names = append(names, card.Name)
	}
	b.ResetTimer()
	i := 0
	for b.Loop() {
		if _, err := c.Lookup(names[i%len(names)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func BenchmarkSuggest(b *testing.B) {
	c, err := LoadCatalog(realCatalogPath)
	if err != nil {
		b.Skip(err)
	}
	for b.Loop() {
		c.Suggest("Arid Dessert", 3)
	}
}
