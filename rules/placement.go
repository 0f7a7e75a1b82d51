package rules

import (
	"strings"

	"github.com/tablecam/tablecam/models"
)

// playSite applies site_played. A site goes on the void or on Rubble, adjacent
// to a site its player controls, or as close as possible to their Avatar when
// they control none; playing it taps the Avatar. Rubble placed by an effect is
// site_played with the card "Rubble": it has no controller and no placement rule.
func (g *Game) playSite(ev models.Event) ([]models.Warning, error) {
	p, cell := ev.Player, *ev.Cell
	if models.NormalizeName(ev.Card) == models.NormalizeName(models.RubbleName) {
		return g.placeRubble(p, cell), nil
	}
	card := unnamedCard(models.Site)
	if !ev.Unnamed {
		var err error
		if card, err = g.lookup("card", ev.Card); err != nil {
			return nil, err
		}
	}
	if card.Type != models.Site {
		return nil, fieldErr("card", nil, "%s is a %s, not a site", card.Name, strings.ToLower(string(card.Type)))
	}
	ws := g.inactiveWarning(p, cellsOf(cell), "played "+siteLabel(card))
	sq := g.board.at(cell)
	if sq.site != nil && !sq.site.rubble() {
		ws = append(ws, warn(SiteOccupied, p, cellsOf(cell),
			"%s was played on %s, which already holds %s; a site goes only on the void or on Rubble, one site per location (Playing Sites).",
			capital(label(card)), cell, sq.site.label()))
	} else {
		ws = append(ws, g.placementWarnings(p, cell, card)...)
	}

	avatar, avatarCell, ok := g.board.avatarOf(p)
	if ok {
		if avatar.tapped && !avatar.tapUnused {
			ws = append(ws, warn(SiteAvatarTapped, p, cellsOf(cell, avatarCell),
				"%s was played while %s's Avatar %s was already tapped; sites are played with the Avatar's ability \"Tap → Play or draw a site\" (Playing Sites).",
				capital(label(card)), p, label(avatar.card)))
		}
		avatar.tapped, avatar.tapUnused = true, false
	}

	controller := p
	if entersUnderOpponent(card) {
		// Postern Gate: "Enters the realm under an opponent's control." FAQ:
		// "Do I get mana for playing Postern Gate? No. The site comes into
		// play as your opponent's site. If you play it on their turn …, they
		// get the mana immediately." It is still played adjacent to your own
		// sites ("You play it adjacent to your own sites").
		controller = p.Opponent()
	}
	sq.site = &site{card: card, controller: controller}
	// A site that enters during its controller's turn provides its mana at once.
	if g.inTurn(controller) {
		g.seats[controller].manaTotal += g.siteMana(cell, sq.site)
	}
	g.genesis(sq.site)
	g.act(p)
	// Units already here stay at their level; a unit that was under Rubble may now be under water.
	ws = append(ws, g.subsurfaceWarnings(cell)...)
	ws = append(ws, g.boundWarnings(cell, nil)...)
	return ws, nil
}

// placementWarnings checks where p put a site: next to one of theirs, or, with
// none, as close as possible to their Avatar (Manhattan distance, counting only
// cells a site may go on). An Avatar whose text plays sites otherwise has its
// own rule (avatarPlacement).
func (g *Game) placementWarnings(p models.Player, cell models.Cell, card *models.Card) []models.Warning {
	if ws, ok := g.avatarPlacement(p, cell, card); ok {
		return ws
	}
	own := g.board.sitesOf(p)
	if len(own) > 0 {
		for _, c := range own {
			if c.Adjacent(cell) {
				return nil
			}
		}
		return []models.Warning{warn(SiteNotAdjacent, p, cellsOf(cell),
			"%s at %s is not adjacent to a site %s controls (%s); a site must be played adjacent to a site you control (Playing Sites).",
			capital(label(card)), cell, p, joinCells(own))}
	}
	_, avatarCell, ok := g.board.avatarOf(p)
	if !ok {
		return nil // no Avatar on the realm to measure from
	}
	best := -1
	var nearest []models.Cell
	for _, c := range sortedCells() {
		s := g.board.at(c).site
		if s != nil && !s.rubble() && c != cell {
			continue // not a place a site can go
		}
		d := c.Distance(avatarCell)
		switch {
		case best < 0 || d < best:
			best, nearest = d, []models.Cell{c}
		case d == best:
			nearest = append(nearest, c)
		}
	}
	if d := cell.Distance(avatarCell); d > best {
		return []models.Warning{warn(SiteNotNearestAvatar, p, cellsOf(cell, avatarCell),
			"%s controls no site, so %s must go as close as possible to their Avatar at %s (%d away: %s), not at %s (%d away) (Playing Sites).",
			p, label(card), avatarCell, best, joinCells(nearest), cell, d)}
	}
	return nil
}

