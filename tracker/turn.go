package tracker

import "github.com/tablecam/tablecam/models"

// inferTurn puts turn_end and turn_start before a frame's events when they
// show that the turn has passed:
//   - a player's tapped cards untap: their start phase has begun;
//   - a player who is not active plays a site, summons a unit or taps a card
//     (to attack, or for an ability of their Avatar): only the active player
//     does that, so it is their turn;
//   - before any turn has started, the first player to act (play, summon,
//     tap, move) is the one whose turn it is.
func (t *Tracker) inferTurn(evs []models.Event) []models.Event {
	next := models.NoPlayer
	for _, ev := range evs {
		if ev.Type == models.CardUntapped && ev.Player != models.NoPlayer && ev.Player != t.active {
			next = ev.Player
			break
		}
	}
	if next == models.NoPlayer {
		for _, ev := range evs {
			acts := ev.Type == models.SitePlayed || ev.Type == models.UnitSummoned || ev.Type == models.CardTapped
			if t.active == models.NoPlayer {
				acts = acts || ev.Type == models.CardTapped || ev.Type == models.UnitMoved
			}
			if acts && ev.Player != models.NoPlayer {
				if ev.Player != t.active {
					next = ev.Player
				}
				break
			}
		}
	}
	if next == models.NoPlayer {
		return evs
	}
	var prefix []models.Event
	if t.active != models.NoPlayer {
		prefix = append(prefix, models.Event{Type: models.TurnEnd, Player: t.active})
	}
	prefix = append(prefix, models.Event{Type: models.TurnStart, Player: next})
	t.active = next
	return append(prefix, evs...)
}
