package rules

import (
	"regexp"
	"strings"

	"github.com/tablecam/tablecam/models"
)

// provision is what a card's own text says it provides, beyond the rulebook's
// defaults ("At the start of your turn, all of your sites provide one mana
// each"; a site's threshold symbols add to your affinity). Only unconditional
// sentences are read; anything that depends on the game (nearby units, "this
// turn", "while in the void") is left to the players.
type provision struct {
	// threshold also holds what an Avatar's text gives its player ("You
	// have an additional (E)(F)(W)(A)", Elementalist).
	//
	// mana and threshold: what a minion or artifact provides its controller
	// turn after turn ("Provides (F)", "Provides (A) and ① to its
	// controller", "Älvalinne Dryads provide ①"), as the rulebook allows:
	// "Other card types might also provide mana turn-after-turn in a manner
	// similar to sites".
	mana      int
	threshold models.Thresholds
	// noMana: a site that "Provides no mana" (Rubble, Wedding Hall).
	noMana bool
	// backRowOnly: a site that "Only provides mana and threshold while in
	// your back row" (Tintagel, Joyous Garde…).
	backRowOnly bool
	// gatedMana is what a site provides instead of one mana while its
	// controller's affinity meets gate: "(A) — Provides (2) instead" (City
	// of Glass). The "(A) —" that opens a site's ability is the threshold the
	// ability needs, as in "(E)(E)(E) — All minions have Burrowing".
	gatedMana int
	gate      models.Thresholds
	// unlessEmpty: "Provides no mana or threshold unless completely empty"
	// (Pristine Paradise): nothing while any card stands atop or under it.
	unlessEmpty bool
	// nearVoidOnly: "Provides no mana or threshold if not adjacent to the
	// void" (The Colour Out of Space).
	nearVoidOnly bool
	// everyone: "Provides mana and threshold for everyone" (Avalon).
	everyone bool
}

var (
	// providesPattern matches a whole sentence "[Name] provide(s) SYMBOLS[ to its controller]".
	providesPattern = regexp.MustCompile(`(?i)^(?:[\p{L}'’ -]+ )?provides? ((?:\([AEFW]\)|\(\d\)|[①②③④⑤]|\s|and)+?)(?: to its controller)?\.?$`)
	provideSymbol   = regexp.MustCompile(`\(([AEFW1-9])\)|([①②③④⑤])`)
	// insteadPattern matches "(A) — Provides (2) instead".
	insteadPattern = regexp.MustCompile(`^((?:\([AEFW]\))+)\s*[—–-]\s*[Pp]rovides (?:\((\d)\)|([①②③④⑤])) instead\b`)
	// additionalPattern matches an Avatar's whole sentence "You have an
	// additional (E)(F)(W)(A)." (Elementalist).
	additionalPattern = regexp.MustCompile(`(?i)^you have an additional ((?:\([AEFW]\)\s*)+)\.?$`)
)

// provisionOf reads what card c provides from its rules text.
func provisionOf(c *models.Card) provision {
	var pr provision
	if c == nil || c.RulesText == "" {
		return pr
	}
	for _, line := range strings.Split(c.RulesText, "\n") {
		for _, sentence := range strings.SplitAfter(strings.TrimSpace(line), ". ") {
			sentence = strings.TrimSpace(sentence)
			lower := strings.ToLower(sentence)
			switch {
			case c.Type == models.Site && (lower == "provides no mana." || strings.HasPrefix(lower, "provides no mana,")):
				pr.noMana = true
			case c.Type == models.Site && strings.HasPrefix(lower, "only provides mana and threshold while in your back row"):
				pr.backRowOnly = true
			case c.Type == models.Site && strings.HasPrefix(lower, "provides no mana or threshold unless completely empty"):
				pr.unlessEmpty = true
			case c.Type == models.Site && strings.HasPrefix(lower, "provides no mana or threshold if not adjacent to the void"):
				pr.nearVoidOnly = true
			case c.Type == models.Site && strings.HasPrefix(lower, "provides mana and threshold for everyone"):
				pr.everyone = true
			case c.Type == models.Site && insteadPattern.MatchString(sentence):
				m := insteadPattern.FindStringSubmatch(sentence)
				pr.gatedMana = manaSymbol(m[2] + m[3])
				pr.gate = thresholdSymbols(m[1])
			case c.Type == models.Avatar:
				if m := additionalPattern.FindStringSubmatch(sentence); m != nil {
					pr.threshold = pr.threshold.Add(thresholdSymbols(m[1]))
				}
			case c.Type != models.Site:
				m := providesPattern.FindStringSubmatch(sentence)
				if m == nil {
					continue
				}
				pr.threshold = pr.threshold.Add(thresholdSymbols(m[1]))
				for _, sym := range provideSymbol.FindAllStringSubmatch(m[1], -1) {
					if s := sym[1] + sym[2]; !strings.Contains("AEFW", s) {
						pr.mana += manaSymbol(s)
					}
				}
			}
		}
	}
	return pr
}

