package models

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// madeUpCatalog is a small in-memory catalog of made-up cards.
func madeUpCatalog() *Catalog {
	return NewCatalog([]*Card{
		{Name: "Arid Desert", Slug: "arid_desert", Type: Site, Rarity: Ordinary, Thresholds: Thresholds{Fire: 1},
			Elements: []Element{Fire}, Subtypes: []string{"Desert"}, Printings: []string{"alp-arid_desert-b-s", "bet-arid_desert-b-f"}},
		{Name: "Red Desert", Slug: "red_desert", Type: Site, Rarity: Exceptional, Thresholds: Thresholds{Fire: 1}, Elements: []Element{Fire}},
		{Name: "Æther Wolf", Slug: "aether_wolf", Type: Minion, Rarity: Elite, Cost: IntPtr(3), Attack: IntPtr(3), Defence: IntPtr(3),
			Subtypes: []string{"Beast", "Spirit"}, RulesText: "Voidwalk\n\nGenesis → Draw a spell.", Keywords: []Keyword{Voidwalk, Genesis}},
		{Name: "Sir Pellinore's Hound", Slug: "sir_pellinores_hound", Type: Minion, Rarity: Unique, Cost: IntPtr(2),
			Subtypes: []string{"Beast"}, RulesText: "Charge"},
		{Name: "Maelström", Slug: "maelstrom", Type: Magic, Rarity: Elite, Cost: IntPtr(5), Thresholds: Thresholds{Water: 2},
			Elements: []Element{Water}, RulesText: "Deal 3 damage to each unit at target water site."},
		{Name: "Tidal Gate", Slug: "tidal_gate", Type: Site, Thresholds: Thresholds{Water: 1}, Elements: []Element{Water}},
		{Name: "Skeleton Toy", Slug: "skeleton_toy", Type: Minion, Cost: IntPtr(0), Token: true, Subtypes: []string{"Undead"}},
	})
}

func TestLookupToleratesCasePunctuationAccentsAndSlugs(t *testing.T) {
	cat := madeUpCatalog()
	tests := []struct{ query, want string }{
		{"Arid Desert", "Arid Desert"},
		{"arid desert", "Arid Desert"},
		{"  ARID   DESERT ", "Arid Desert"},
		{"Arid-Desert", "Arid Desert"},
		{"aether wolf", "Æther Wolf"},
		{"Aether-Wolf", "Æther Wolf"},
		{"maelstrom", "Maelström"},
		{"Sir Pellinores Hound", "Sir Pellinore's Hound"},
		{"sir pellinore’s hound", "Sir Pellinore's Hound"},
		{"arid_desert", "Arid Desert"},
		{"bet-arid_desert-b-f", "Arid Desert"},
		{"BET-ARID_DESERT-B-F", "Arid Desert"},
	}
	for _, tt := range tests {
		card, err := cat.Lookup(tt.query)
		if err != nil {
			t.Errorf("Lookup(%q): %v", tt.query, err)
			continue
		}
		if card.Name != tt.want {
			t.Errorf("Lookup(%q) = %s, want %s", tt.query, card.Name, tt.want)
		}
	}
	if card, ok := cat.BySlug("alp-arid_desert-b-s"); !ok || card.Name != "Arid Desert" {
		t.Errorf("BySlug of a printing: %v %v", card, ok)
	}
}

func TestLookupUnknownSuggests(t *testing.T) {
	cat := madeUpCatalog()
	_, err := cat.Lookup("Arid Dessert")
	if !errors.Is(err, ErrUnknownCard) {
		t.Fatalf("want ErrUnknownCard, got %v", err)
	}
	if want := `unknown card "Arid Dessert" (did you mean Arid Desert?)`; err.Error() != want {
		t.Errorf("got  %s\nwant %s", err, want)
	}
	var uce *UnknownCardError
	if !errors.As(err, &uce) || !reflect.DeepEqual(uce.Suggestions, []string{"Arid Desert"}) {
		t.Errorf("suggestions: %+v", uce)
	}
	_, err = cat.Lookup("Zyzzyva Qux")
	if !errors.Is(err, ErrUnknownCard) || strings.Contains(err.Error(), "did you mean") {
		t.Errorf("nothing close: want no suggestion, got %v", err)
	}
}

