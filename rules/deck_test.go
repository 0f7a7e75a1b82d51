package rules

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tablecam/tablecam/models"
)

// deckList builds a decklist from sections of "N Name" lines.
func deckList(avatar string, atlas, spellbook []string) string {
	var b strings.Builder
	b.WriteString("# a test deck\nAvatar\n" + avatar + "\n\natlas:\n")
	for _, l := range atlas {
		b.WriteString(l + "\n")
	}
	b.WriteString("\nSPELLBOOK (60)\n")
	for _, l := range spellbook {
		b.WriteString(l + "\n")
	}
	return b.String()
}

func deckCatalog() *models.Catalog {
	cards := testCatalog().Cards()
	// Avatars whose text changes the deck-building rules (card list: Magician, Pathfinder).
	cards = append(cards,
		&models.Card{Name: "Test Conjurer", Slug: "test-conjurer", Type: models.Avatar, Life: models.IntPtr(20),
			RulesText: "You have no atlas, but your spellbook may contain sites, and you start with seven cards.\n\nTap → Play a site."},
		&models.Card{Name: "Test Roamer", Slug: "test-roamer", Type: models.Avatar, Life: models.IntPtr(20),
			RulesText: "Your atlas can’t contain duplicates. Draw no sites during setup.\n\nTap → If able, play the topmost site of your atlas to an adjacent location and move there."})
	for i := 0; i < 30; i++ {
		cards = append(cards, &models.Card{Name: fmt.Sprintf("Plain %d", i), Slug: fmt.Sprintf("plain-%d", i), Type: models.Site, Rarity: models.Ordinary})
	}
	for i := 0; i < 10; i++ {
		cards = append(cards, &models.Card{Name: fmt.Sprintf("Bolt %d", i), Slug: fmt.Sprintf("bolt-%d", i), Type: models.Magic, Rarity: models.Ordinary, Cost: models.IntPtr(1)})
	}
	return models.NewCatalog(cards)
}

func legalDeck() (string, []string, []string) {
	atlas := []string{"4 Ember Flat", "4x Tide Pool", "4 Windy Peak", "4 Stone Field", "3 Twin Steppe", "1 Bare Moor", "4 Plain 0", "4 Plain 1", "2 Plain 2"}
	var spells []string
	for i := 0; i < 10; i++ {
		spells = append(spells, fmt.Sprintf("4 Bolt %d", i))
	}
	spells = append(spells, "4 Scout", "2 Water Sprite", "1 Sky Knight", "3 Void Wraith", "4 Tunnel Mole", "4 Reef Eel", "1 Spark", "1 Brass Amulet")
	return "1 Test Seer", atlas, spells
}

