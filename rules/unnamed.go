package rules

import (
	"strings"

	"github.com/tablecam/tablecam/models"
)

// A card the camera saw but could not name (its face is not in the catalog,
// as the cards of an opponent whose deck was never scanned) still takes part
// in the game: an event marked Unnamed, with no card name, puts it on the
// realm, taps, moves or removes it. The rules apply to it only what does not
// depend on its printed text:
//   - an unnamed site is a site of its controller: it fills the cell, obeys
//     the placement rules (they need only the cell), and provides one mana
//     as every site does (Mana), but no threshold, and it is neither water
//     nor land, so it joins no body of water or span of land and no
//     Waterbound, Landbound or subsurface rule is checked on it;
//   - an unnamed unit is not known to be a minion, so neither summoning
//     sickness, nor the void, nor a site it must stand on, nor its movement
//     range is checked, and its cost is unknown, so it spends no mana;
//   - an unnamed Avatar starts at the default starting life and obeys what
//     every Avatar obeys (it taps to play a site, it never enters the void);
//   - a player who controls an unnamed card is not warned that their
//     affinity falls short of a threshold: the unnamed card may provide it.
//
// card_named gives an unnamed card its name from then on (the camera
// identified it at last, or a player typed it): what it provides and the
// checks its text allows apply from that event.

// unnamedCard gives a stand-in for an unnamed card of type t ("" when the
// type is unknown, as for a unit): no name, no cost, no threshold, no text.
func unnamedCard(t models.CardType) *models.Card { return &models.Card{Type: t} }

// unnamed reports whether c stands for a card the camera could not name.
func unnamed(c *models.Card) bool { return c != nil && c.Name == "" }

// label names a card in a warning's sentence.
func label(c *models.Card) string {
	if !unnamed(c) {
		return c.Name
	}
	switch c.Type {
	case models.Site:
		return "an unnamed site"
	case models.Avatar:
		return "an unnamed Avatar"
	}
	return "an unnamed card"
}

// known reports whether the site's element and text are known: it is
// Rubble or a named site.
func (s *site) known() bool { return s.rubble() || !unnamed(s.card) }

// holdsUnnamed reports whether p controls an unnamed site or owns an unnamed
// card other than their Avatar, whose text may provide threshold.
func (g *Game) holdsUnnamed(p models.Player) bool {
	for i := range g.board {
		sq := &g.board[i]
		if sq.site != nil && !sq.site.known() && sq.site.controller == p {
			return true
		}
		for _, u := range sq.units {
			if u.owner == p && !u.avatar && unnamed(u.card) {
				return true
			}
		}
	}
	return false
}

// unnamedSites counts the unnamed sites p controls.
func (g *Game) unnamedSites(p models.Player) int {
	n := 0
	for i := range g.board {
		if s := g.board[i].site; s != nil && !s.known() && s.controller == p {
			n++
		}
	}
	return n
}

// name applies card_named: the unnamed card of the player at the cell gets
// its name (a site's name names the unnamed site there, any other card the
// player's unnamed unit, their Avatar for an Avatar's name). An Avatar
// named keeps the damage it has taken: its life moves with its printed life.
func (g *Game) name(ev models.Event) ([]models.Warning, error) {
	card, err := g.lookup("card", ev.Card)
	if err != nil {
		return nil, err
	}
	cell := *ev.Cell
	sq := g.board.at(cell)
	if card.Type == models.Site {
		if sq.site != nil && !sq.site.rubble() && sq.site.card == card {
			return nil, nil // named already (a player named it first)
		}
		if sq.site == nil || sq.site.known() {
			return nil, fieldErr("cell", nil, "no unnamed site at %s to name %s", cell, card.Name)
		}
		sq.site.card = card
		return append(g.subsurfaceWarnings(cell), g.boundWarnings(cell, nil)...), nil
	}
	var target *unit
	for _, u := range sq.units {
		if !unnamed(u.card) || ev.Player != models.NoPlayer && u.owner != ev.Player {
			continue
		}
		if target == nil || u.avatar == (card.Type == models.Avatar) && target.avatar != u.avatar {
			target = u
		}
	}
	if target == nil && g.board.findUnit(cell, card.Name, ev.Player, false) != nil {
		return nil, nil // named already (a player named it first)
	}
	if target == nil {
		return nil, fieldErr("cell", nil, "no unnamed unit at %s to name %s", cell, card.Name)
	}
	if target.avatar != (card.Type == models.Avatar) {
		return nil, fieldErr("card", nil, "%s is a %s, but the unnamed card at %s is %s", card.Name,
			strings.ToLower(string(card.Type)), cell, map[bool]string{true: "an Avatar", false: "not an Avatar"}[target.avatar])
	}
	target.card = card
	if target.avatar {
		s := &g.seats[target.owner]
		s.avatar = card
		if card.Life != nil && *card.Life > 0 && !s.deathsDoor && !s.defeated {
			d := *card.Life - s.maxLife
			s.maxLife += d
			s.life = max(1, s.life+d)
		}
	}
	var ws []models.Warning
	if w, ok := g.voidWarning(target, cell, "stands in"); ok && !target.avatar {
		ws = append(ws, w)
	}
	ws = append(ws, g.subsurfaceWarnings(cell)...)
	return append(ws, g.boundWarnings(cell, target)...), nil
}

// siteLabel names a site card in a sentence: "the site Arid Desert", or "an
// unnamed site".
func siteLabel(c *models.Card) string {
	if unnamed(c) {
		return label(c)
	}
	return "the site " + c.Name
}

// label names the site (or Rubble) in a sentence.
func (s *site) label() string {
	if s.rubble() {
		return models.RubbleName
	}
	return label(s.card)
}

// capital gives s with its first letter in upper case, to start a sentence.
func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// noun names a card after "no": "no Scout", "no unnamed unit".
func noun(c *models.Card) string {
	if unnamed(c) {
		return "unnamed unit"
	}
	return c.Name
}
