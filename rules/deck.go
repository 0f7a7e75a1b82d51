package rules

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/tablecam/tablecam/models"
)

// ErrBadDeck is wrapped by ParseDeck's errors: a line that is not a card line
// or a header, or a card the catalog lacks.
var ErrBadDeck = errors.New("bad decklist")

// DeckSection is one part of a deck: the Avatar, the atlas of sites or the
// spellbook of spells.
type DeckSection string

// The three sections of a decklist.
const (
	AvatarSection    DeckSection = "Avatar"
	AtlasSection     DeckSection = "Atlas"
	SpellbookSection DeckSection = "Spellbook"
)

// otherSection holds the cards of a list outside the deck (a sideboard or
// maybeboard, as deck sites export them); ParseDeck skips them.
const otherSection DeckSection = "other"

// Deck-building minimums of the rulebook (Building Your Own Decks).
const (
	MinAtlas     = 30
	MinSpellbook = 60
)

// DeckEntry is one "N Card Name" line of a decklist.
type DeckEntry struct {
	Line    int
	Count   int
	Card    *models.Card
	Section DeckSection
}

// Deck is a parsed decklist.
type Deck struct {
	// Name is the file the list came from, for messages.
	Name    string
	Entries []DeckEntry
	// Headers gives the line of each section's header.
	Headers map[DeckSection]int
}

// Count sums the cards of a section that belong there: Avatars in the Avatar
// section, sites in the atlas, spells in the spellbook (tokens never count).
func (d *Deck) Count(s DeckSection) int {
	n := 0
	for _, e := range d.Entries {
		if e.Section == s && belongs(s, e.Card) {
			n += e.Count
		}
	}
	return n
}

func belongs(s DeckSection, c *models.Card) bool {
	switch {
	case c.Token:
		return false
	case s == AvatarSection:
		return c.Type == models.Avatar
	case s == AtlasSection:
		return c.Type == models.Site
	}
	return c.Type.IsSpell()
}

// DeckProblem is one reason a deck is not legal, on a line (0 for the whole deck).
type DeckProblem struct {
	Line    int    `json:"line"`
	Message string `json:"message"`
}

var cardLine = regexp.MustCompile(`^(\d+)\s*[xX×]?\s+(\S.*)$|^(\d+)[xX×](\S.*)$`)

