package models

import (
	"reflect"
	"slices"
	"testing"
)

func TestFindKeywords(t *testing.T) {
	tests := []struct {
		name     string
		text     string
		want     []Keyword
		movement int
	}{
		{"empty", "", nil, 0},
		{"one keyword", "Burrowing", []Keyword{Burrowing}, 0},
		{"keyword list", "Airborne, Voidwalk, Ward", []Keyword{Airborne, Voidwalk}, 0},
		{"list then abilities", "Submerge, Waterbound\n\nTap → Drag an enemy here.", []Keyword{Submerge, Waterbound}, 0},
		{"movement bonus", "Airborne, Movement +3, Voidwalk", []Keyword{Airborne, Voidwalk, Movement}, 3},
		{"element spellcaster", "Airborne, Fire Spellcaster", []Keyword{Airborne, Spellcaster}, 0},
		{"two-element spellcaster", "Earth and Water Spellcaster\n\nAt the end of your turn, draw.", []Keyword{Spellcaster}, 0},
		{"ranged with range", "Ranged 2\n\nEnemies lose Stealth.", []Keyword{Ranged}, 0},
		{"sentence then keyword", "May be cast under any site.\n\nBurrowing, Submerge", []Keyword{Burrowing, Submerge}, 0},
		{"keyword ends a sentence", "Voidwalk. Must be cast to a corner.", []Keyword{Voidwalk}, 0},
		{"updated mark", "UPDATED: Immobile\n\nTap → Shoot a projectile.", []Keyword{Immobile}, 0},
		{"ward opens the list", "Lance, Lethal\n\nNearby allies are immune to Lethal.", []Keyword{Lethal}, 0},
		{"other ability in the list", "Airborne, can't attack or defend.", []Keyword{Airborne}, 0},
		{"genesis", "Genesis → Draw a spell.", []Keyword{Genesis}, 0},
		{"ascii arrow", "Genesis -> Choose another ally.", []Keyword{Genesis}, 0},
		{"genesis and deathrite", "Genesis & Deathrite → Kill a nearby minion.", []Keyword{Genesis, Deathrite}, 0},
		{"site threshold prefix", "(W)(W)(W) — Genesis → Summon three Newt tokens here.", []Keyword{Genesis}, 0},
		{"deathrite in second paragraph", "Spellcaster\n\nDeathrite → Opponent loses 3 life.", []Keyword{Spellcaster, Deathrite}, 0},

		// Keywords about other cards, or only sometimes, do not count.
		{"loses", "Minions occupying affected sites lose Airborne and are Immobile.", nil, 0},
		{"grants to an ally", "Give an allied minion Airborne until your next turn. Draw a spell.", nil, 0},
		{"grants a movement bonus", "Draw a card, then give an ally Movement +1 this turn.", nil, 0},
		{"bearer", "Bearer has Burrowing, Submerge, and Voidwalk, if it's a minion.", nil, 0},
		{"bearer range", "Bearer has Ranged 3.", nil, 0},
		{"conditional has", "Airborne\n\nHas Charge and Lethal if an ally died on your opponent's last turn.", []Keyword{Airborne}, 0},
		{"while warded", "Ward, Airborne while Warded", nil, 0},
		{"random mutation", "At the start of your turn, gains a random mutation until the end of turn: Airborne, Ranged, Lethal, or +3 power.", nil, 0},
		{"site gives everyone", "(E)(E)(E) — All minions have Burrowing.", nil, 0},
		{"mentions genesis", "Whenever this unburrows, you may trigger the Genesis of a nearby Desert.", nil, 0},
		{"other triggers' words", "Deathrite abilities here are also Genesis abilities.", nil, 0},
		{"non-airborne", "Whenever a non-Airborne minion enters this site, kill it.", nil, 0},
		{"verb submerge", "Submerge target minion or artifact, if able.", nil, 0},
		{"lethal to a kind", "Lethal to Evil.", nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, movement := FindKeywords(tt.text)
			if !reflect.DeepEqual(got, tt.want) || movement != tt.movement {
				t.Errorf("FindKeywords(%q) = %v, +%d; want %v, +%d", tt.text, got, movement, tt.want, tt.movement)
			}
		})
	}
}

