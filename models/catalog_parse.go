package models

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"sync"
)

// rawCard is one card in either shape.
type rawCard struct {
	Name      string        `json:"name"`
	Slug      string        `json:"slug"`
	Guardian  *rawStats     `json:"guardian"`
	Engine    *rawStats     `json:"engine"`
	Elements  textList      `json:"elements"`
	SubTypes  textList      `json:"subTypes"` // also matches "subtypes": json matches keys regardless of case
	Sets      []rawSet      `json:"sets"`
	Printings []rawPrinting `json:"printings"`
}

// rawStats is the "guardian" object of the older shape or the "engine"
// object of the newer one.
type rawStats struct {
	Type       string      `json:"type"`
	Rarity     *string     `json:"rarity"`
	RulesText  string      `json:"rulesText"`
	Rules      string      `json:"rules"`
	Cost       *int        `json:"cost"`
	Attack     *int        `json:"attack"`
	Defence    *int        `json:"defence"`
	Defense    *int        `json:"defense"`
	Power      *int        `json:"power"`
	Life       *int        `json:"life"`
	Thresholds *Thresholds `json:"thresholds"`
	Threshold  string      `json:"threshold"`
	Air        *int        `json:"air"`
	Earth      *int        `json:"earth"`
	Fire       *int        `json:"fire"`
	Water      *int        `json:"water"`
	Elements   textList    `json:"elements"`
	SubTypes   textList    `json:"subTypes"`
}

type rawSet struct {
	Name     string `json:"name"`
	Variants []struct {
		Slug string `json:"slug"`
	} `json:"variants"`
}

// rawPrinting is a printing of the newer shape: a slug, or an object with one.
type rawPrinting struct {
	Slug string
	Set  string
}

func (p *rawPrinting) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &p.Slug)
	}
	if len(b) > 0 && b[0] == '{' {
		var obj struct {
			Slug string `json:"slug"`
			Set  string `json:"set"`
		}
		if err := json.Unmarshal(b, &obj); err != nil {
			return err
		}
		p.Slug, p.Set = obj.Slug, obj.Set
		return nil
	}
	if string(b) == "null" {
		return nil
	}
	return &json.UnmarshalTypeError{Value: jsonKind(b), Type: reflect.TypeFor[rawPrinting]()}
}

// textList is a list of words given either as "Fire, Water" or as
// ["Fire", "Water"]. "None" and empty entries are dropped.
type textList []string

func (l *textList) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	var items []string
	switch {
	case string(b) == "null":
		return nil
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		// "Beast, Spirit" in the public list; "Beast Token" in some
		// hand-made lists. No subtype or element has two words.
		items = strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
	case len(b) > 0 && b[0] == '[':
		if err := json.Unmarshal(b, &items); err != nil {
			return &json.UnmarshalTypeError{Value: "list holding a non-string", Type: reflect.TypeFor[textList]()}
		}
	default:
		return &json.UnmarshalTypeError{Value: jsonKind(b), Type: reflect.TypeFor[textList]()}
	}
	out := (*l)[:0]
	for _, it := range items {
		it = strings.TrimSpace(it)
		if it == "" || strings.EqualFold(it, "none") {
			continue
		}
		out = append(out, it)
	}
	*l = out
	return nil
}

// jsonKind names the kind of a JSON value as the json package does.
func jsonKind(b []byte) string {
	if len(b) == 0 {
		return "nothing"
	}
	switch b[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	}
	return "number " + string(b)
}

