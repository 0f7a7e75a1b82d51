package models

import (
	"sort"
	"strconv"
	"strings"
)

// Search finds the cards matching text, best first: cards whose name holds
// the text, then those whose type or subtypes hold it, then those whose
// rules text does. Every word of text must match somewhere in the card;
// "double quotes" keep words together as a phrase. Words of the form
// field:value filter instead:
//
//	type:minion  rarity:elite  element:fire  subtype:beast  keyword:airborne
//	set:alpha  cost:3  cost<=2  cost>4  (also attack, defence, life)
//	is:token  is:water (a water site)
//
// Matching ignores case, punctuation and accents.
func (c *Catalog) Search(text string) []*Card {
	terms, filters := parseSearch(text)
	if len(terms) == 0 && len(filters) == 0 {
		return nil
	}
	c.searchOnce.Do(c.buildSearchText)
	type hit struct {
		card *Card
		rank int
		i    int
	}
	var hits []hit
	for i, card := range c.cards {
		if !matchesAll(card, filters) {
			continue
		}
		rank, ok := termRank(c.names[i], c.searchText[i], terms)
		if !ok {
			continue
		}
		hits = append(hits, hit{card, rank, i})
	}
	sort.SliceStable(hits, func(a, b int) bool {
		if hits[a].rank != hits[b].rank {
			return hits[a].rank < hits[b].rank
		}
		return hits[a].card.Name < hits[b].card.Name
	})
	out := make([]*Card, len(hits))
	for i, h := range hits {
		out[i] = h.card
	}
	return out
}

// buildSearchText prepares, per card, the normalized words search looks in.
func (c *Catalog) buildSearchText() {
	c.searchText = make([]string, len(c.cards))
	for i, card := range c.cards {
		c.searchText[i] = " " + NormalizeName(string(card.Type)+" "+strings.Join(card.Subtypes, " ")) + " | " +
			NormalizeName(card.RulesText) + " "
	}
}

// termRank tells whether every term is in the card and how well it matches:
// 0 the name is the text, 1 the name holds every term, 2 every term is in the
// name, type or subtypes, 3 some term is only in the rules text.
func termRank(name, text string, terms []string) (int, bool) {
	if len(terms) == 0 {
		return 1, true
	}
	typeLine, _, _ := strings.Cut(text, " | ")
	rank := 0
	if name != strings.Join(terms, " ") {
		rank = 1
	}
	for _, t := range terms {
		switch {
		case strings.Contains(name, t):
		case strings.Contains(typeLine, t):
			rank = max(rank, 2)
		case strings.Contains(text, t):
			rank = 3
		default:
			return 0, false
		}
	}
	return rank, true
}

// searchFilter is one field:value term of a search.
type searchFilter struct {
	field, op, value string
}

// parseSearch splits search text into normalized terms and filters.
func parseSearch(text string) (terms []string, filters []searchFilter) {
	for _, word := range splitQuoted(text) {
		if f, ok := parseFilter(word); ok {
			filters = append(filters, f)
			continue
		}
		if t := NormalizeName(word); t != "" {
			terms = append(terms, t)
		}
	}
	return terms, filters
}

// splitQuoted splits on spaces, keeping "quoted phrases" whole.
func splitQuoted(s string) []string {
	var out []string
	for {
		s = strings.TrimSpace(s)
		if s == "" {
			return out
		}
		if s[0] == '"' {
			end := strings.IndexByte(s[1:], '"')
			if end < 0 {
				out = append(out, s[1:])
				return out
			}
			out = append(out, s[1:end+1])
			s = s[end+2:]
			continue
		}
		end := strings.IndexAny(s, " \t")
		if end < 0 {
			return append(out, s)
		}
		out = append(out, s[:end])
		s = s[end:]
	}
}

var searchFields = map[string]bool{
	"type": true, "rarity": true, "element": true, "subtype": true, "keyword": true, "set": true,
	"cost": true, "attack": true, "defence": true, "defense": true, "life": true, "is": true,
}

// parseFilter reads "field:value", "cost<=3", "cost>4", "cost=2".
func parseFilter(word string) (searchFilter, bool) {
	for _, op := range []string{"<=", ">=", ":", "=", "<", ">"} {
		field, value, ok := strings.Cut(word, op)
		if !ok || value == "" {
			continue
		}
		field = strings.ToLower(field)
		if !searchFields[field] {
			return searchFilter{}, false
		}
		if op == ":" {
			op = "="
		}
		return searchFilter{field, op, value}, true
	}
	return searchFilter{}, false
}

func matchesAll(card *Card, filters []searchFilter) bool {
	for _, f := range filters {
		if !f.matches(card) {
			return false
		}
	}
	return true
}

func (f searchFilter) matches(card *Card) bool {
	same := func(s string) bool { return NormalizeName(s) == NormalizeName(f.value) }
	anyOf := func(items []string) bool {
		for _, s := range items {
			if same(s) {
				return true
			}
		}
		return false
	}
	switch f.field {
	case "type":
		return same(string(card.Type))
	case "rarity":
		return same(string(card.Rarity))
	case "element":
		return anyOf(card.ElementNames())
	case "subtype":
		return anyOf(card.Subtypes)
	case "set":
		return anyOf(card.Sets)
	case "keyword":
		for _, k := range card.Keywords {
			if same(string(k)) {
				return true
			}
		}
		return false
	case "is":
		switch NormalizeName(f.value) {
		case "token":
			return card.Token
		case "water":
			return card.IsWaterSite()
		case "land":
			return card.Type == Site && !card.IsWaterSite()
		}
		return false
	}
	var n *int
	switch f.field {
	case "cost":
		n = card.Cost
	case "attack":
		n = card.Attack
	case "defence", "defense":
		n = card.Defence
	case "life":
		n = card.Life
	}
	want, err := strconv.Atoi(f.value)
	if n == nil || err != nil {
		return false
	}
	switch f.op {
	case "<":
		return *n < want
	case "<=":
		return *n <= want
	case ">":
		return *n > want
	case ">=":
		return *n >= want
	}
	return *n == want
}
