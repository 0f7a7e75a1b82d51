package rules

import (
	"fmt"

	"github.com/tablecam/tablecam/models"
)

// affinity sums the threshold symbols of the sites p controls (Rubble gives
// nothing), the threshold p's other cards provide ("Provides (F)") and what
// p's Avatar gives them ("You have an additional (E)(F)(W)(A)").
func (g *Game) affinity(p models.Player) models.Thresholds {
	var t models.Thresholds
	if a := g.seats[p].avatar; a != nil {
		t = t.Add(g.provisionOf(a).threshold)
	}
	t = t.Add(g.seats[p].thresholdThisTurn)
	for i := range g.board {
		sq := &g.board[i]
		if g.providesTo(sq.site, p) {
			t = t.Add(g.siteAffinity(models.CellAt(i), sq.site))
		}
		for _, u := range sq.units {
			if u.owner == p && !u.avatar {
				t = t.Add(g.provisionOf(u.card).threshold)
			}
		}
	}
	return t
}

// mana gives p's pool as shown: what their sites provided this turn and what is
// left. The inactive player has no mana.
func (g *Game) mana(p models.Player) models.ManaState {
	s := &g.seats[p]
	return models.ManaState{Available: s.available(), Total: s.manaTotal}
}

// spend takes amount from p's pool. When the pool is short it warns and
// empties the pool: the table shows the card was paid for anyway. what starts
// the warning's sentence, such as "Fireball costs 4 mana".
func (g *Game) spend(p models.Player, amount int, cells []models.Cell, what string) []models.Warning {
	s := &g.seats[p]
	have := s.available()
	s.manaSpent += min(amount, have)
	if amount <= have {
		return nil
	}
	if !g.inTurn(p) {
		return []models.Warning{warn(ManaInsufficient, p, cells,
			"%s but %s has no mana outside their own turn; mana is gained only during your turn and unspent mana is lost at its end (Mana).",
			what, p)}
	}
	return []models.Warning{warn(ManaInsufficient, p, cells,
		"%s but %s has %d available; you cannot pay a cost that exceeds the mana available (Using Mana).",
		what, p, have)}
}

// spendMana applies mana_spent (an ability's cost, typed by a player).
func (g *Game) spendMana(ev models.Event) ([]models.Warning, error) {
	g.act(ev.Player)
	return g.spend(ev.Player, ev.Amount, nil, fmt.Sprintf("%s spent %d mana", ev.Player, ev.Amount)), nil
}