// ParseDeck reads a decklist: "N Card Name" lines (also "4x Name" or a bare
// name for one copy) under "Avatar", "Atlas" and "Spellbook" headers, in any
// case, with blank lines and '#' comments allowed. Cards under a "Sideboard"
// or "Maybeboard" header are not part of the deck and are skipped. Every card is looked up in
// cat; all unknown cards and malformed lines are reported together, each
// naming its line.
func ParseDeck(r io.Reader, name string, cat *models.Catalog) (*Deck, error) {
	d := &Deck{Name: name, Headers: map[DeckSection]int{}}
	sc := bufio.NewScanner(r)
	var errs []error
	bad := func(line int, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s:%d: %w: %s", name, line, ErrBadDeck, fmt.Sprintf(format, args...)))
	}
	section := DeckSection("")
	for n := 1; sc.Scan(); n++ {
		text := strings.TrimSpace(strings.TrimPrefix(sc.Text(), "\xef\xbb\xbf"))
		if i := strings.Index(text, "#"); i >= 0 {
			text = strings.TrimSpace(text[:i])
		}
		if text == "" || strings.HasPrefix(text, "//") {
			continue
		}
		if s, ok := deckHeader(text); ok {
			section = s
			if _, dup := d.Headers[s]; !dup {
				d.Headers[s] = n
			}
			continue
		}
		count, cardName := 1, text
		if m := cardLine.FindStringSubmatch(text); m != nil {
			num, rest := m[1], m[2]
			if num == "" {
				num, rest = m[3], m[4]
			}
			count, _ = strconv.Atoi(num)
			cardName = strings.TrimSpace(rest)
		} else if text[0] >= '0' && text[0] <= '9' {
			bad(n, "%q is not a card line (want \"N Card Name\")", text)
			continue
		}
		if count <= 0 {
			bad(n, "a count of %d copies", count)
			continue
		}
		if section == "" {
			bad(n, "%q comes before any Avatar, Atlas or Spellbook header", text)
			continue
		}
		if section == otherSection {
			continue
		}
		card, err := cat.Lookup(cardName)
		if err != nil {
			bad(n, "%v", err)
			continue
		}
		d.Entries = append(d.Entries, DeckEntry{Line: n, Count: count, Card: card, Section: section})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return d, nil
}

// deckHeader recognises a section header such as "Atlas", "SPELLBOOK:" or "Atlas (30)".
func deckHeader(text string) (DeckSection, bool) {
	t := strings.ToLower(strings.TrimSpace(text))
	if i := strings.IndexAny(t, "(["); i > 0 {
		t = strings.TrimSpace(t[:i])
	}
	t = strings.TrimSpace(strings.TrimSuffix(t, ":"))
	switch t {
	case "avatar", "avatars":
		return AvatarSection, true
	case "atlas", "sites":
		return AtlasSection, true
	case "spellbook", "spells":
		return SpellbookSection, true
	case "sideboard", "maybeboard", "collection", "considering":
		return otherSection, true
	}
	return "", false
}

// deckRules is what the deck's Avatar's text changes in the deck-building
// rules; the card's text takes precedence over the rulebook (Cards).
type deckRules struct {
	avatar string
	// noAtlas: "You have no atlas, but your spellbook may contain sites"
	// (Magician).
	noAtlas bool
	// uniqueAtlas: "Your atlas can't contain duplicates" (Pathfinder).
	uniqueAtlas bool
}

// deckRulesOf reads the deck-building rules the deck's Avatar's text sets.
func deckRulesOf(d *Deck) deckRules {
	var r deckRules
	for _, e := range d.Entries {
		if e.Section != AvatarSection || e.Card.Type != models.Avatar {
			continue
		}
		text := lowerText(e.Card)
		r.avatar = e.Card.Name
		r.noAtlas = strings.Contains(text, "you have no atlas, but your spellbook may contain sites")
		r.uniqueAtlas = strings.Contains(text, "your atlas can't contain duplicates")
		break
	}
	return r
}

// CheckDeck lists why a deck is not legal (nothing when it is): exactly one
// Avatar; an atlas of at least 30 sites and nothing else; a spellbook of at
// least 60 spells and no sites or Avatars; no tokens; and no more copies of a
// card, across the whole deck, than its rarity allows (Ordinary 4, Exceptional
// 3, Elite 2, Unique 1; the Avatar does not count). An Avatar whose text says
// so changes these: "You have no atlas, but your spellbook may contain sites"
// (no atlas; sites in the spellbook, beside its 60 spells), "Your atlas can't
// contain duplicates" (one copy of each site).
func CheckDeck(d *Deck) []DeckProblem {
	var ps []DeckProblem
	add := func(line int, format string, args ...any) {
		ps = append(ps, DeckProblem{Line: line, Message: fmt.Sprintf(format, args...)})
	}
	dr := deckRulesOf(d)
	if n := d.Count(AvatarSection); n != 1 {
		add(d.Headers[AvatarSection], "the deck has %d Avatars; a deck includes exactly one Avatar", n)
	}
	if n := d.Count(AtlasSection); dr.noAtlas && n > 0 {
		add(d.Headers[AtlasSection], "the atlas has %d sites, but %s has no atlas (its sites go in the spellbook)", n, dr.avatar)
	} else if n < MinAtlas && !dr.noAtlas {
		add(d.Headers[AtlasSection], "the atlas has %d sites; it needs at least %d", n, MinAtlas)
	}
	if n := d.Count(SpellbookSection); n < MinSpellbook {
		add(d.Headers[SpellbookSection], "the spellbook has %d spells; it needs at least %d", n, MinSpellbook)
	}
	type tally struct {
		total int
		lines []int
		over  int // line where the total first went over
	}
	copies := map[*models.Card]*tally{}
	var order []*models.Card
	for _, e := range d.Entries {
		c := e.Card
		kind := strings.ToLower(string(c.Type))
		switch {
		case c.Token:
			add(e.Line, "%s is a token; tokens are never part of a deck", c.Name)
			continue
		case e.Section == AvatarSection && c.Type != models.Avatar:
			add(e.Line, "%s is a %s, not an Avatar", c.Name, kind)
		case e.Section == AtlasSection && c.Type != models.Site:
			add(e.Line, "%s is a %s; the atlas holds only sites", c.Name, kind)
		case e.Section == SpellbookSection && !c.Type.IsSpell() && !(dr.noAtlas && c.Type == models.Site):
			add(e.Line, "%s is a %s; the spellbook holds only spells", c.Name, kind)
		}
		if c.Type == models.Avatar {
			continue // the Avatar is not part of either deck
		}
		t, ok := copies[c]
		if !ok {
			t = &tally{}
			copies[c] = t
			order = append(order, c)
		}
		t.total += e.Count
		t.lines = append(t.lines, e.Line)
		if limit := copyLimit(c, e.Section, dr); limit > 0 && t.total > limit && t.over == 0 {
			t.over = e.Line
		}
	}
	for _, c := range order {
		t := copies[c]
		if t.over == 0 {
			continue
		}
		where := ""
		if len(t.lines) > 1 {
			ls := make([]string, len(t.lines))
			for i, l := range t.lines {
				ls[i] = strconv.Itoa(l)
			}
			where = " (lines " + strings.Join(ls, ", ") + ")"
		}
		if dr.uniqueAtlas && c.Type == models.Site && c.Rarity.MaxCopies() > 1 {
			add(t.over, "%d copies of %s%s; %s's atlas can't contain duplicates", t.total, c.Name, where, dr.avatar)
			continue
		}
		add(t.over, "%d copies of %s%s; %s cards are limited to %d per deck", t.total, c.Name, where, c.Rarity, c.Rarity.MaxCopies())
	}
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].Line < ps[j].Line })
	return ps
}

// copyLimit is how many copies of c a deck may hold: its rarity's limit, or
// one of a site in the atlas of an Avatar whose atlas can't contain duplicates.
func copyLimit(c *models.Card, section DeckSection, dr deckRules) int {
	if dr.uniqueAtlas && c.Type == models.Site && section == AtlasSection {
		return 1
	}
	return c.Rarity.MaxCopies()
}
