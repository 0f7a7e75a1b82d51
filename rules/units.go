package rules

import (
	"fmt"
	"strings"

	"github.com/tablecam/tablecam/models"
)

// unitAt finds the unit an event names at a cell, or says why it cannot.
// An empty name stands for an unnamed unit (the event is Unnamed).
func (g *Game) unitAt(field string, c models.Cell, name string, owner models.Player, preferTapped bool) (*unit, error) {
	card := unnamedCard("")
	if name != "" {
		var err error
		if card, err = g.lookup("card", name); err != nil {
			return nil, err
		}
	}
	u := g.board.findUnit(c, card.Name, owner, preferTapped)
	if u == nil {
		here := g.board.at(c)
		switch {
		case here.site != nil && models.NormalizeName(here.site.name()) == models.NormalizeName(card.Name):
			return nil, fieldErr("card", nil, "%s is the site at %s, not a unit there", label(card), c)
		case len(here.units) == 0:
			return nil, fieldErr(field, nil, "no %s at %s: the cell holds no units", noun(card), c)
		default:
			return nil, fieldErr(field, nil, "no %s at %s (it holds %s)", noun(card), c, describeUnits(here.units))
		}
	}
	return u, nil
}

// tap applies card_tapped. A minion that entered the realm this turn cannot
// tap (summoning sickness) unless it has Charge; Avatars never suffer it.
func (g *Game) tap(ev models.Event) ([]models.Warning, error) {
	cell := *ev.Cell
	if g.isSiteAt(cell, ev.Card) {
		return nil, nil // some sites tap for their abilities; the state does not track it
	}
	u, err := g.unitAt("cell", cell, ev.Card, ev.Player, false)
	if err != nil {
		return nil, err
	}
	var ws []models.Warning
	if u.summoningSick() && !u.tapped && !u.sickWarned {
		u.sickWarned = true
		ws = append(ws, warn(UnitSummoningSick, u.owner, cellsOf(cell),
			"%s entered the realm this turn and cannot tap; a minion suffers from summoning sickness until the end of the turn it entered, unless it has Charge (Summoning Sickness).",
			u.card.Name))
	}
	u.tapUnused = u.avatar && !u.tapped
	u.tapped = true
	g.act(u.owner)
	return ws, nil
}

// untap applies card_untapped. Cards untap in their controller's start phase;
// an untap at any other moment is warned about.
func (g *Game) untap(ev models.Event) ([]models.Warning, error) {
	cell := *ev.Cell
	if g.isSiteAt(cell, ev.Card) {
		return nil, nil
	}
	u, err := g.unitAt("cell", cell, ev.Card, ev.Player, true)
	if err != nil {
		return nil, err
	}
	var ws []models.Warning
	if u.tapped && !(u.owner == g.active && g.phase == phaseStart) {
		ws = append(ws, warn(UntapOutOfTurn, u.owner, cellsOf(cell),
			"%s untapped outside %s's start phase; your tapped cards untap at the start of your turn (Start Phase).",
			capital(label(u.card)), u.owner))
	}
	u.tapped, u.tapUnused = false, false
	return ws, nil
}

