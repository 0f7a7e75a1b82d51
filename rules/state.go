package rules

import (
	"github.com/tablecam/tablecam/models"
)

// State gives the game state after the last applied event: players, realm,
// the warnings that event raised and those that stand on the board now. The
// result shares nothing with the game.
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
			UnnamedSites: g.unnamedSites(p),
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
			cs.Site = &models.SiteState{Card: sq.site.name(), Controller: sq.site.controller, Unnamed: !sq.site.known()}
		}
		for _, u := range sq.units {
			cs.Units = append(cs.Units, models.UnitState{Card: u.card.Name, Owner: u.owner, Tapped: u.tapped, EnteredThisTurn: u.entered,
				Avatar: u.avatar, Unnamed: unnamed(u.card)})
		}
		st.Realm.Cells[c.String()] = cs
	}
	st.Realm.BodiesOfWater, st.Realm.SpansOfLand = g.groupings()
	st.Standing = g.standing()
	return st
}

// standing lists what breaks the rules on the board now, cell by cell: a
// minion that should have been banished from the void or should have died
// under its site but is still on the table, and a Waterbound or Landbound
// minion where it is disabled. A game that ended has none.
func (g *Game) standing() []models.Warning {
	ws := []models.Warning{}
	if g.winner != models.NoPlayer {
		return ws
	}
	for _, c := range models.AllCells() {
		sq := g.board.at(c)
		if sq.site == nil {
			for _, u := range sq.units {
				if u.minion() && !u.voidwalks() {
					ws = append(ws, warn(UnitVoid, u.owner, cellsOf(c),
						"%s is still in the void at %s; a minion without Voidwalk in the void is banished: take it off the table (The Void).",
						u.card.Name, c))
				}
			}
			continue
		}
		g.forbiddenUnder(c, func(u *unit, site, region string, need models.Keyword) {
			ws = append(ws, warn(UnitSubsurface, u.owner, cellsOf(c),
				"%s is still under %s at %s (%s) without %s; a minion in the subsurface without it dies: put it in its owner's cemetery (The Subsurface).",
				u.card.Name, site, c, region, need))
		})
		ws = append(ws, g.boundWarnings(c, nil)...)
	}
	return ws
}
