package rules

import (
	"strings"

	"github.com/tablecam/tablecam/models"
)

// site is the site on a cell: a card and its controller, or Rubble.
type site struct {
	card       *models.Card // nil for Rubble
	controller models.Player
}

func (s *site) rubble() bool { return s.card == nil }

// name gives the card's name, or "Rubble".
func (s *site) name() string {
	if s.rubble() {
		return models.RubbleName
	}
	return s.card.Name
}

// water reports whether the site is a water site (Rubble is a land site).
// An unnamed site is not known to be water.
func (s *site) water() bool { return !s.rubble() && s.card.IsWaterSite() }

// unit is a card standing on the realm: an Avatar, minion, artifact, aura or token.
type unit struct {
	card    *models.Card
	owner   models.Player
	tapped  bool
	entered bool // entered the realm this turn
	under   bool // in the subsurface, under the site of its cell
	avatar  bool
	// tapUnused: an Avatar was tapped (card_tapped) and nothing has used that
	// tap yet, so a site played next is that tap's ability, in whichever order
	// the camera saw the two.
	tapUnused bool
	// voidwalking: the minion entered the void from a site that lets it
	// ("Minions here can traverse the void, gaining Voidwalk until leaving
	// it", Planar Gate) and has Voidwalk until it leaves the void.
	voidwalking bool
	// sickWarned: unit.summoning_sick was raised for this unit this turn, so
	// its tap and its move are one breach, warned once.
	sickWarned bool
}

// minion reports whether the unit is a minion (including minion tokens and
// Automatons).
func (u *unit) minion() bool { return isMinion(u.card) }

// summoningSick reports whether the unit suffers from summoning sickness: a
// minion that entered the realm this turn, unless it has Charge.
func (u *unit) summoningSick() bool {
	return u.entered && u.minion() && !hasKeyword(u.card, models.Charge)
}

// voidwalks reports whether the unit may exist in the void: it has Voidwalk,
// or has gained it from a Planar Gate.
func (u *unit) voidwalks() bool { return u.voidwalking || hasKeyword(u.card, models.Voidwalk) }

// square is what one cell of the realm holds.
type square struct {
	site  *site
	units []*unit
}

// board is the 5×4 realm.
type board [models.Columns * models.Rows]square

func (b *board) at(c models.Cell) *square { return &b[c.Index()] }

// void reports whether the cell has no site (Rubble is a site).
func (b *board) void(c models.Cell) bool { return b.at(c).site == nil }

// findUnit finds the unit named name at cell c. Among several with the same
// name it prefers one owned by owner (when given) and then one whose tapped
// state is preferTapped; it returns nil when there is none.
func (b *board) findUnit(c models.Cell, name string, owner models.Player, preferTapped bool) *unit {
	want := models.NormalizeName(name)
	var best *unit
	bestScore := -1
	for _, u := range b.at(c).units {
		if models.NormalizeName(u.card.Name) != want {
			continue
		}
		score := 0
		if owner == models.NoPlayer || u.owner == owner {
			score += 2
		}
		if u.tapped == preferTapped {
			score++
		}
		if score > bestScore {
			best, bestScore = u, score
		}
	}
	return best
}

// removeUnit takes u off cell c.
func (b *board) removeUnit(c models.Cell, u *unit) {
	sq := b.at(c)
	for i, x := range sq.units {
		if x == u {
			sq.units = append(sq.units[:i], sq.units[i+1:]...)
			return
		}
	}
}

// avatarOf finds a player's Avatar and its cell.
func (b *board) avatarOf(p models.Player) (*unit, models.Cell, bool) {
	for _, c := range models.AllCells() {
		for _, u := range b.at(c).units {
			if u.avatar && u.owner == p {
				return u, c, true
			}
		}
	}
	return nil, models.Cell{}, false
}

// sitesOf lists the cells of the sites p controls, in sorted order.
func (b *board) sitesOf(p models.Player) []models.Cell {
	out := []models.Cell{}
	for _, c := range sortedCells() {
		if s := b.at(c).site; s != nil && !s.rubble() && s.controller == p {
			out = append(out, c)
		}
	}
	return out
}

// describe names the units at a cell, for messages.
func describeUnits(us []*unit) string {
	names := make([]string, len(us))
	for i, u := range us {
		names[i] = label(u.card)
	}
	return strings.Join(names, ", ")
}
