package rules

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/tablecam/tablecam/models"
)

// castChecks checks a spell's cost against p's mana and its threshold against
// p's affinity, then pays the cost. x is the X paid for a spell whose cost is
// X (the card list gives it no cost); it is ignored for the others. terms are
// what the card's or its site's text changes (castTerms).
func (g *Game) castChecks(p models.Player, card *models.Card, cells []models.Cell, x int, terms castTerms) []models.Warning {
	var ws []models.Warning
	// An unnamed card of p may provide what the affinity lacks: no warning.
	if need := card.Thresholds; !terms.noThreshold && !g.affinity(p).Meets(need) && !g.holdsUnnamed(p) {
		have := g.affinity(p)
		ws = append(ws, warn(ThresholdUnmet, p, cells,
			"%s needs a threshold of %s but %s's affinity is %s (missing %s); your affinity must meet a spell's threshold to cast it (Elemental Threshold).",
			card.Name, need, p, have, have.Missing(need)))
	}
	if card.Cost == nil && x > 0 {
		ws = append(ws, g.spend(p, x, cells, fmt.Sprintf("%s was cast with X = %d", card.Name, x))...)
	} else if cost := max(0, card.CostOrZero()-terms.discount); cost > 0 {
		ws = append(ws, g.spend(p, cost, cells, fmt.Sprintf("%s costs %d mana", card.Name, cost))...)
	}
	return ws
}

// castSpell applies spell_cast: a magic (or any spell that does not stay on a
// cell the camera can see) is cast.
func (g *Game) castSpell(ev models.Event) ([]models.Warning, error) {
	var cells []models.Cell
	if ev.Cell != nil {
		cells = cellsOf(*ev.Cell)
	}
	if ev.Unnamed {
		// Its cost and threshold are unknown: only the turn is checked.
		ws := g.inactiveWarning(ev.Player, cells, "cast an unnamed spell")
		g.act(ev.Player)
		return ws, nil
	}
	card, err := g.lookup("card", ev.Card)
	if err != nil {
		return nil, err
	}
	if !card.Type.IsSpell() {
		return nil, fieldErr("card", nil, "%s is a %s, not a spell", card.Name, strings.ToLower(string(card.Type)))
	}
	ws := g.inactiveWarning(ev.Player, cells, "cast "+card.Name)
	ws = append(ws, g.castChecks(ev.Player, card, cells, ev.Amount, castTerms{})...)
	g.act(ev.Player)
	return ws, nil
}

