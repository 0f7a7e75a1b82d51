package rules

import (
	"github.com/tablecam/tablecam/models"
)

// damage applies damage dealt to a player's Avatar. At 0 life the Avatar is at
// death's door and ignores damage for the rest of that turn; after that, any
// damage is a death blow, which defeats it and ends the game.
func (g *Game) damage(ev models.Event) ([]models.Warning, error) {
	s := &g.seats[ev.Player]
	switch {
	case ev.Amount == 0:
		// A strike for 0 deals no damage, so it is no death blow either.
	case s.defeated:
	case s.deathsDoor && s.immuneThisTurn:
		// Immune to damage for the rest of the turn it reached death's door.
	case s.deathsDoor:
		s.defeated = true
		if g.winner == models.NoPlayer {
			g.winner = ev.Player.Opponent()
		}
	default:
		g.lowerLife(s, ev.Amount)
	}
	return nil, nil
}

// loseLife applies life_loss, such as from an attacked site. Losing life is not
// damage, so it can bring an Avatar to death's door but never deals a death blow.
func (g *Game) loseLife(ev models.Event) ([]models.Warning, error) {
	if s := &g.seats[ev.Player]; !s.deathsDoor && !s.defeated {
		g.lowerLife(s, ev.Amount)
	}
	return nil, nil
}

// gainLife applies life_gain, up to the Avatar's starting life. An Avatar at
// death's door cannot gain life.
func (g *Game) gainLife(ev models.Event) ([]models.Warning, error) {
	s := &g.seats[ev.Player]
	if ev.Amount == 0 {
		return nil, nil
	}
	if s.deathsDoor || s.defeated {
		return []models.Warning{warn(LifeGainAtDeathsDoor, ev.Player, g.avatarCells(ev.Player),
			"%s is at death's door and cannot gain life; the %d life has no effect (Death's Door & Death Blow).", ev.Player, ev.Amount)}, nil
	}
	s.life = min(s.maxLife, s.life+ev.Amount)
	return nil, nil
}

// lowerLife takes life away, down to 0, where the Avatar reaches death's door.
func (g *Game) lowerLife(s *seat, amount int) {
	if amount == 0 {
		return
	}
	s.life = max(0, s.life-amount)
	if s.life == 0 {
		s.deathsDoor = true
		s.immuneThisTurn = true
	}
}

// avatarCells lists the cell of p's Avatar, if it is on the realm.
func (g *Game) avatarCells(p models.Player) []models.Cell {
	if _, c, ok := g.board.avatarOf(p); ok {
		return cellsOf(c)
	}
	return nil
}
