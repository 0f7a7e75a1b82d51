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
	// genesisThreshold and genesisMana: what a site's Genesis gives its
	// controller the turn it is played: "Genesis → Provides (A)(E)(F) this
	// turn" (Algae Bloom), "Genesis → Gain (1) this turn" (Ghost Town), and,
	// when genesisOnly is set, "Genesis → If this is the only Dark Tower you
	// control, gain ① this turn" (genesisOnly is "dark tower").
	genesisThreshold models.Thresholds
	genesisMana      int
	genesisOnly      string
	// opponentMana: what a site also provides its controller's opponent
	// while its gate is met: "(W) — Provides (2) instead but also provides
	// (1) for your opponent" (City of Plenty).
	opponentMana int

	// voidOnly: the mana of a minion or artifact is provided only while it
	// is in the void: "Provides (3) while in the void" (Ether Core).
	voidOnly bool
	// perEnemyAvatar: mana a minion provides for each nearby enemy Avatar:
	// "Provides (2) for each nearby enemy Avatar" (Finwife; FAQ: "when it
	// enters the realm and at the start of each of your turns").
	perEnemyAvatar int

	// What a card standing on a site does to that site:
	// siteMana and siteThreshold: "This site provides an additional (1) and
	// (E)(F)(W)(A)" (Shrine of the Dragonlord), for the site's controller.
	siteMana      int
	siteThreshold models.Thresholds
	// siteNoThreshold: "This site doesn't provide threshold" (Granary Rats).
	siteNoThreshold bool
	// siteStartMana: "Black Obelisk's site has “At the start of your turn,
	// lose 2 life and gain ② this turn.”": the site's controller gains it at
	// the start of their turn (FAQ: "it only matters who controls the site
	// that Black Obelisk occupies"; on Rubble it "will have no effect"). The
	// life is lost by a life_loss event, as any other.
	siteStartMana int
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
	// genesisPattern matches a site's "Genesis → Provides (A)(E)(F) this
	// turn.", "Genesis → Gain (1) this turn." and "Genesis → If this is the
	// only Dark Tower you control, gain ① this turn."
	genesisPattern = regexp.MustCompile(`(?i)^genesis\s*(?:→|->)\s*(?:if this is the only (.+?) you control, )?(?:provides|gain) ((?:\([AEFW1-9]\)|[①②③④⑤])+) this turn\.?$`)
	// opponentPattern matches "… but also provides (1) for your opponent" (City of Plenty).
	opponentPattern = regexp.MustCompile(`(?i)\bbut also provides (\(\d\)|[①②③④⑤]) for your opponent\b`)
	// voidOnlyPattern matches "Provides (3) while in the void." (Ether Core).
	voidOnlyPattern = regexp.MustCompile(`(?i)^provides (\(\d\)|[①②③④⑤]) while in the void\.?$`)
	// perEnemyAvatarPattern matches "Provides (2) for each nearby enemy Avatar." (Finwife).
	perEnemyAvatarPattern = regexp.MustCompile(`(?i)^provides (\(\d\)|[①②③④⑤]) for each nearby enemy avatar\.?$`)
	// siteAdditionalPattern matches "This site provides an additional (1) and
	// (E)(F)(W)(A)." (Shrine of the Dragonlord).
	siteAdditionalPattern = regexp.MustCompile(`(?i)^this site provides an additional ((?:\([AEFW1-9]\)|[①②③④⑤]|\s|and)+?)\.?$`)
	// siteNoThresholdPattern matches "This site doesn't provide threshold." (Granary Rats).
	siteNoThresholdPattern = regexp.MustCompile(`(?i)^this site (?:doesn['’]t|does not) provide threshold\.?$`)
	// siteStartPattern matches "Black Obelisk's site has “At the start of
	// your turn, lose 2 life and gain ② this turn.”".
	siteStartPattern = regexp.MustCompile(`(?i)\bsite has [“"]at the start of your turn, (?:lose \d+ life and )?gain (\(\d\)|[①②③④⑤]) this turn\.?[”"]\.?$`)
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
			case c.Type == models.Site && genesisPattern.MatchString(sentence):
				m := genesisPattern.FindStringSubmatch(sentence)
				pr.genesisOnly = strings.ToLower(m[1])
				pr.genesisThreshold = thresholdSymbols(m[2])
				pr.genesisMana = symbolMana(m[2])
			case c.Type == models.Site && insteadPattern.MatchString(sentence):
				m := insteadPattern.FindStringSubmatch(sentence)
				pr.gatedMana = manaSymbol(m[2] + m[3])
				pr.gate = thresholdSymbols(m[1])
				if o := opponentPattern.FindStringSubmatch(sentence); o != nil {
					pr.opponentMana = bracketedMana(o[1])
				}
			case c.Type == models.Avatar:
				if m := additionalPattern.FindStringSubmatch(sentence); m != nil {
					pr.threshold = pr.threshold.Add(thresholdSymbols(m[1]))
				}
			case c.Type != models.Site && voidOnlyPattern.MatchString(sentence):
				pr.voidOnly = true
				pr.mana = bracketedMana(voidOnlyPattern.FindStringSubmatch(sentence)[1])
			case c.Type != models.Site && perEnemyAvatarPattern.MatchString(sentence):
				pr.perEnemyAvatar = bracketedMana(perEnemyAvatarPattern.FindStringSubmatch(sentence)[1])
			case c.Type != models.Site && siteAdditionalPattern.MatchString(sentence):
				m := siteAdditionalPattern.FindStringSubmatch(sentence)
				pr.siteThreshold = thresholdSymbols(m[1])
				pr.siteMana = symbolMana(m[1])
			case c.Type != models.Site && siteNoThresholdPattern.MatchString(sentence):
				pr.siteNoThreshold = true
			case c.Type != models.Site && siteStartPattern.MatchString(sentence):
				pr.siteStartMana = bracketedMana(siteStartPattern.FindStringSubmatch(sentence)[1])
			case c.Type != models.Site:
				m := providesPattern.FindStringSubmatch(sentence)
				if m == nil {
					continue
				}
				pr.threshold = pr.threshold.Add(thresholdSymbols(m[1]))
				pr.mana += symbolMana(m[1])
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