// ParseCards reads a card list. The public Sorcery card list has come in two
// shapes, and ParseCards reads both, deciding card by card.
//
// The older shape keeps the card's numbers under "guardian":
//
//	{"name": "Arid Desert", "slug": "arid_desert",
//	 "guardian": {"type": "Site", "rarity": "Ordinary", "rulesText": "…",
//	              "cost": null, "attack": null, "defence": null, "life": null,
//	              "thresholds": {"air": 0, "earth": 0, "fire": 1, "water": 0}},
//	 "elements": "Fire", "subTypes": "Desert",
//	 "sets": [{"name": "Alpha", "variants": [{"slug": "alp-arid_desert-b-s"}]}]}
//
// The newer shape keeps them under "engine", spells "defense", calls the
// rules text "rules", gives elements and subtypes as lists, flattens the
// thresholds into the engine object, and lists printings directly:
//
//	{"name": "Arid Desert", "slug": "arid_desert",
//	 "engine": {"type": "Site", "rarity": "Ordinary", "rules": "…",
//	            "cost": null, "attack": null, "defense": null, "life": null,
//	            "air": 0, "earth": 0, "fire": 1, "water": 0},
//	 "elements": ["Fire"], "subtypes": ["Desert"],
//	 "printings": [{"slug": "alp-arid_desert-b-s", "set": "Alpha"}]}
//
// Within either shape ParseCards also accepts: a "thresholds" object or a
// "threshold" string of element letters ("AWW" or "(A)(W)(W)") in place of
// the flat counts; "power" for a unit whose attack and defence are equal;
// printings given as bare slug strings; elements and subtypes given as a
// comma-separated string or as a list; and the whole list wrapped in an
// object as {"cards": […]} or {"data": […]}.
//
// The public list does not mark tokens, so besides a "Token" subtype a card
// is a token when other cards summon it as one ("summon a Frog token" marks
// Frog and Frog (Blue)), and Rubble is one. Keywords come from the rules text
// (FindKeywords). A problem is reported as a *CatalogError with its line,
// column and card.
func ParseCards(data []byte) ([]*Card, error) {
	spans, ok := splitList(data)
	if !ok {
		// Not a plain list, or broken between cards: the careful way reads
		// wrapped lists and finds the exact place of the problem.
		return parseCardsCarefully(data)
	}
	cards := make([]*Card, len(spans))
	errs := make([]error, len(spans))
	offs := make([]int64, len(spans))
	// The cards are independent, so they are decoded on every core.
	workers := min(runtime.GOMAXPROCS(0), max(1, len(spans)/64))
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := w*len(spans)/workers, (w+1)*len(spans)/workers
		wg.Go(func() {
			for i := lo; i < hi; i++ {
				cards[i], offs[i], errs[i] = parseCard(data[spans[i].start:spans[i].end])
			}
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			raw := data[spans[i].start:spans[i].end]
			off := int64(spans[i].start) + offs[i]
			line, col := lineColumn(data, off)
			return nil, &CatalogError{Line: line, Column: col, Offset: off, Card: i + 1, Name: cardName(raw), Err: err}
		}
	}
	markTokens(cards)
	return cards, nil
}

// span is where one card's JSON lies in the card list.
type span struct{ start, end int }

// splitList finds the elements of a top-level JSON array by following
// brackets and strings, without decoding them. It reports false when data
// is not a plain array or its brackets do not close; the careful parse then
// explains the problem.
func splitList(data []byte) ([]span, bool) {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '[' {
		return nil, false
	}
	i = skipSpace(data, i+1)
	spans := make([]span, 0, len(data)/1024+1)
	if i < len(data) && data[i] == ']' {
		return spans, skipSpace(data, i+1) == len(data)
	}
	for i < len(data) {
		start, depth, inString := i, 0, false
	scan:
		for ; i < len(data); i++ {
			c := data[i]
			if inString {
				// Jump to the closing quote: most of a card list is strings.
				j := stringEnd(data, i)
				if j < 0 {
					return nil, false
				}
				i, inString = j, false
				continue
			}
			switch c {
			case '"':
				inString = true
			case '{', '[':
				depth++
			case '}', ']':
				if depth == 0 {
					break scan
				}
				depth--
				if depth == 0 {
					// A whole value: a comma or the list's end must follow.
					if j := skipSpace(data, i+1); j < len(data) && data[j] != ',' && data[j] != ']' {
						return nil, false
					}
				}
			case ',':
				if depth == 0 {
					break scan
				}
			}
		}
		if i >= len(data) || depth != 0 {
			return nil, false
		}
		end := i
		for end > start && isSpace(data[end-1]) {
			end--
		}
		if end == start {
			return nil, false
		}
		spans = append(spans, span{start, end})
		if data[i] == ']' {
			return spans, skipSpace(data, i+1) == len(data)
		}
		i = skipSpace(data, i+1) // past the comma
	}
	return nil, false
}