// summon applies unit_summoned: a minion, artifact or aura is cast to a cell
// (paying its cost and checking its threshold), or a token is made by an
// effect (no cost). Minions and artifacts are cast atop a site their player
// controls; a minion in the void without Voidwalk is banished.
func (g *Game) summon(ev models.Event) ([]models.Warning, error) {
	if ev.Unnamed {
		// Its type, cost and text are unknown: only the turn is checked
		// (tokens, made by effects, cannot be told apart, so none is warned).
		u := &unit{card: unnamedCard(""), owner: ev.Player, entered: true}
		sq := g.board.at(*ev.Cell)
		sq.units = append(sq.units, u)
		g.act(ev.Player)
		return nil, nil
	}
	card, err := g.lookup("card", ev.Card)
	if err != nil {
		return nil, err
	}
	switch card.Type {
	case models.Minion, models.Artifact, models.Aura:
	default:
		if !card.Token {
			return nil, fieldErr("card", nil, "%s is a %s, which is not summoned to the realm (minions, artifacts, auras and tokens are)",
				card.Name, strings.ToLower(string(card.Type)))
		}
	}
	p, cell := ev.Player, *ev.Cell
	var ws []models.Warning
	// An artifact may also be conjured into the hands of one of the caster's
	// units, unless it cannot be carried (Automatons and Monuments).
	carried := carriable(card) && g.hasBearerOf(cell, p)
	if !card.Token {
		ws = append(ws, g.inactiveWarning(p, cellsOf(cell), "cast "+card.Name)...)
		ws = append(ws, g.castChecks(p, card, cellsOf(cell), ev.Amount, g.castTermsAt(p, card, cell))...)
		s := g.board.at(cell).site
		placed := !carried && card.Type != models.Aura // auras and carried artifacts have no site rule
		if placed && s != nil && (s.rubble() || s.controller != p) && !g.mayCastTo(card, p, cell) {
			ws = append(ws, warn(SummonNotOwnSite, p, cellsOf(cell),
				"%s was cast to %s at %s, which %s does not control; a minion or artifact is cast atop a site you control (Casting Spells).",
				card.Name, s.label(), cell, p))
		} else if placed && s == nil && card.Type == models.Artifact && !isMinion(card) {
			ws = append(ws, warn(SummonNotOwnSite, p, cellsOf(cell),
				"%s was conjured into the void at %s; an artifact is conjured atop a site you control (Casting Artifacts).", card.Name, cell))
		}
	}
	u := &unit{card: card, owner: p, entered: true}
	sq := g.board.at(cell)
	sq.units = append(sq.units, u)
	// A card that provides mana does so as it enters, as a site does
	// (Finwife, FAQ: "when it enters the realm and at the start of each of
	// your turns"); one that adds to its site's mana adds it at once too.
	if n := g.unitMana(cell, u); n > 0 && g.inTurn(p) {
		g.seats[p].manaTotal += n
	}
	if s := sq.site; s != nil && !s.rubble() && g.inTurn(s.controller) && g.siteThreshold(cell, s) {
		g.seats[s.controller].manaTotal += g.provisionOf(card).siteMana
	}
	g.act(p)
	if w, ok := g.voidWarning(u, cell, "was summoned to"); ok {
		ws = append(ws, w)
	}
	ws = append(ws, g.boundWarnings(cell, u)...)
	return ws, nil
}

// castTerms is what a text changes in casting a spell: a discount on its
// cost, or no threshold needed.
type castTerms struct {
	discount    int
	noThreshold bool
}

var (
	// rarityDiscount matches "Ordinary minions cost (1) less to cast to this
	// site." (Hamlet, Town, Major City) and "Unique minions cost (1) less to
	// cast to nearby sites." (Camelot).
	rarityDiscount = regexp.MustCompile(`(?i)\b(ordinary|exceptional|elite|unique) minions cost \((\d)\) less to cast to (this site|nearby sites)\b`)
	// lifeDiscount matches "Costs (2) less to cast if you have more life
	// than each opponent." (Black Knight; "less life", White Knight).
	lifeDiscount = regexp.MustCompile(`(?i)\bcosts \((\d)\) less to cast if you have (more|less) life than each opponent\b`)
)

// castTermsAt gives what the texts of card and of the sites at and around
// cell change in casting card there (rulebook, Cards: "the card's text takes
// precedence"):
//   - Hamlet, Town, Major City: "Ordinary minions cost (1) less to cast to this site."
//   - Camelot: "Unique minions cost (1) less to cast to nearby sites."
//   - Donnybrook Inn: "Anyone may cast minions here and they may do so for ① less."
//   - Dragonlord's Lair: "Dragons cast to this site require no threshold and cost (1) less."
//   - Tournament Grounds: "Anyone may cast Knights, Sirs, or Dames to this site and may do so for no threshold."
//   - Black Knight, White Knight: "Costs (2) less to cast if you have more (less) life than each opponent."
func (g *Game) castTermsAt(p models.Player, card *models.Card, cell models.Cell) castTerms {
	var t castTerms
	if !isMinion(card) {
		return t
	}
	if m := lifeDiscount.FindStringSubmatch(card.RulesText); m != nil {
		mine, theirs := g.seats[p].life, g.seats[p.Opponent()].life
		if (strings.EqualFold(m[2], "more") && mine > theirs) || (strings.EqualFold(m[2], "less") && mine < theirs) {
			t.discount += int(m[1][0] - '0')
		}
	}
	for _, c := range models.AllCells() {
		s := g.board.at(c).site
		if s == nil || s.rubble() || !c.Nearby(cell) {
			continue
		}
		here := c == cell
		text := lowerText(s.card)
		if m := rarityDiscount.FindStringSubmatch(text); m != nil && strings.EqualFold(m[1], string(card.Rarity)) &&
			(here || m[3] == "nearby sites") {
			t.discount += int(m[2][0] - '0')
		}
		if !here {
			continue
		}
		switch {
		case strings.Contains(text, "anyone may cast minions here and they may do so for ① less"):
			t.discount++
		case strings.Contains(text, "dragons cast to this site require no threshold and cost (1) less") && hasSubtype(card, "Dragon"):
			t.discount++
			t.noThreshold = true
		case strings.Contains(text, "knights, sirs, or dames to this site and may do so for no threshold") && isKnightly(card):
			t.noThreshold = true
		}
	}
	return t
}