// move applies unit_moved. A minion without Voidwalk that enters the void is
// banished, and an Avatar never enters the void. A unit moves by tapping (for
// Move and Attack, or to defend or intercept), so the move taps it, a
// summoning-sick minion may not move in its own turn, and it takes one step
// (more with Movement +N, diagonally when Airborne; none when Immobile).
func (g *Game) move(ev models.Event) ([]models.Warning, error) {
	from, to := *ev.From, *ev.To
	u, err := g.unitAt("from", from, ev.Card, ev.Player, true)
	if err != nil {
		return nil, err
	}
	var ws []models.Warning
	if u.summoningSick() && !u.tapped && !u.sickWarned && from != to && g.inTurn(u.owner) {
		u.sickWarned = true
		ws = append(ws, warn(UnitSummoningSick, u.owner, cellsOf(from, to),
			"%s entered the realm this turn and moved from %s to %s; moving takes the Move and Attack ability, which taps the unit, and a minion with summoning sickness cannot tap unless it has Charge (Summoning Sickness).",
			u.card.Name, from, to))
	}
	if w, ok := g.rangeWarning(u, from, to); ok {
		ws = append(ws, w)
	}
	g.board.removeUnit(from, u)
	u.under, u.tapUnused = false, false
	// Planar Gate, FAQ: "Treat it as: Minions here may move as if they had
	// Voidwalk. If they do so to enter the void, they gain Voidwalk until
	// they leave the void."
	switch {
	case !g.board.void(to):
		u.voidwalking = false
	case g.traversesVoid(from):
		u.voidwalking = true
	}
	if from != to && (u.avatar || u.minion()) {
		// A unit moves by tapping: for Move and Attack, or to defend or
		// intercept on the opponent's turn.
		u.tapped = true
	}
	g.board.at(to).units = append(g.board.at(to).units, u)
	g.act(u.owner)
	if w, ok := g.voidWarning(u, to, "moved into"); ok {
		ws = append(ws, w)
	}
	ws = append(ws, g.boundWarnings(to, u)...)
	return ws, nil
}

// remove applies card_removed: a unit leaves the realm, or, when the card is
// the site of the cell, the site is picked up and the cell is void again.
func (g *Game) remove(ev models.Event) ([]models.Warning, error) {
	cell := *ev.Cell
	sq := g.board.at(cell)
	card := unnamedCard("")
	if !ev.Unnamed {
		var err error
		if card, err = g.lookup("card", ev.Card); err != nil {
			return nil, err
		}
	}
	if u := g.board.findUnit(cell, card.Name, ev.Player, false); u != nil {
		g.board.removeUnit(cell, u)
		return nil, nil
	}
	if sq.site != nil && models.NormalizeName(sq.site.name()) == models.NormalizeName(card.Name) {
		sq.site = nil
		var ws []models.Warning
		for _, u := range sq.units {
			u.under = false // the void has no subsurface: a site played here later has them atop it
			if u.avatar {
				continue // an Avatar may be left in the void; it only may not go there
			}
			if w, ok := g.voidWarning(u, cell, "was left in"); ok {
				ws = append(ws, w)
			}
		}
		return ws, nil
	}
	_, err := g.unitAt("cell", cell, ev.Card, ev.Player, false)
	return nil, err
}

// goUnder applies unit_under: the unit slides under the site of its cell, into
// the underground (land site) or underwater (water site) region.
func (g *Game) goUnder(ev models.Event) ([]models.Warning, error) {
	cell := *ev.Cell
	u, err := g.unitAt("cell", cell, ev.Card, ev.Player, false)
	if err != nil {
		return nil, err
	}
	if g.board.void(cell) {
		return nil, fieldErr("cell", nil, "%s is void: there is no site to go under", cell)
	}
	u.under = true
	if u.avatar {
		return []models.Warning{warn(UnitSubsurface, u.owner, cellsOf(cell),
			"The Avatar %s went under %s at %s; Avatars can never enter a region other than the surface (Avatars).",
			label(u.card), g.board.at(cell).site.label(), cell)}, nil
	}
	return g.subsurfaceWarnings(cell), nil
}

// surface applies unit_surfaced: the unit comes back atop its site.
func (g *Game) surface(ev models.Event) ([]models.Warning, error) {
	u, err := g.unitAt("cell", *ev.Cell, ev.Card, ev.Player, false)
	if err != nil {
		return nil, err
	}
	u.under = false
	return nil, nil
}

// voidWarning checks a unit that has just arrived in cell c.
func (g *Game) voidWarning(u *unit, c models.Cell, how string) (models.Warning, bool) {
	if !g.board.void(c) {
		return models.Warning{}, false
	}
	switch {
	case u.avatar:
		return warn(UnitVoid, u.owner, cellsOf(c),
			"The Avatar %s %s the void at %s; Avatars can never enter a region other than the surface (Avatars).", label(u.card), how, c), true
	case u.minion() && !u.voidwalks():
		return warn(UnitVoid, u.owner, cellsOf(c),
			"%s %s the void at %s without Voidwalk and is banished; a minion in the void is banished unless an ability lets it exist there (The Void).",
			u.card.Name, how, c), true
	}
	return models.Warning{}, false
}

