package models

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// olderShapeCards is a made-up card list in the older API shape.
const olderShapeCards = `[
  {
    "name": "Glimmer Moth",
    "slug": "glimmer_moth",
    "guardian": {
      "rarity": "Exceptional", "type": "Minion",
      "rulesText": "Airborne, Movement +1\n\nGenesis → Draw a spell.",
      "cost": 3, "attack": 2, "defence": 2, "life": null,
      "thresholds": {"air": 2, "earth": 0, "fire": 0, "water": 0}
    },
    "elements": "Air",
    "subTypes": "Beast, Spirit",
    "sets": [
      {"name": "Alpha", "metadata": {"cost": 3}, "variants": [{"slug": "alp-glimmer_moth-b-s", "finish": "Standard"}, {"slug": "alp-glimmer_moth-b-f"}]},
      {"name": "Beta", "variants": [{"slug": "bet-glimmer_moth-b-s"}]}
    ]
  },
  {
    "name": "Brackwater Fen",
    "slug": "brackwater_fen",
    "guardian": {
      "rarity": "Ordinary", "type": "Site", "rulesText": "",
      "cost": null, "attack": null, "defence": null, "life": null,
      "thresholds": {"air": 0, "earth": 1, "fire": 0, "water": 1}
    },
    "elements": "Earth, Water",
    "subTypes": "",
    "sets": []
  },
  {
    "name": "Pebble Imp",
    "slug": "pebble_imp",
    "guardian": {"rarity": null, "type": "Minion", "rulesText": "Burrowing",
      "cost": 0, "attack": 1, "defence": 1, "life": null, "thresholds": {"air": 0, "earth": 0, "fire": 0, "water": 0}},
    "elements": "None",
    "subTypes": "Beast Token",
    "sets": []
  }
]`

// newerShapeCards is a made-up card list in the newer API shape, wrapped in
// an object as some API versions serve it.
const newerShapeCards = `{"cards": [
  {
    "name": "Glimmer Moth",
    "slug": "glimmer_moth",
    "engine": {
      "type": "Minion", "rarity": "Exceptional",
      "rules": "Airborne, Movement +1\n\nGenesis → Draw a spell.",
      "cost": 3, "attack": 2, "defense": 2, "life": null,
      "air": 2, "earth": 0, "fire": 0, "water": 0
    },
    "elements": ["Air"],
    "subtypes": ["Beast", "Spirit"],
    "printings": [
      {"slug": "alp-glimmer_moth-b-s", "set": "Alpha"},
      {"slug": "alp-glimmer_moth-b-f", "set": "Alpha"},
      "bet-glimmer_moth-b-s"
    ]
  },
  {
    "name": "Brackwater Fen",
    "engine": {"type": "Site", "rarity": "Ordinary", "rules": "", "threshold": "(E)(W)"},
    "elements": ["Earth", "Water"],
    "subtypes": []
  },
  {
    "name": "Pebble Imp",
    "slug": "pebble_imp",
    "engine": {"type": "Minion", "rules": "Burrowing", "cost": 0, "power": 1},
    "elements": [],
    "subtypes": ["Beast", "Token"]
  }
]}`

func TestParseCardsBothShapesAgree(t *testing.T) {
	older, err := ParseCards([]byte(olderShapeCards))
	if err != nil {
		t.Fatal(err)
	}
	newer, err := ParseCards([]byte(newerShapeCards))
	if err != nil {
		t.Fatal(err)
	}
	want := []*Card{
		{
			Name: "Glimmer Moth", Slug: "glimmer_moth", Type: Minion, Rarity: Exceptional,
			Cost: IntPtr(3), Attack: IntPtr(2), Defence: IntPtr(2),
			Thresholds: Thresholds{Air: 2}, Elements: []Element{Air}, Subtypes: []string{"Beast", "Spirit"},
			RulesText: "Airborne, Movement +1\n\nGenesis → Draw a spell.",
			Keywords:  []Keyword{Airborne, Genesis, Movement}, MovementBonus: 1,
			Printings: []string{"alp-glimmer_moth-b-s", "alp-glimmer_moth-b-f", "bet-glimmer_moth-b-s"},
			Sets:      []string{"Alpha", "Beta"},
		},
		{
			Name: "Brackwater Fen", Slug: "brackwater_fen", Type: Site, Rarity: Ordinary,
			Thresholds: Thresholds{Earth: 1, Water: 1}, Elements: []Element{Earth, Water},
		},
		{
			Name: "Pebble Imp", Slug: "pebble_imp", Type: Minion, Cost: IntPtr(0), Attack: IntPtr(1), Defence: IntPtr(1),
			Subtypes: []string{"Beast", "Token"}, Token: true, RulesText: "Burrowing", Keywords: []Keyword{Burrowing},
		},
	}
	for i, w := range want {
		o := older[i]
		if !reflect.DeepEqual(o, w) {
			t.Errorf("older shape card %d:\n got %+v\nwant %+v", i, o, w)
		}
		n := newer[i]
		if i == 0 {
			// The newer fixture names the Beta printing without its set.
			w2 := *w
			w2.Sets = []string{"Alpha"}
			w = &w2
		}
		if !reflect.DeepEqual(n, w) {
			t.Errorf("newer shape card %d:\n got %+v\nwant %+v", i, n, w)
		}
	}
}

