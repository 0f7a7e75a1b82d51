package models

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// ErrUnknownCard is wrapped by Catalog.Lookup when no card has the name.
var ErrUnknownCard = errors.New("unknown card")

// Catalog is a set of cards that can be looked up by name or slug.
// A catalog loaded from a directory also knows each card's reference face.
// Once built it is safe for concurrent use; its cards must not be changed.
type Catalog struct {
	// Path is the file or directory it was loaded from.
	Path   string
	cards  []*Card
	byName map[string]*Card
	bySlug map[string]*Card
	// names holds each card's normalized name, in catalog order.
	names []string

	searchOnce sync.Once
	searchText []string // per card: normalized type, subtypes and rules text

	suggestOnce  sync.Once
	suggestNames []suggestName // per card: the name prepared for Suggest
}

// NewCatalog builds a catalog from cards already in memory. When two cards
// share a name or a slug, the first one wins.
func NewCatalog(cards []*Card) *Catalog {
	c := &Catalog{
		cards:  cards,
		byName: make(map[string]*Card, len(cards)),
		bySlug: make(map[string]*Card, 3*len(cards)),
		names:  make([]string, len(cards)),
	}
	for i, card := range cards {
		n := NormalizeName(card.Name)
		c.names[i] = n
		if _, ok := c.byName[n]; !ok {
			c.byName[n] = card
		}
		if _, ok := c.bySlug[card.Slug]; !ok && card.Slug != "" {
			c.bySlug[card.Slug] = card
		}
		for _, p := range card.Printings {
			if _, ok := c.bySlug[p]; !ok {
				c.bySlug[p] = card
			}
		}
	}
	return c
}

// imageExtensions are the reference-face formats of a catalog directory, in
// order of preference.
var imageExtensions = []string{".png", ".jpg", ".jpeg", ".webp"}

// LoadCatalog reads a catalog from a JSON card list (either shape of the
// public API, see ParseCards) or from a catalog directory holding cards.json
// and reference faces images/<slug>.(png|jpg|webp), where the slug is the
// card's or, failing that, one of its printings'. A card list given as a
// plain file has no images. A file that cannot be read as a card list gives
// a *CatalogError naming the file, the line and column, the card and the
// problem.
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
		if dir != "" && errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("catalog: %s is a directory without cards.json: %w", dir, err)
		}
		return nil, fmt.Errorf("catalog: %w", err)
	}
	cards, err := ParseCards(data)
	if err != nil {
		var ce *CatalogError
		if errors.As(err, &ce) {
			ce.File = file
			return nil, ce
		}
		return nil, &CatalogError{File: file, Err: err}
	}
	if dir != "" {
		if err := findImages(cards, filepath.Join(dir, "images")); err != nil {
			return nil, err
		}
	}
	c := NewCatalog(cards)
	c.Path = path
	return c, nil
}

// findImages sets each card's Image from the files in an images directory,
// reading the directory once rather than probing every card's file names. A
// face is found under the card's slug, else under one of its printings'
// slugs (as the public API names them), else under a file name that reads
// as the card's name or slug in any case or punctuation ("Arid Desert.jpg",
// "ARID-DESERT.png"), as a player's own scans are often named.
func findImages(cards []*Card, imagesDir string) error {
	entries, err := os.ReadDir(imagesDir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("catalog: %w", err)
	}
	files := facesByStem(entries, imagesDir, func(stem string) string { return stem })
	byName := facesByStem(entries, imagesDir, NormalizeName)
	for _, card := range cards {
		card.Image = findFace(card, files, byName)
	}
	return nil
}

// facesByStem maps the image files of a directory by key(file name without
// its extension), keeping the preferred format where several share a key.
func facesByStem(entries []os.DirEntry, dir string, key func(string) string) map[string]string {
	rank := map[string]int{} // key → index of the best extension seen
	files := map[string]string{}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		name := e.Name()
		ext := strings.ToLower(filepath.Ext(name))
		for i, want := range imageExtensions {
			if ext != want {
				continue
			}
			k := key(strings.TrimSuffix(name, filepath.Ext(name)))
			if r, ok := rank[k]; !ok || i < r {
				rank[k] = i
				files[k] = filepath.Join(dir, name)
			}
		}
	}
	return files
}

// findFace picks a card's face: by its slug, a printing's slug, then by a
// file name that reads as its name, slug or a printing's slug.
func findFace(card *Card, bySlug, byName map[string]string) string {
	if f, ok := bySlug[card.Slug]; ok {
		return f
	}
	for _, p := range card.Printings {
		if f, ok := bySlug[p]; ok {
			return f
		}
	}
	for _, n := range append([]string{card.Name, card.Slug}, card.Printings...) {
		if f, ok := byName[NormalizeName(n)]; ok && n != "" {
			return f
		}
	}
	return ""
}

// Cards lists the cards in catalog order. The slice is a copy.
func (c *Catalog) Cards() []*Card { return append([]*Card(nil), c.cards...) }

// Len is the number of cards.
func (c *Catalog) Len() int { return len(c.cards) }

// BySlug finds a card by its slug or one of its printings' slugs.
func (c *Catalog) BySlug(slug string) (*Card, bool) {
	if card, ok := c.bySlug[slug]; ok {
		return card, true
	}
	card, ok := c.bySlug[strings.ToLower(strings.TrimSpace(slug))]
	return card, ok
}

// Lookup finds a card by name, ignoring case, punctuation and accents, or by
// the slug of the card or of one of its printings. For a name it does not
// know it returns an *UnknownCardError, which wraps ErrUnknownCard and
// suggests the closest names.
func (c *Catalog) Lookup(name string) (*Card, error) {
	if card, ok := c.byName[NormalizeName(name)]; ok {
		return card, nil
	}
	if card, ok := c.BySlug(name); ok {
		return card, nil
	}
	return nil, &UnknownCardError{Name: name, Suggestions: c.Suggest(name, 3)}
}

// UnknownCardError is the error of a name that is no card of the catalog.
type UnknownCardError struct {
	Name string
	// Suggestions are the closest names in the catalog, best first.
	Suggestions []string
}

func (e *UnknownCardError) Error() string {
	msg := fmt.Sprintf("%v %q", ErrUnknownCard, e.Name)
	if len(e.Suggestions) > 0 {
		msg += " (did you mean " + orList(e.Suggestions) + "?)"
	}
	return msg
}

// Unwrap gives ErrUnknownCard, so errors.Is(err, ErrUnknownCard) holds.
func (e *UnknownCardError) Unwrap() error { return ErrUnknownCard }

// orList writes "A", "A or B", "A, B or C".
func orList(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}