// Avatar texts that play sites by another rule than "adjacent to another site
// that you control": the card's text takes precedence over the rulebook
// ("Some cards will bend or even break the rules in this rulebook, in these
// cases the card's text takes precedence", Cards).
const (
	// Pathfinder: "Tap → If able, play the topmost site of your atlas to an
	// adjacent location and move there."
	playsNextToAvatar = "play the topmost site of your atlas to an adjacent location"
	// Geomancer: "Tap → Replace an adjacent Rubble with the topmost site of
	// your atlas."
	replacesRubbleNextToAvatar = "replace an adjacent rubble with the topmost site of your atlas"
)

// avatarPlacement checks a site p played on cell c by their Avatar's own
// rule, when its text has one: ok is false when the usual rule applies.
// "Adjacent" takes in the Avatar's own location and the squares that share a
// border with it (Adjacent and Nearby).
func (g *Game) avatarPlacement(p models.Player, cell models.Cell, card *models.Card) (ws []models.Warning, ok bool) {
	avatar, avatarCell, found := g.board.avatarOf(p)
	if !found {
		return nil, false
	}
	text := lowerText(avatar.card)
	next := cell.Distance(avatarCell) <= 1
	switch {
	case strings.Contains(text, playsNextToAvatar):
		if next {
			return nil, true
		}
		return []models.Warning{warn(SiteNotAdjacent, p, cellsOf(cell, avatarCell),
			"%s at %s is not adjacent to %s's Avatar %s at %s, which plays its sites to an adjacent location (card text).",
			capital(label(card)), cell, p, label(avatar.card), avatarCell)}, true
	case strings.Contains(text, replacesRubbleNextToAvatar):
		if s := g.board.at(cell).site; next && s != nil && s.rubble() {
			return nil, true // it replaced an adjacent Rubble
		}
	}
	return nil, false
}

// entersUnderOpponent reports whether a site's text says it "Enters the
// realm under an opponent's control" (Postern Gate).
func entersUnderOpponent(c *models.Card) bool {
	text := lowerText(c)
	return strings.Contains(text, "enters the realm under an opponent's control")
}

// placeRubble puts Rubble on a cell (an effect filled a void, or a site was
// replaced by Rubble by hand).
func (g *Game) placeRubble(p models.Player, cell models.Cell) []models.Warning {
	var ws []models.Warning
	sq := g.board.at(cell)
	if sq.site != nil {
		ws = append(ws, warn(SiteOccupied, p, cellsOf(cell),
			"Rubble was placed on %s, which already holds %s; Rubble fills a void (Rubble).", cell, sq.site.label()))
	}
	sq.site = &site{}
	ws = append(ws, g.subsurfaceWarnings(cell)...)
	return append(ws, g.boundWarnings(cell, nil)...)
}

// destroySite applies site_destroyed: the site is replaced by Rubble, a land
// site that nobody controls and that provides no mana or threshold. Mana the
// site provided this turn stays in its controller's pool.
func (g *Game) destroySite(ev models.Event) ([]models.Warning, error) {
	cell := *ev.Cell
	sq := g.board.at(cell)
	if sq.site == nil {
		return nil, fieldErr("cell", nil, "%s is void: there is no site to destroy", cell)
	}
	if sq.site.rubble() {
		return nil, fieldErr("cell", nil, "%s is already Rubble", cell)
	}
	sq.site = &site{}
	return append(g.subsurfaceWarnings(cell), g.boundWarnings(cell, nil)...), nil
}

func joinCells(cs []models.Cell) string {
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = c.String()
	}
	return strings.Join(s, ", ")
}
