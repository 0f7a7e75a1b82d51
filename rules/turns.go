package rules

import (
	"github.com/tablecam/tablecam/models"
)

// turnStart applies turn_start: the start phase untaps the player's cards and
// their sites provide mana.
func (g *Game) turnStart(ev models.Event) ([]models.Warning, error) {
	var ws []models.Warning
	p := ev.Player
	if g.phase == phaseStart || g.phase == phaseMain {
		g.endTurn() // the previous turn's end was not recorded
	}
	switch {
	case g.turn == 0 && g.first != models.NoPlayer && p != g.first:
		ws = append(ws, warn(TurnOutOfOrder, p, nil,
			"%s took the first turn, but game_start gave it to %s; the chosen first player takes the first turn (Setup).", p, g.first))
	case g.turn > 0 && p == g.active:
		ws = append(ws, warn(TurnOutOfOrder, p, nil,
			"%s started a second turn in a row; players take their turns one at a time (Turn Summary).", p))
	}
	g.turn++
	g.active = p
	g.phase = phaseStart
	for i := range g.board {
		for _, u := range g.board[i].units {
			u.entered, u.sickWarned = false, false
			if u.owner == p {
				u.tapped, u.tapUnused = false, false
			}
		}
	}
	for _, q := range models.Players {
		g.seats[q].clearTurn()
	}
	g.seats[p].manaTotal = g.manaProvided(p)
	return ws, nil
}

// turnEnd applies turn_end: unspent mana is lost and summoning sickness ends.
func (g *Game) turnEnd(ev models.Event) ([]models.Warning, error) {
	p := ev.Player
	if p != g.active || g.phase == phaseNone || g.phase == phaseEnded {
		return []models.Warning{warn(TurnOutOfOrder, p, nil,
			"%s ended a turn that was not under way; only the active player ends their turn (Turn Summary).", p)}, nil
	}
	g.endTurn()
	return nil, nil
}

// endTurn is the end phase of the active player's turn.
func (g *Game) endTurn() {
	for _, q := range models.Players {
		g.seats[q].clearTurn()
	}
	for i := range g.board {
		for _, u := range g.board[i].units {
			u.entered, u.sickWarned = false, false
		}
	}
	g.phase = phaseEnded
}

// act notes that the active player did something in their main phase, which
// closes the start phase (their cards no longer untap of their own accord).
func (g *Game) act(p models.Player) {
	if p == g.active && g.phase == phaseStart {
		g.phase = phaseMain
	}
}

// inTurn reports whether p is the active player with their turn under way.
func (g *Game) inTurn(p models.Player) bool {
	return p == g.active && (g.phase == phaseStart || g.phase == phaseMain)
}

// inactiveWarning warns when p acts outside their own turn where the rules
// allow actions only in the main phase of one's own turn.
func (g *Game) inactiveWarning(p models.Player, cells []models.Cell, what string) []models.Warning {
	if g.inTurn(p) {
		return nil
	}
	return []models.Warning{warn(TurnInactivePlayer, p, cells,
		"%s %s outside their own turn; spells are cast and sites played only in the main phase of your own turn (Activated Ability).", p, what)}
}
