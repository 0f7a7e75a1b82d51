package rules

import (
	"github.com/tablecam/tablecam/models"
)

// State gives the game state after the last applied event: players, realm and
// the warnings that event raised. The result shares nothing with the game.
func (g *Game) State() models.GameState {
	st := models.GameState{
		Event:    len(g.events) - 1,
		Active:   g.active,
		Turn:     g.turn,
		Winner:   g.winner,
		Players:  map[string]models.PlayerState{},
		Warnings: append([]models.Warning{}, g.warnings...),
	}
	for _, p := range models.Players {
		s := g.seats[p]
		ps := models.PlayerState{
			Life: s.life, DeathsDoor: s.deathsDoor, Defeated: s.defeated,
			Mana: g.mana(p), Affinity: g.affinity(p), Sites: g.board.sitesOf(p),
		}
		if s.avatar != nil {
			ps.Avatar = s.avatar.Name
		}
		st.Players[p.String()] = ps
	}
	st.Realm.Cells = map[string]models.CellState{}
	for _, c := range models.AllCells() {
		sq := g.board.at(c)
		if sq.site == nil && len(sq.units) == 0 {
			continue
		}
		var cs models.CellState
		if sq.site != nil {
			cs.Site = &models.SiteState{Card: sq.site.name(), Controller: sq.site.controller}
		}
		for _, u := range sq.units {
			cs.Units = append(cs.Units, models.UnitState{Card: u.card.Name, Owner: u.owner, Tapped: u.tapped, EnteredThisTurn: u.entered})
		}
		st.Realm.Cells[c.String()] = cs
	}
	st.Realm.BodiesOfWater, st.Realm.SpansOfLand = g.groupings()
	return st
}