// stringEnd finds the quote that closes the JSON string whose text starts at
// i, or -1.
func stringEnd(data []byte, i int) int {
	for {
		j := bytes.IndexByte(data[i:], '"')
		if j < 0 {
			return -1
		}
		j += i
		// The quote is escaped when an odd number of backslashes precede it.
		k := j
		for k > i && data[k-1] == '\\' {
			k--
		}
		if (j-k)%2 == 0 {
			return j
		}
		i = j + 1
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipSpace(data []byte, i int) int {
	for i < len(data) && isSpace(data[i]) {
		i++
	}
	return i
}

// parseCardsCarefully decodes the list card by card, keeping each card's
// place in the file to report a problem's line and column.
func parseCardsCarefully(data []byte) ([]*Card, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	fail := func(err error) error {
		fallback := dec.InputOffset()
		var pe *placedError
		if errors.As(err, &pe) {
			fallback, err = pe.off, pe.err
		}
		off, err := syntaxError(data, err, fallback)
		line, col := lineColumn(data, off)
		return &CatalogError{Line: line, Column: col, Offset: off, Err: err}
	}
	if err := openCardList(dec, data); err != nil {
		return nil, fail(err)
	}
	cards := make([]*Card, 0, bytes.Count(data, []byte(`"name"`)))
	for dec.More() {
		start := skipSeparators(data, dec.InputOffset())
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, fail(err)
		}
		n := len(cards) + 1
		card, relOff, err := parseCard(raw)
		if err != nil {
			off := start + relOff
			line, col := lineColumn(data, off)
			return nil, &CatalogError{Line: line, Column: col, Offset: off, Card: n, Name: cardName(raw), Err: err}
		}
		cards = append(cards, card)
	}
	if _, err := dec.Token(); err != nil {
		return nil, fail(err)
	}
	markTokens(cards)
	return cards, nil
}

// openCardList reads up to the '[' that opens the list of cards: the first
// token, or the value of "cards" or "data" in a top-level object.
func openCardList(dec *json.Decoder, data []byte) error {
	start := skipSeparators(data, dec.InputOffset())
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok == json.Delim('[') {
		return nil
	}
	if tok != json.Delim('{') {
		return &placedError{start, fmt.Errorf("want a list of cards, found %s", tokenName(tok))}
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return err
		}
		if k, _ := key.(string); k == "cards" || k == "data" {
			start := skipSeparators(data, dec.InputOffset())
			if start < int64(len(data)) && data[start] == ':' {
				start = skipSeparators(data, start+1)
			}
			tok, err := dec.Token()
			if err != nil {
				return err
			}
			if tok != json.Delim('[') {
				return &placedError{start, fmt.Errorf("%q holds %s, want a list of cards", k, tokenName(tok))}
			}
			return nil
		}
		if err := dec.Decode(new(json.RawMessage)); err != nil {
			return err
		}
	}
	return errors.New(`want a list of cards, or an object with a "cards" list`)
}

// placedError is an error with the offset it is about.
type placedError struct {
	off int64
	err error
}

func (e *placedError) Error() string { return e.err.Error() }

// tokenName says what a JSON token is: "a string", "an object"…
func tokenName(tok json.Token) string {
	switch v := tok.(type) {
	case json.Delim:
		if v == '{' {
			return "an object"
		}
		return "a list"
	case string:
		return fmt.Sprintf("the string %q", v)
	case float64, json.Number:
		return fmt.Sprintf("the number %v", v)
	case bool:
		return fmt.Sprintf("%v", v)
	}
	return "null"
}

// skipSeparators moves off past the white space and comma before a value.
func skipSeparators(data []byte, off int64) int64 {
	for off < int64(len(data)) {
		switch data[off] {
		case ' ', '\t', '\r', '\n', ',':
			off++
		default:
			return off
		}
	}
	return off
}

// cardName reads just the name of a card that failed to parse, for the error.
func cardName(raw []byte) string {
	var c struct {
		Name any `json:"name"`
	}
	_ = json.Unmarshal(raw, &c) // best effort: the error is reported anyway
	if s, ok := c.Name.(string); ok {
		return s
	}
	return ""
}

// parseCard converts one card's JSON. On error it also gives the byte offset
// of the problem within raw.
func parseCard(raw []byte) (*Card, int64, error) {
	var r rawCard
	if err := json.Unmarshal(raw, &r); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, syntaxOffset(raw, se), err
		}
		off, err := describeCardError(raw, err)
		return nil, off, err
	}
	card, err := r.card()
	if err != nil {
		var fe *fieldError
		if errors.As(err, &fe) && fe.key != "" {
			return nil, keyOffset(raw, fe.key), err
		}
		return nil, 0, err
	}
	return card, 0, nil
}