// symbolMana adds up the mana symbols ("(2)", "①") of text.
func symbolMana(text string) int {
	n := 0
	for _, sym := range provideSymbol.FindAllStringSubmatch(text, -1) {
		if s := sym[1] + sym[2]; !strings.Contains("AEFW", s) {
			n += manaSymbol(s)
		}
	}
	return n
}

// bracketedMana reads one mana symbol as the patterns capture it: "(2)" or
// "②".
func bracketedMana(sym string) int { return manaSymbol(strings.Trim(sym, "()")) }

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

// genesis gives a site's controller what its Genesis provides this turn, as
// the site is played: threshold for the rest of the turn, and mana when it is
// their turn (only the active player has mana). A Genesis that asks that the
// site be "the only Dark Tower you control" counts the sites of that name.
func (g *Game) genesis(s *site) {
	pr := g.provisionOf(s.card)
	if pr.genesisThreshold == (models.Thresholds{}) && pr.genesisMana == 0 {
		return
	}
	if pr.genesisOnly != "" {
		n := 0
		for _, c := range g.board.sitesOf(s.controller) {
			if strings.EqualFold(g.board.at(c).site.name(), pr.genesisOnly) {
				n++
			}
		}
		if n > 1 {
			return
		}
	}
	seat := &g.seats[s.controller]
	seat.thresholdThisTurn = seat.thresholdThisTurn.Add(pr.genesisThreshold)
	if g.inTurn(s.controller) {
		seat.manaTotal += pr.genesisMana
	}
}

// providesTo reports whether site s provides for player p: its controller,
// or anyone when it provides for everyone.
func (g *Game) providesTo(s *site, p models.Player) bool {
	return s != nil && !s.rubble() && (s.controller == p || g.provisionOf(s.card).everyone)
}

// siteMana gives the mana the site at cell c provides now: one, none for a
// site that "Provides no mana" or a back-row site out of its back row, or
// what it provides instead while its controller meets its ability's
// threshold; plus what a card on it adds ("This site provides an additional
// (1)", Shrine of the Dragonlord).
func (g *Game) siteMana(c models.Cell, s *site) int {
	if !g.siteThreshold(c, s) {
		return 0
	}
	n := 1
	pr := g.provisionOf(s.card)
	switch {
	case pr.noMana:
		n = 0
	case pr.gatedMana > 0 && g.affinity(s.controller).Meets(pr.gate):
		n = pr.gatedMana
	}
	for _, u := range g.board.at(c).units {
		n += g.provisionOf(u.card).siteMana
	}
	return n
}

// siteAffinity gives the threshold the site at cell c adds now: its symbols
// and what a card on it adds ("This site provides an additional
// (E)(F)(W)(A)"), or none while a card on it says "This site doesn't provide
// threshold" (Granary Rats).
func (g *Game) siteAffinity(c models.Cell, s *site) models.Thresholds {
	if !g.siteThreshold(c, s) {
		return models.Thresholds{}
	}
	t := s.card.Thresholds
	for _, u := range g.board.at(c).units {
		pr := g.provisionOf(u.card)
		if pr.siteNoThreshold {
			return models.Thresholds{}
		}
		t = t.Add(pr.siteThreshold)
	}
	return t
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
		if s := sq.site; s != nil && !s.rubble() {
			// "Provides (2) instead but also provides (1) for your opponent."
			if pr := g.provisionOf(s.card); pr.opponentMana > 0 && s.controller == p.Opponent() &&
				g.siteThreshold(c, s) && g.affinity(s.controller).Meets(pr.gate) {
				n += pr.opponentMana
			}
			// "Black Obelisk's site has “At the start of your turn, … gain ②
			// this turn.”"
			if s.controller == p {
				for _, u := range sq.units {
					n += g.provisionOf(u.card).siteStartMana
				}
			}
		}
		for _, u := range sq.units {
			if u.owner == p && !u.avatar {
				n += g.unitMana(c, u)
			}
		}
	}
	return n
}

// unitMana gives the mana a minion or artifact at cell c provides its
// controller now: "Provides ①", "Provides (3) while in the void", "Provides
// (2) for each nearby enemy Avatar" (nearby: its own location and the eight
// around it, in its region, so never while it is submerged or burrowed).
func (g *Game) unitMana(c models.Cell, u *unit) int {
	pr := g.provisionOf(u.card)
	n := pr.mana
	if pr.voidOnly && !g.board.void(c) {
		n = 0
	}
	if pr.perEnemyAvatar > 0 && !u.under {
		if _, ac, ok := g.board.avatarOf(u.owner.Opponent()); ok && ac.Nearby(c) {
			n += pr.perEnemyAvatar
		}
	}
	return n
}