// traversesVoid reports whether the site at cell c lets the minions there
// enter the void: "Minions here can traverse the void, gaining Voidwalk until
// leaving it" (Planar Gate).
func (g *Game) traversesVoid(c models.Cell) bool {
	return g.siteSays(c, "minions here can traverse the void")
}

// subsurfaceWarnings checks every unit under the site of cell c: under a land
// site (Rubble included) a minion needs Burrowing, under a water site Submerge.
func (g *Game) subsurfaceWarnings(c models.Cell) []models.Warning {
	var ws []models.Warning
	g.forbiddenUnder(c, func(u *unit, site, region string, need models.Keyword) {
		ws = append(ws, warn(UnitSubsurface, u.owner, cellsOf(c),
			"%s is under %s at %s (%s) without %s and dies; minions in the subsurface die unless an ability lets them be there (The Subsurface).",
			u.card.Name, site, c, region, need))
	})
	return ws
}

// forbiddenUnder calls found for each minion under the site of cell c that
// may not be there: without Burrowing under a land site (Rubble included),
// without Submerge under a water site.
func (g *Game) forbiddenUnder(c models.Cell, found func(u *unit, site, region string, need models.Keyword)) {
	sq := g.board.at(c)
	if sq.site == nil || !sq.site.known() {
		return // an unnamed site's element is unknown
	}
	for _, u := range sq.units {
		if !u.under || !u.minion() {
			continue
		}
		need, region := models.Burrowing, "underground"
		if g.water(c) {
			need, region = models.Submerge, "underwater"
		}
		if !hasKeyword(u.card, need) {
			found(u, sq.site.name(), region, need)
		}
	}
}

// isSiteAt reports whether name is the site of cell c (and no unit there has that name).
func (g *Game) isSiteAt(c models.Cell, name string) bool {
	sq := g.board.at(c)
	want := models.NormalizeName(name)
	if sq.site == nil || models.NormalizeName(sq.site.name()) != want {
		return false
	}
	for _, u := range sq.units {
		if models.NormalizeName(u.card.Name) == want {
			return false
		}
	}
	return true
}

// boundWarnings checks the Waterbound and Landbound units at cell c: a
// Waterbound minion at a land site (Rubble included), or a Landbound one at a
// water site, is disabled. only, when not nil, limits the check to one unit.
func (g *Game) boundWarnings(c models.Cell, only *unit) []models.Warning {
	sq := g.board.at(c)
	if sq.site == nil || !sq.site.known() {
		return nil // an unnamed site's element is unknown
	}
	var ws []models.Warning
	for _, u := range sq.units {
		if (only != nil && u != only) || !u.minion() {
			continue
		}
		switch {
		case !g.water(c) && hasKeyword(u.card, models.Waterbound):
			ws = append(ws, warn(UnitWaterbound, u.owner, cellsOf(c),
				"%s is Waterbound but stands on %s at %s, a land site, where it is disabled (Waterbound).", u.card.Name, sq.site.name(), c))
		case g.water(c) && hasKeyword(u.card, models.Landbound):
			ws = append(ws, warn(UnitLandbound, u.owner, cellsOf(c),
				"%s is Landbound but stands on %s at %s, a water site, where it is disabled (Landbound).", u.card.Name, sq.site.name(), c))
		}
	}
	return ws
}