// card converts a decoded card. Errors about one field are *fieldError
// carrying the field's key, so that the careful parse can point at it.
func (r *rawCard) card() (*Card, error) {
	if strings.TrimSpace(r.Name) == "" {
		return nil, errors.New(`has no "name"`)
	}
	stats := r.Guardian
	switch {
	case r.Guardian != nil && r.Engine != nil:
		return nil, &fieldError{key: "engine", msg: `has both "guardian" and "engine"; want one`}
	case r.Engine != nil:
		stats = r.Engine
	case r.Guardian == nil:
		return nil, errors.New(`has neither "guardian" (older API shape) nor "engine" (newer shape)`)
	}
	card := &Card{
		Name: r.Name, Slug: r.Slug, Type: CardType(stats.Type),
		Cost: stats.Cost, Attack: stats.Attack, Defence: firstInt(stats.Defence, stats.Defense), Life: stats.Life,
		RulesText: stats.RulesText,
	}
	if card.Slug == "" {
		card.Slug = slugFromName(r.Name)
	}
	if stats.Rules != "" && card.RulesText == "" {
		card.RulesText = stats.Rules
	}
	if stats.Power != nil {
		if card.Attack == nil {
			card.Attack = stats.Power
		}
		if card.Defence == nil {
			card.Defence = stats.Power
		}
	}
	if stats.Rarity != nil {
		card.Rarity = Rarity(*stats.Rarity)
	}
	th, err := stats.thresholds()
	if err != nil {
		return nil, &fieldError{key: "threshold", msg: err.Error(), err: err}
	}
	card.Thresholds = th
	for _, n := range []*int{card.Cost, card.Attack, card.Defence, card.Life} {
		if n != nil && *n < 0 {
			return nil, fmt.Errorf("has a negative number (%d)", *n)
		}
	}

	elements := r.Elements
	if len(elements) == 0 {
		elements = stats.Elements
	}
	for _, e := range elements {
		el, err := ParseElement(e)
		if err != nil {
			return nil, &fieldError{key: "elements", msg: err.Error(), err: err}
		}
		card.Elements = append(card.Elements, el)
	}
	sort.Slice(card.Elements, func(i, j int) bool { return card.Elements[i] < card.Elements[j] })
	subtypes := r.SubTypes
	if len(subtypes) == 0 {
		subtypes = stats.SubTypes
	}
	for _, s := range subtypes {
		card.Subtypes = append(card.Subtypes, s)
		if strings.EqualFold(s, "token") || strings.HasSuffix(strings.ToLower(s), " token") {
			card.Token = true
		}
	}
	for _, set := range r.Sets {
		card.addSet(set.Name)
		for _, v := range set.Variants {
			card.addPrinting(v.Slug)
		}
	}
	for _, p := range r.Printings {
		card.addSet(p.Set)
		card.addPrinting(p.Slug)
	}
	card.Keywords, card.MovementBonus = FindKeywords(card.RulesText)
	return card, nil
}

func (c *Card) addSet(name string) {
	if name == "" {
		return
	}
	for _, s := range c.Sets {
		if s == name {
			return
		}
	}
	c.Sets = append(c.Sets, name)
}

func (c *Card) addPrinting(slug string) {
	if slug != "" {
		c.Printings = append(c.Printings, slug)
	}
}

// thresholds reads the threshold in whichever form the card gives it.
func (s *rawStats) thresholds() (Thresholds, error) {
	var t Thresholds
	if s.Thresholds != nil {
		t = *s.Thresholds
	}
	for _, f := range []struct {
		n *int
		e Element
	}{{s.Air, Air}, {s.Earth, Earth}, {s.Fire, Fire}, {s.Water, Water}} {
		if f.n != nil {
			t = t.With(f.e, *f.n)
		}
	}
	if s.Threshold != "" {
		for _, r := range s.Threshold {
			switch r {
			case 'A', 'a':
				t.Air++
			case 'E', 'e':
				t.Earth++
			case 'F', 'f':
				t.Fire++
			case 'W', 'w':
				t.Water++
			case '(', ')', ' ', ',':
			default:
				return t, fmt.Errorf("threshold %q: want letters A, E, F and W", s.Threshold)
			}
		}
	}
	for _, e := range Elements {
		if t.Get(e) < 0 {
			return t, fmt.Errorf("threshold has %d %s, want 0 or more", t.Get(e), e)
		}
	}
	return t, nil
}

func firstInt(ns ...*int) *int {
	for _, n := range ns {
		if n != nil {
			return n
		}
	}
	return nil
}

// keyOffset finds where a key first appears in a card's JSON (0 if nowhere),
// to point an error at the field it is about.
func keyOffset(raw []byte, key string) int64 {
	if i := bytes.Index(raw, []byte(`"`+key)); i >= 0 {
		return int64(i)
	}
	return 0
}

// slugFromName makes a slug the way the public API does: "Arid Desert" →
// "arid_desert".
func slugFromName(name string) string {
	return strings.ReplaceAll(NormalizeName(name), " ", "_")
}