// thresholdSymbols counts the "(A)", "(E)", "(F)" and "(W)" of text.
func thresholdSymbols(text string) models.Thresholds {
	var t models.Thresholds
	for _, sym := range provideSymbol.FindAllStringSubmatch(text, -1) {
		switch sym[1] {
		case "A":
			t.Air++
		case "E":
			t.Earth++
		case "F":
			t.Fire++
		case "W":
			t.Water++
		}
	}
	return t
}

// manaSymbol reads "1"…"9" or "①"…"⑤".
func manaSymbol(s string) int {
	if len(s) == 1 && s[0] >= '1' && s[0] <= '9' {
		return int(s[0] - '0')
	}
	return strings.Index("①②③④⑤", s)/len("①") + 1
}

// backRow is a player's back row: the row nearest them, where their Avatar starts.
func backRow(p models.Player) int { return homeCell(p).Row }

// siteThreshold reports whether the site at cell c adds its threshold
// symbols to its controller's affinity now (and to everyone's, for a site
// that provides for everyone).
func (g *Game) siteThreshold(c models.Cell, s *site) bool {
	if s == nil || s.rubble() {
		return false
	}
	pr := g.provisionOf(s.card)
	switch {
	case pr.backRowOnly && c.Row != backRow(s.controller):
		return false
	case pr.unlessEmpty && len(g.board.at(c).units) > 0:
		return false
	case pr.nearVoidOnly:
		for _, n := range c.Neighbors() {
			if g.board.void(n) {
				return true
			}
		}
		return false
	}
	return true
}

// providesTo reports whether site s provides for player p: its controller,
// or anyone when it provides for everyone.
func (g *Game) providesTo(s *site, p models.Player) bool {
	return s != nil && !s.rubble() && (s.controller == p || g.provisionOf(s.card).everyone)
}

// siteMana gives the mana the site at cell c provides now: one, none for a
// site that "Provides no mana" or a back-row site out of its back row, or
// what it provides instead while its controller meets its ability's threshold.
func (g *Game) siteMana(c models.Cell, s *site) int {
	if !g.siteThreshold(c, s) {
		return 0
	}
	pr := g.provisionOf(s.card)
	switch {
	case pr.noMana:
		return 0
	case pr.gatedMana > 0 && g.affinity(s.controller).Meets(pr.gate):
		return pr.gatedMana
	}
	return 1
}

// provisionOf caches provisionOf by card, since it reads rules text.
func (g *Game) provisionOf(c *models.Card) provision {
	if pr, ok := g.provisions[c]; ok {
		return pr
	}
	pr := provisionOf(c)
	if g.provisions == nil {
		g.provisions = map[*models.Card]provision{}
	}
	g.provisions[c] = pr
	return pr
}

// manaProvided gives the mana p's sites and other cards provide at the start
// of p's turn.
func (g *Game) manaProvided(p models.Player) int {
	n := 0
	for _, c := range models.AllCells() {
		sq := g.board.at(c)
		if g.providesTo(sq.site, p) {
			n += g.siteMana(c, sq.site)
		}
		for _, u := range sq.units {
			if u.owner == p && !u.avatar {
				n += g.provisionOf(u.card).mana
			}
		}
	}
	return n
}