func TestParseCardsMixedShapesInOneList(t *testing.T) {
	mixed := `[{"name":"A","guardian":{"type":"Magic","cost":1,"thresholds":{"fire":1}},"elements":"Fire"},
	           {"name":"B","engine":{"type":"Magic","cost":2,"water":2},"elements":["Water"]}]`
	cards, err := ParseCards([]byte(mixed))
	if err != nil {
		t.Fatal(err)
	}
	if cards[0].Thresholds != (Thresholds{Fire: 1}) || cards[1].Thresholds != (Thresholds{Water: 2}) {
		t.Errorf("thresholds: %v and %v", cards[0].Thresholds, cards[1].Thresholds)
	}
	if cards[1].Slug != "b" {
		t.Errorf("a card without a slug gets one from its name, got %q", cards[1].Slug)
	}
}

func TestParseCardsErrors(t *testing.T) {
	tests := []struct {
		name       string
		json       string
		line, col  int
		card       int
		cardName   string
		message    string
		syntax     bool // wraps *json.SyntaxError
		typeErrors bool // wraps *json.UnmarshalTypeError
	}{
		{
			name: "missing comma",
			json: "[\n  {\"name\": \"A\", \"guardian\": {\"type\": \"Site\"}}\n  {\"name\": \"B\"}\n]",
			line: 3, col: 3,
			message: "invalid character '{' after array element",
			syntax:  true,
		},
		{
			name: "cut short",
			json: "[\n  {\"name\": \"A\",",
			line: 2, col: 16,
			message: "unexpected end of JSON input",
			syntax:  true,
		},
		{
			name: "cost is a string",
			json: "[\n{\"name\":\"A\",\"guardian\":{\"type\":\"Site\"}},\n{\"name\": \"Bad Cost\",\n \"guardian\": {\n  \"type\": \"Minion\",\n  \"cost\": \"3\"}}\n]",
			line: 6, col: 3, card: 2, cardName: "Bad Cost",
			message:    "guardian.cost is a string, want a whole number",
			typeErrors: true,
		},
		{
			name: "elements is a number",
			json: "[{\"name\": \"N\", \"engine\": {\"type\": \"Magic\"},\n \"elements\": 7}]",
			line: 2, col: 2, card: 1, cardName: "N",
			message:    "elements is the number 7, want a string or a list of strings",
			typeErrors: true,
		},
		{
			name: "unknown element",
			json: "[{\"name\": \"N\", \"engine\": {\"type\": \"Magic\"},\n \"elements\": [\"Lightning\"]}]",
			line: 2, col: 2, card: 1, cardName: "N",
			message: `element "Lightning": want air, earth, fire or water`,
		},
		{
			name: "neither shape",
			json: "[\n  {\"name\": \"Shapeless\", \"type\": \"Minion\"}\n]",
			line: 2, col: 3, card: 1, cardName: "Shapeless",
			message: `has neither "guardian"`,
		},
		{
			name: "bad threshold letters",
			json: "[{\"name\": \"T\", \"engine\": {\"type\": \"Magic\", \"threshold\": \"FX\"}}]",
			line: 1, col: 44, card: 1, cardName: "T",
			message: `threshold "FX": want letters A, E, F and W`,
		},
		{
			name: "not a list",
			json: `"cards"`,
			line: 1, col: 1,
			message: `want a list of cards, found the string "cards"`,
		},
		{
			name: "wrapped list is not a list",
			json: "{\"count\": 2,\n \"cards\": {\"A\": 1}}",
			line: 2, col: 11,
			message: `"cards" holds an object, want a list of cards`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseCards([]byte(tt.json))
			var ce *CatalogError
			if !errors.As(err, &ce) {
				t.Fatalf("want a *CatalogError, got %T %v", err, err)
			}
			if ce.Line != tt.line || ce.Column != tt.col {
				t.Errorf("at %d:%d, want %d:%d (%v)", ce.Line, ce.Column, tt.line, tt.col, err)
			}
			if ce.Card != tt.card || ce.Name != tt.cardName {
				t.Errorf("card %d %q, want %d %q", ce.Card, ce.Name, tt.card, tt.cardName)
			}
			if !strings.Contains(err.Error(), tt.message) {
				t.Errorf("message %q does not say %q", err, tt.message)
			}
			var se *json.SyntaxError
			if errors.As(err, &se) != tt.syntax {
				t.Errorf("wraps a *json.SyntaxError: %v, want %v", errors.As(err, &se), tt.syntax)
			}
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) != tt.typeErrors {
				t.Errorf("wraps a *json.UnmarshalTypeError: %v, want %v", errors.As(err, &te), tt.typeErrors)
			}
		})
	}
}

func TestLoadCatalogNamesTheBadFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "broken.json")
	bad := "[\n{\"name\": \"A\", \"guardian\": {\"type\": \"Minion\", \"attack\": true}}\n]"
	if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadCatalog(path)
	var ce *CatalogError
	if !errors.As(err, &ce) || ce.File != path {
		t.Fatalf("want a *CatalogError naming %s, got %v", path, err)
	}
	want := path + `:2:46: card 1 "A": guardian.attack is a bool, want a whole number`
	if err.Error() != want {
		t.Errorf("got  %s\nwant %s", err, want)
	}

	_, err = LoadCatalog(filepath.Join(dir, "missing.json"))
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("a missing file: %v", err)
	}
	_, err = LoadCatalog(dir) // a directory without cards.json
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "cards.json") {
		t.Errorf("a directory without cards.json: %v", err)
	}
}

func TestLoadCatalogDirectoryFindsImages(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "cards.json"), []byte(olderShapeCards), 0o644); err != nil {
		t.Fatal(err)
	}
	images := filepath.Join(dir, "images")
	if err := os.Mkdir(images, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"glimmer_moth.jpg", "glimmer_moth.png", "bet-glimmer_moth-b-s.png", "brackwater_fen.webp", "Brackwater Fen.png", "notes.txt", "unrelated.png", "Pebble-Imp.JPG"} {
		if err := os.WriteFile(filepath.Join(images, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cat, err := LoadCatalog(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"Glimmer Moth":   filepath.Join(images, "glimmer_moth.png"),    // png is preferred over jpg
		"Brackwater Fen": filepath.Join(images, "brackwater_fen.webp"), // the slug comes before the name
		"Pebble Imp":     filepath.Join(images, "Pebble-Imp.JPG"),      // a scan named after the card
	}
	for name, img := range want {
		card, err := cat.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if card.Image != img {
			t.Errorf("%s: image %q, want %q", name, card.Image, img)
		}
	}

	// Without a face under the card's slug, a printing's face serves.
	for _, f := range []string{"glimmer_moth.jpg", "glimmer_moth.png"} {
		if err := os.Remove(filepath.Join(images, f)); err != nil {
			t.Fatal(err)
		}
	}
	cat, err = LoadCatalog(dir)
	if err != nil {
		t.Fatal(err)
	}
	if card, _ := cat.Lookup("Glimmer Moth"); card.Image != filepath.Join(images, "bet-glimmer_moth-b-s.png") {
		t.Errorf("Glimmer Moth: image %q, want its Beta printing's face", card.Image)
	}

	// A face named after no card is nobody's.
	if err := os.Remove(filepath.Join(images, "Pebble-Imp.JPG")); err != nil {
		t.Fatal(err)
	}
	cat, err = LoadCatalog(dir)
	if err != nil {
		t.Fatal(err)
	}
	if card, _ := cat.Lookup("Pebble Imp"); card.Image != "" {
		t.Errorf("Pebble Imp: image %q, want none (unrelated.png and notes.txt are no card's)", card.Image)
	}

	// The same cards as a plain file have no images.
	plain, err := LoadCatalog(filepath.Join(dir, "cards.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range plain.Cards() {
		if c.Image != "" {
			t.Errorf("%s from a plain file has image %q", c.Name, c.Image)
		}
	}
}

func TestMarkTokensFromRulesText(t *testing.T) {
	cards := []*Card{
		{Name: "Croak Pond", Type: Site, RulesText: "Genesis → Summon three submerged Newt tokens here."},
		{Name: "Newt (Blue)", Type: Minion},
		{Name: "Newt 2", Type: Minion},
		{Name: "Newt Herder", Type: Minion, RulesText: "Newts are friends."},
		{Name: "Drill Sergeant", Type: Minion, RulesText: "Summon a Toy Soldier token to each adjacent site."},
		{Name: "Toy Soldiers", Type: Minion},
		{Name: "Rubble", Type: Site, RulesText: "Provides no mana."},
	}
	markTokens(cards)
	want := []bool{false, true, true, false, false, true, true}
	for i, c := range cards {
		if c.Token != want[i] {
			t.Errorf("%s: token %v, want %v", c.Name, c.Token, want[i])
		}
	}
}