func TestCheckDeck(t *testing.T) {
	cat := deckCatalog()
	tests := []struct {
		name   string
		edit   func(avatar string, atlas, spells []string) (string, []string, []string)
		want   []string // substrings of the problems, in line order
		lineOf []int
	}{
		{"a legal deck", func(a string, at, sp []string) (string, []string, []string) { return a, at, sp }, nil, nil},
		{"no Avatar", func(a string, at, sp []string) (string, []string, []string) { return "", at, sp }, []string{"0 Avatars"}, []int{2}},
		{"two Avatars", func(a string, at, sp []string) (string, []string, []string) {
			return "1 Test Seer\n1 Test Warden", at, sp
		},
			[]string{"2 Avatars"}, []int{2}},
		{"a short atlas", func(a string, at, sp []string) (string, []string, []string) { return a, at[:8], sp }, []string{"28 sites; it needs at least 30"}, []int{5}},
		{"a short spellbook", func(a string, at, sp []string) (string, []string, []string) { return a, at, sp[1:] }, []string{"56 spells; it needs at least 60"}, nil},
		{"a spell in the atlas", func(a string, at, sp []string) (string, []string, []string) { return a, append(at, "1 Spark"), sp },
			[]string{"Spark is a magic; the atlas holds only sites"}, nil},
		{"a site in the spellbook", func(a string, at, sp []string) (string, []string, []string) { return a, at, append(sp, "1 Plain 3") },
			[]string{"Plain 3 is a site; the spellbook holds only spells"}, nil},
		{"too many Ordinary copies across lines", func(a string, at, sp []string) (string, []string, []string) { return a, at, append(sp, "1 Scout") },
			[]string{"5 copies of Scout (lines 27, 35)\x00Ordinary cards are limited to 4"}, nil},
		{"too many Unique copies", func(a string, at, sp []string) (string, []string, []string) { return a, at, append(sp, "1 sky knight") },
			[]string{"2 copies of Sky Knight"}, nil},
		// Rulebook, Cards: "Some cards will bend or even break the rules in this rulebook, in these
		// cases the card's text takes precedence."
		{"an Avatar with no atlas keeps its sites in the spellbook", func(a string, at, sp []string) (string, []string, []string) {
			return "1 Test Conjurer", nil, append(sp, "4 Ember Flat", "4 Plain 0")
		}, nil, nil},
		{"an Avatar with no atlas has no atlas", func(a string, at, sp []string) (string, []string, []string) {
			return "1 Test Conjurer", []string{"4 Ember Flat"}, sp
		}, []string{"Test Conjurer has no atlas"}, []int{5}},
		{"an Avatar whose atlas can't contain duplicates", func(a string, at, sp []string) (string, []string, []string) {
			var sites []string
			for i := 0; i < 29; i++ {
				sites = append(sites, fmt.Sprintf("1 Plain %d", i))
			}
			return "1 Test Roamer", append(sites, "2 Tide Pool"), sp
		}, []string{"2 copies of Tide Pool\x00Test Roamer's atlas can't contain duplicates"}, []int{35}},
		{"an Avatar whose atlas can't contain duplicates, with none", func(a string, at, sp []string) (string, []string, []string) {
			var sites []string
			for i := 0; i < 30; i++ {
				sites = append(sites, fmt.Sprintf("1 Plain %d", i))
			}
			return "1 Test Roamer", sites, sp
		}, nil, nil},
		{"a token", func(a string, at, sp []string) (string, []string, []string) {
			return a, at, append(sp, "1 Spirit Token")
		},
			[]string{"token"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, at, sp := tc.edit(legalDeck())
			text := deckList(a, at, sp)
			d, err := ParseDeck(strings.NewReader(text), "test.txt", cat)
			if err != nil {
				t.Fatal(err)
			}
			ps := CheckDeck(d)
			var got []string
			for _, p := range ps {
				got = append(got, fmt.Sprintf("%d: %s", p.Line, p.Message))
			}
			if len(ps) != len(tc.want) {
				t.Fatalf("problems %q, want %d matching %q", got, len(tc.want), tc.want)
			}
			for i, w := range tc.want {
				for _, part := range strings.Split(w, "\x00") {
					if !strings.Contains(ps[i].Message, part) {
						t.Errorf("problem %q does not say %q", got[i], part)
					}
				}
				if i < len(tc.lineOf) && ps[i].Line != tc.lineOf[i] {
					t.Errorf("problem %q on line %d, want %d", got[i], ps[i].Line, tc.lineOf[i])
				}
			}
		})
	}
}

func TestParseDeckErrors(t *testing.T) {
	cat := deckCatalog()
	_, err := ParseDeck(strings.NewReader("Avatar\n1 Test Seer\nAtlas\n4 Ember Flatt\nthree Pond\n2x\n"), "d.txt", cat)
	if !errors.Is(err, ErrBadDeck) {
		t.Fatalf("error %v", err)
	}
	for _, want := range []string{`d.txt:4: bad decklist: unknown card "Ember Flatt" (did you mean Ember Flat?)`, `d.txt:5:`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	d, err := ParseDeck(strings.NewReader("Avatar\n1 Test Seer\nSideboard\n4 Whatever Card\nSpellbook\n2 Spark\n"), "d.txt", cat)
	if err != nil || d.Count(SpellbookSection) != 2 || len(d.Entries) != 2 {
		t.Errorf("a sideboard is not skipped: %v %+v", err, d)
	}
	if _, err := ParseDeck(strings.NewReader("4 Scout\n"), "d.txt", cat); err == nil || !strings.Contains(err.Error(), "before any") {
		t.Errorf("a card before any header: %v", err)
	}
}
