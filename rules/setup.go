package rules

import (
	"strings"

	"github.com/tablecam/tablecam/models"
)

// homeCell is where a player's Avatar starts: the middle of their home row
// (C1 for south, C4 for north).
func homeCell(p models.Player) models.Cell {
	if p == models.North {
		return models.Cell{Col: models.Columns / 2, Row: models.Rows - 1}
	}
	return models.Cell{Col: models.Columns / 2, Row: 0}
}

// start applies game_start: both Avatars on the realm at full life.
func (g *Game) start(ev models.Event) ([]models.Warning, error) {
	type setup struct {
		p    models.Player
		name string
		seat *models.Seat
		home models.Cell
	}
	setups := []setup{{models.South, "south", ev.South, homeCell(models.South)}, {models.North, "north", ev.North, homeCell(models.North)}}
	for _, s := range setups {
		card := unnamedCard(models.Avatar)
		if !s.seat.Unnamed {
			var err error
			if card, err = g.lookup(s.name+".avatar", s.seat.Avatar); err != nil {
				return nil, err
			}
		}
		if card.Type != models.Avatar {
			return nil, fieldErr(s.name+".avatar", nil, "%s is a %s, not an Avatar", card.Name, strings.ToLower(string(card.Type)))
		}
		cell := s.home
		if s.seat.Cell != nil {
			cell = *s.seat.Cell
		}
		// The printed life is both the starting life and the maximum
		// ("This is also the Avatar's maximum life, which cannot be
		// exceeded"; clarifications: "An avatar's maximum life is the value
		// printed on their card (20), and cannot exceed that number"). A
		// seat's life sets up a game already under way: the Avatar's life
		// now, never above that maximum, and at 0 the Avatar is already at
		// death's door.
		maxLife := g.opts.startingLife
		if card.Life != nil && *card.Life > 0 {
			maxLife = *card.Life
		}
		life := maxLife
		if s.seat.Life != nil {
			life = min(*s.seat.Life, maxLife)
		}
		g.seats[s.p] = seat{avatar: card, life: life, maxLife: maxLife, deathsDoor: life == 0}
		sq := g.board.at(cell)
		sq.units = append(sq.units, &unit{card: card, owner: s.p, avatar: true})
	}
	g.started = true
	g.first = ev.First
	g.active = ev.First
	return nil, nil
}