// mayCastTo reports whether a card's text, or the text of the site at cell,
// lets player p cast card to a site they do not control ("Some cards will
// bend or even break the rules in this rulebook, in these cases the card's
// text takes precedence", Cards):
//   - Castle Haunt: "May be cast to any Elite or Unique site."
//   - Saracen Scout: "May be cast to any site without enemies."
//   - Lugbog Cat: "Can and must be cast to any water site."
//   - Jack the Ripper: "May be cast to any Mortal, …"
//   - Donnybrook Inn: "Anyone may cast minions here …"
//   - City of Traitors: "… your opponent can cast minions to this site Stealthed."
//   - Tournament Grounds: "Anyone may cast Knights, Sirs, or Dames to this site …"
func (g *Game) mayCastTo(card *models.Card, p models.Player, cell models.Cell) bool {
	sq := g.board.at(cell)
	text := lowerText(card)
	switch {
	case strings.Contains(text, "may be cast to any elite or unique site"):
		return !sq.site.rubble() && (sq.site.card.Rarity == models.Elite || sq.site.card.Rarity == models.Unique)
	case strings.Contains(text, "may be cast to any site without enemies"):
		for _, u := range sq.units {
			if u.owner != p {
				return false
			}
		}
		return true
	case strings.Contains(text, "cast to any water site"):
		return g.water(cell)
	case strings.Contains(text, "may be cast to any mortal"):
		for _, u := range sq.units {
			if isMinion(u.card) && hasSubtype(u.card, "Mortal") {
				return true
			}
		}
	}
	if sq.site.rubble() || !isMinion(card) {
		return false
	}
	site := lowerText(sq.site.card)
	switch {
	case strings.Contains(site, "anyone may cast minions here"):
		return true
	case strings.Contains(site, "your opponent can cast minions to this site"):
		return p != sq.site.controller
	case strings.Contains(site, "anyone may cast knights, sirs, or dames to this site"):
		return isKnightly(card)
	}
	return false
}

// lowerText gives a card's rules text in lower case, with typographic
// apostrophes made plain.
func lowerText(c *models.Card) string {
	return strings.ToLower(strings.ReplaceAll(c.RulesText, "’", "'"))
}

// isKnightly reports whether a card is a Knight, Sir or Dame by its name
// ("Black Knight", "Sir Gareth", "Dame …").
func isKnightly(c *models.Card) bool {
	for _, w := range strings.Fields(c.Name) {
		if w == "Knight" || w == "Knights" {
			return true
		}
	}
	return strings.HasPrefix(c.Name, "Sir ") || strings.HasPrefix(c.Name, "Dame ")
}

// hasBearerOf reports whether player p has a unit (an Avatar or a minion)
// at cell c that can take an artifact into its hands. Another artifact or an
// aura is no unit: "A unit is a collective term that includes both Avatars and
// minions" (Units). An unnamed card may be a minion, so it counts.
func (g *Game) hasBearerOf(c models.Cell, p models.Player) bool {
	for _, u := range g.board.at(c).units {
		if u.owner == p && (u.avatar || u.minion() || unnamed(u.card)) {
			return true
		}
	}
	return false
}
