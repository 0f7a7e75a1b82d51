package tracker

import (
	"slices"

	"github.com/tablecam/tablecam/models"
)

// inferTurn puts turn_end and turn_start before a frame's events when they
// show that the turn has passed:
//   - a player's tapped cards untap: their start phase has begun;
//   - a player who is not active plays a site, summons a unit or taps a card
//     (to attack, or for an ability of their Avatar): only the active player
//     does that, so it is their turn;
//   - before any turn has started, the first player to act (play, summon,
//     tap, move) is the one whose turn it is.
//
// A frame accepted long after the last hand left (lateFind) shows cards
// vision found late, put down or turned under an earlier hand, maybe in an
// earlier turn: its plays, summons and taps say nothing of whose turn it is.
//
// shown lists the hidden units the frame shows again. One the start phase
// untaps that shows again tapped (its tapped state unchanged, so no event
// of its own) was tapped again since: card_tapped follows.
func (t *Tracker) inferTurn(evs []models.Event, shown []int) []models.Event {
	next := models.NoPlayer
	for _, ev := range evs {
		if ev.Type == models.CardUntapped && ev.Player != models.NoPlayer && ev.Player != t.active {
			next = ev.Player
			break
		}
	}
	if next == models.NoPlayer && !t.foundLate() {
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
	untapped := map[int]bool{}
	if next != models.NoPlayer {
		var prefix []models.Event
		if t.active != models.NoPlayer {
			prefix = append(prefix, models.Event{Type: models.TurnEnd, Player: t.active})
		}
		prefix = append(prefix, models.Event{Type: models.TurnStart, Player: next})
		// The start phase untaps the player's cards, hidden ones too.
		var retapped []models.Event
		for _, c := range models.AllCells() {
			for _, u := range t.board.At(c).Units {
				if u.Hidden && u.Tapped && u.Owner == next && !mentions(evs, models.CardUntapped, c, u.Card) {
					prefix = append(prefix, models.Event{Type: models.CardUntapped, Player: next, Cell: models.CellPtr(c), Card: u.Card})
					untapped[u.ID] = true
					if slices.Contains(shown, u.ID) {
						retapped = append(retapped, models.Event{Type: models.CardTapped, Player: next, Cell: models.CellPtr(c), Card: u.Card})
					}
				}
			}
		}
		t.active = next
		evs = append(append(prefix, evs...), retapped...)
	}
	return t.avatarTaps(evs, untapped)
}

// lateFind is how long, in seconds of video, after the last hand left the
// realm a change is accepted at the latest when that hand made it: the
// stability window, an unnamed card's hold (UnnamedHold, half again when
// it joins another change) and a second more for frames vision was not
// given. A change accepted later is a card found late (see inferTurn).
func (t *Tracker) lateFind() float64 {
	return 2*t.cfg.Window + 1.5*t.cfg.UnnamedHold + 1
}

// foundLate reports whether this frame's changes are accepted too long
// after the last hand to have been made by it.
func (t *Tracker) foundLate() bool {
	return t.handSeen && t.time-t.lastHand > t.lateFind()
}

// avatarTaps adds card_tapped for a hidden Avatar whose player plays a site:
// a site is played with the Avatar's tap ability, which the camera cannot
// see on a covered Avatar.
func (t *Tracker) avatarTaps(evs []models.Event, untapped map[int]bool) []models.Event {
	done := map[models.Player]bool{}
	out := evs
	for _, ev := range evs {
		if ev.Type != models.SitePlayed || done[ev.Player] {
			continue
		}
		a, cell, ok := t.board.avatarOf(ev.Player)
		if !ok || !a.Hidden || a.Tapped && !untapped[a.ID] || mentions(evs, models.CardTapped, cell, a.Card) {
			// (a tap seen on the frame, as of an Avatar showing again, is its tap)
			continue
		}
		out = append(out, models.Event{Type: models.CardTapped, Player: a.Owner, Cell: models.CellPtr(cell), Card: a.Card})
		done[ev.Player] = true
	}
	return out
}

// mentions reports whether evs has an event of type typ about card at cell.
func mentions(evs []models.Event, typ models.EventType, cell models.Cell, card string) bool {
	for _, ev := range evs {
		if ev.Type == typ && ev.Cell != nil && *ev.Cell == cell && sameName(ev.Card, card) {
			return true
		}
	}
	return false
}