// rangeWarning checks how far a unit moved in one unit_moved: by default one
// step to an adjacent location, plus N with Movement +N; an Airborne unit
// moving over the surface may step diagonally; an Immobile one takes no steps
// of its own. Forced movement and teleports are not steps, so the message
// says so. Cards whose text moves a unit otherwise are followed: Updraft
// Ridge, Astral Alcazar, Felbog Frog Men, and the connected top and bottom
// edges of Polar Bears, Polar Explorers and Ruler of Thul.
func (g *Game) rangeWarning(u *unit, from, to models.Cell) (models.Warning, bool) {
	if from == to || !(u.avatar || u.minion()) {
		return models.Warning{}, false // artifacts and auras move only as they are carried or moved
	}
	if unnamed(u.card) {
		return models.Warning{}, false // its keywords (Airborne, Movement +N) are unknown
	}
	airborne := hasKeyword(u.card, models.Airborne) && !u.under && !g.board.void(from)
	dc, dr := abs(from.Col-to.Col), abs(from.Row-to.Row)
	if g.wrapsRows(u, from) {
		dr = min(dr, models.Rows-dr)
	}
	steps := dc + dr
	if airborne {
		steps = max(dc, dr)
	}
	switch {
	case airborne && u.minion() && g.siteSays(from, "airborne minions atop", "move freely away"):
		// Updraft Ridge, FAQ: "Treat it as: Airborne minions atop Updraft
		// Ridge move freely away." Moving Freely: "they spend no steps when
		// moving".
		return models.Warning{}, false
	case (g.board.void(to) && g.siteSays(from, "between this site and any void as if they were adjacent")) ||
		(g.board.void(from) && g.siteSays(to, "between this site and any void as if they were adjacent")):
		steps = 1 // Astral Alcazar
	case steps == 2 && (dc == 0 || dr == 0) && strings.Contains(lowerText(u.card), "can leap entirely over adjacent sites in one step"):
		// Felbog Frog Men, FAQ: "Is this a "move as if adjacent" ability?
		// Yes." "Can they defend from two sites away? Yes (assuming in a
		// straight line)."
		if mid := (models.Cell{Col: (from.Col + to.Col) / 2, Row: (from.Row + to.Row) / 2}); !g.board.void(mid) {
			steps = 1
		}
	}
	if hasKeyword(u.card, models.Immobile) {
		return warn(UnitMoveRange, u.owner, cellsOf(from, to),
			"%s is Immobile but moved from %s to %s; an Immobile unit cannot move by its own abilities, only be moved by other effects (Special Movement Effects).",
			u.card.Name, from, to), true
	}
	allowed := 1 + movementBonus(u.card)
	if steps <= allowed {
		return models.Warning{}, false
	}
	how := "one step"
	if allowed > 1 {
		how = fmt.Sprintf("%d steps (Movement +%d)", allowed, allowed-1)
	}
	if airborne {
		how += ", diagonally too as it is Airborne"
	}
	return warn(UnitMoveRange, u.owner, cellsOf(from, to),
		"%s moved %d steps from %s to %s but can take %s, unless an effect moved or teleported it; by default units can move one step (Moving your Units).",
		u.card.Name, steps, from, to, how), true
}

// siteSays reports whether the text of the site at cell c holds every one of
// parts (lower case).
func (g *Game) siteSays(c models.Cell, parts ...string) bool {
	s := g.board.at(c).site
	if s == nil || s.rubble() {
		return false
	}
	text := lowerText(s.card)
	for _, p := range parts {
		if !strings.Contains(text, p) {
			return false
		}
	}
	return true
}

// wrapsRows reports whether unit u at cell c moves "as if the top and bottom
// edges of the realm were connected": by its own text (Polar Bears), an
// allied Polar Explorers at its location ("Allied units here can …"), or an
// allied Ruler of Thul anywhere ("Allies can …").
func (g *Game) wrapsRows(u *unit, c models.Cell) bool {
	const edges = "as if the top and bottom edges of the realm were connected"
	text := lowerText(u.card)
	if strings.Contains(text, "can move "+edges) && !strings.Contains(text, "allies can move") && !strings.Contains(text, "units here can move") {
		return true
	}
	for _, cell := range models.AllCells() {
		for _, v := range g.board.at(cell).units {
			if v == u || v.owner != u.owner {
				continue
			}
			vt := lowerText(v.card)
			switch {
			case strings.Contains(vt, "allies can move "+edges):
				return true
			case cell == c && strings.Contains(vt, "allied units here can move "+edges):
				return true
			}
		}
	}
	return false
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