func TestSuggest(t *testing.T) {
	cat := madeUpCatalog()
	tests := []struct {
		query string
		want  []string
	}{
		{"Arid Dessert", []string{"Arid Desert"}},        // a doubled letter
		{"arid dsert", []string{"Arid Desert"}},          // a dropped letter
		{"aird desert", []string{"Arid Desert"}},         // swapped letters
		{"pellinore", []string{"Sir Pellinore's Hound"}}, // part of the name
		{"hound", []string{"Sir Pellinore's Hound"}},
		{"desert", []string{"Red Desert", "Arid Desert"}}, // a word of two names, shorter first
		{"desert arid", []string{"Arid Desert"}},          // words out of order
		{"wolf aether", []string{"Æther Wolf"}},
		{"maelstrom", []string{"Maelström"}},
		{"qqqqqq", nil},
		{"", nil},
	}
	for _, tt := range tests {
		got := cat.Suggest(tt.query, 3)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Suggest(%q) = %q, want %q", tt.query, got, tt.want)
		}
	}
	if got := cat.Suggest("desert", 1); len(got) != 1 {
		t.Errorf("Suggest with n=1 gave %q", got)
	}
}

func TestSuggestRealNames(t *testing.T) {
	cat := loadRealCatalog(t)
	tests := []struct{ query, want string }{
		{"Arid Dessert", "Arid Desert"},
		{"apprentice wizzard", "Apprentice Wizard"},
		{"Captain Baldasare", "Captain Baldassare"},
		{"sedge crab", "Sedge Crabs"},
		{"pelleas", "Sir Pelleas"},
		{"dark towr", "Dark Tower"},
		{"polar explorer", "Polar Explorers"},
	}
	for _, tt := range tests {
		got := cat.Suggest(tt.query, 3)
		if len(got) == 0 || got[0] != tt.want {
			t.Errorf("Suggest(%q) = %q, want %q first", tt.query, got, tt.want)
		}
	}
}

func TestSearch(t *testing.T) {
	cat := madeUpCatalog()
	tests := []struct {
		query string
		want  []string
	}{
		{"desert", []string{"Arid Desert", "Red Desert"}},          // names first…
		{"beast", []string{"Sir Pellinore's Hound", "Æther Wolf"}}, // …subtypes…
		{"draw a spell", []string{"Æther Wolf"}},                   // …rules text, every word
		{`"water site"`, []string{"Maelström"}},                    // a phrase
		{"site", []string{"Arid Desert", "Red Desert", "Tidal Gate", "Maelström"}},
		{"type:site element:water", []string{"Tidal Gate"}},
		{"is:water", []string{"Tidal Gate"}},
		{"is:token", []string{"Skeleton Toy"}},
		{"keyword:voidwalk", []string{"Æther Wolf"}},
		{"cost<=2 type:minion", []string{"Sir Pellinore's Hound", "Skeleton Toy"}},
		{"cost>4", []string{"Maelström"}},
		{"rarity:elite damage", []string{"Maelström"}},
		{"rarity:unique damage", nil},
		{"subtype:spirit", []string{"Æther Wolf"}},
		{"MAELSTROM", []string{"Maelström"}},
		{"nothing like this", nil},
		{"", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, c := range cat.Search(tt.query) {
			got = append(got, c.Name)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Search(%q) = %q, want %q", tt.query, got, tt.want)
		}
	}
}

// TestCatalogConcurrentUse runs lookups, suggestions and searches from many
// goroutines at once (meaningful under go test -race).
func TestCatalogConcurrentUse(t *testing.T) {
	cat := madeUpCatalog()
	done := make(chan []string)
	for range 8 {
		go func() {
			var got []string
			for range 20 {
				got = cat.Suggest("arid dessert", 1)
				cat.Search("type:site desert")
				if _, err := cat.Lookup("aether wolf"); err != nil {
					got = []string{err.Error()}
				}
			}
			done <- got
		}()
	}
	for range 8 {
		if got := <-done; !reflect.DeepEqual(got, []string{"Arid Desert"}) {
			t.Errorf("got %q", got)
		}
	}
}

func TestNormalizeName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Arid Desert", "arid desert"},
		{"  ARID---desert!! ", "arid desert"},
		{"Æther-Wolf", "aether wolf"},
		{"Maelström", "maelstrom"},
		{"Brocéliande", "broceliande"},
		{"Älvalinne Dryads", "alvalinne dryads"},
		{"Orb of Ba'al Berith", "orb of baal berith"},
		{"Wills-o’-the-Wisp", "wills o the wisp"},
		{"Foot Soldier (English)", "foot soldier english"},
		{"ÉMILE", "emile"},
		{"Καλή", "καλή"}, // letters without a fold are kept, lower-cased
		{"", ""},
	}
	for _, tt := range tests {
		if got := NormalizeName(tt.in); got != tt.want {
			t.Errorf("NormalizeName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
