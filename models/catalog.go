package models

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ErrUnknownCard is wrapped by Catalog.Lookup when no card has the name.
var ErrUnknownCard = errors.New("unknown card")

// Catalog is a set of cards that can be looked up by name or slug.
// A catalog loaded from a directory also knows each card's reference face.
type Catalog struct {
	// Path is the file or directory it was loaded from.
	Path   string
	cards  []*Card
	byName map[string]*Card
	bySlug map[string]*Card
}

// NewCatalog builds a catalog from cards already in memory.
func NewCatalog(cards []*Card) *Catalog {
	c := &Catalog{cards: cards, byName: map[string]*Card{}, bySlug: map[string]*Card{}}
	for _, card := range cards {
		c.byName[NormalizeName(card.Name)] = card
		c.bySlug[card.Slug] = card
		for _, p := range card.Printings {
			if _, ok := c.bySlug[p]; !ok {
				c.bySlug[p] = card
			}
		}
	}
	return c
}

// LoadCatalog reads a catalog from a JSON file or from a directory holding
// cards.json and images/<slug>.(png|jpg|webp).
func LoadCatalog(path string) (*Catalog, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	file, dir := path, ""
	if info.IsDir() {
		dir = path
		file = filepath.Join(path, "cards.json")
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	cards, err := ParseCards(data)
	if err != nil {
		return nil, fmt.Errorf("catalog %s: %w", file, err)
	}
	if dir != "" {
		for _, card := range cards {
			for _, ext := range []string{".png", ".jpg", ".jpeg", ".webp"} {
				p := filepath.Join(dir, "images", card.Slug+ext)
				if _, err := os.Stat(p); err == nil {
					card.Image = p
					break
				}
			}
		}
	}
	c := NewCatalog(cards)
	c.Path = path
	return c, nil
}

// Cards lists the cards in catalog order. The slice is a copy.
func (c *Catalog) Cards() []*Card { return append([]*Card(nil), c.cards...) }

// Len is the number of cards.
func (c *Catalog) Len() int { return len(c.cards) }

// BySlug finds a card by its slug or one of its printings' slugs.
func (c *Catalog) BySlug(slug string) (*Card, bool) {
	card, ok := c.bySlug[slug]
	return card, ok
}

// Lookup finds a card by name, ignoring case, punctuation and accents, or by slug.
func (c *Catalog) Lookup(name string) (*Card, error) {
	if card, ok := c.byName[NormalizeName(name)]; ok {
		return card, nil
	}
	if card, ok := c.bySlug[name]; ok {
		return card, nil
	}
	return nil, fmt.Errorf("%w %q", ErrUnknownCard, name)
}

// NormalizeName folds case, punctuation and common accents so that
// "Æther-Wolf", "aether wolf" and "AETHER WOLF" compare equal.
func NormalizeName(s string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(s) {
		if f, ok := foldAccent[r]; ok {
			b.WriteString(f)
			space = false
			continue
		}
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
			space = false
		case r == '\'' || r == '’':
			// "Duke's" and "Dukes" are the same name.
		default:
			if !space && b.Len() > 0 {
				b.WriteByte(' ')
				space = true
			}
		}
	}
	return strings.TrimSpace(b.String())
}

var foldAccent = map[rune]string{
	'à': "a", 'á': "a", 'â': "a", 'ä': "a", 'ã': "a", 'å': "a", 'æ': "ae",
	'ç': "c", 'è': "e", 'é': "e", 'ê': "e", 'ë': "e", 'ì': "i", 'í': "i", 'î': "i", 'ï': "i",
	'ñ': "n", 'ò': "o", 'ó': "o", 'ô': "o", 'ö': "o", 'õ': "o", 'ø': "o", 'œ': "oe",
	'ù': "u", 'ú': "u", 'û': "u", 'ü': "u", 'ý': "y", 'ÿ': "y", 'ß': "ss",
}

// apiCard is the public API's older card shape.
type apiCard struct {
	Name     string `json:"name"`
	Slug     string `json:"slug"`
	Guardian struct {
		Type       string     `json:"type"`
		Rarity     *string    `json:"rarity"`
		RulesText  string     `json:"rulesText"`
		Cost       *int       `json:"cost"`
		Attack     *int       `json:"attack"`
		Defence    *int       `json:"defence"`
		Life       *int       `json:"life"`
		Thresholds Thresholds `json:"thresholds"`
	} `json:"guardian"`
	Elements string `json:"elements"`
	SubTypes string `json:"subTypes"`
	Sets     []struct {
		Name     string `json:"name"`
		Variants []struct {
			Slug string `json:"slug"`
		} `json:"variants"`
	} `json:"sets"`
}

// ParseCards reads a card list in the public API's JSON shape.
func ParseCards(data []byte) ([]*Card, error) {
	var raw []apiCard
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, err
	}
	cards := make([]*Card, 0, len(raw))
	for _, r := range raw {
		card := &Card{
			Name: r.Name, Slug: r.Slug, Type: CardType(r.Guardian.Type),
			Cost: r.Guardian.Cost, Attack: r.Guardian.Attack, Defence: r.Guardian.Defence, Life: r.Guardian.Life,
			Thresholds: r.Guardian.Thresholds, RulesText: r.Guardian.RulesText,
		}
		if r.Guardian.Rarity != nil {
			card.Rarity = Rarity(*r.Guardian.Rarity)
		}
		for _, e := range strings.Split(r.Elements, ",") {
			if el, err := ParseElement(e); err == nil {
				card.Elements = append(card.Elements, el)
			}
		}
		for _, s := range strings.Fields(r.SubTypes) {
			card.Subtypes = append(card.Subtypes, s)
			if strings.EqualFold(s, "token") {
				card.Token = true
			}
		}
		for _, set := range r.Sets {
			for _, v := range set.Variants {
				card.Printings = append(card.Printings, v.Slug)
			}
		}
		cards = append(cards, card)
	}
	return cards, nil
}