// TestKeywordsOfRealCards checks cards of the public card list whose rules
// text is easy to misread.
func TestKeywordsOfRealCards(t *testing.T) {
	cat := loadRealCatalog(t)
	tests := []struct {
		name     string
		want     []Keyword
		movement int
	}{
		{"Entangle Terrain", nil, 0},                   // "lose Airborne and are Immobile"
		{"All-terrain Vestments", nil, 0},              // bearer's keywords
		{"Avenging Angel", []Keyword{Airborne}, 0},     // Charge and Lethal only sometimes
		{"Zeppelin of Zealots", nil, 0},                // "Airborne while Warded"
		{"Ribble Boggart", nil, 0},                     // random mutation
		{"Sir Bors the Younger", []Keyword{Ranged}, 0}, // "Ranged 2"
		{"Hounds of Ondaros", []Keyword{Airborne, Burrowing, Submerge, Voidwalk}, 0},
		{"Master Necromancer", []Keyword{Spellcaster, Genesis}, 0},
		{"Those Who Linger", []Keyword{Deathrite}, 0},
		{"Tadpole Pool", []Keyword{Genesis}, 0},
		{"Mester Stoor Worm", []Keyword{Submerge, Waterbound}, 0}, // "Deal Lethal damage"
		{"Blaze", nil, 0},                                         // "give an ally Movement +2"
		{"Seven-League Boots", nil, 0},                            // "Bearer has Movement +7"
	}
	for _, tt := range tests {
		card, err := cat.Lookup(tt.name)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if !reflect.DeepEqual(card.Keywords, tt.want) || card.MovementBonus != tt.movement {
			t.Errorf("%s: %v +%d, want %v +%d\n%s", tt.name, card.Keywords, card.MovementBonus, tt.want, tt.movement, card.RulesText)
		}
	}

	// Every keyword of the issue appears on some real card.
	seen := map[Keyword]bool{}
	maxMove := 0
	for _, c := range cat.Cards() {
		for _, k := range c.Keywords {
			seen[k] = true
		}
		maxMove = max(maxMove, c.MovementBonus)
	}
	for _, k := range AllKeywords {
		if !seen[k] {
			t.Errorf("no real card has %s", k)
		}
	}
	if maxMove < 2 {
		t.Errorf("largest movement bonus %d; some real cards have Movement +2 or more", maxMove)
	}
}

// loadRealCatalog loads the public card list beside the repository, or skips.
func loadRealCatalog(t testing.TB) *Catalog {
	t.Helper()
	c, err := LoadCatalog(realCatalogPath)
	if err != nil {
		t.Skipf("public card list absent: %v", err)
	}
	return c
}

func TestKeywordOrderIsAllKeywords(t *testing.T) {
	if !reflect.DeepEqual(keywordOrder[:], AllKeywords) {
		t.Errorf("keywordOrder %v differs from AllKeywords %v", keywordOrder, AllKeywords)
	}
}

// FuzzFindKeywords checks that any rules text is read without a panic and
// gives keywords in order, without repeats.
func FuzzFindKeywords(f *testing.F) {
	for _, s := range []string{"", ". Airborne", "Airborne, Movement +2", "(W)(W) — Genesis → x", "G", "d. . .", "Ranged 2\n\nDeathrite -> x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got, movement := FindKeywords(text)
		last := -1
		for _, k := range got {
			i, ok := keywordIndex[k]
			if !ok || i <= last {
				t.Fatalf("FindKeywords(%q) = %v: out of order or unknown", text, got)
			}
			last = i
		}
		if movement < 0 || (movement > 0 && !slices.Contains(got, Movement)) {
			t.Fatalf("FindKeywords(%q) = %v, movement %d", text, got, movement)
		}
	})
}
