package tracker

import (
	"github.com/tablecam/tablecam/models"
)

// HiddenSight is what one frame shows of a card the tracker holds hidden
// under another: a hidden card often still shows in part (a strip beside the
// card put on it), and that part either still looks as the card did when it
// was last seen (Gone false) or no longer does (Gone true: the card was taken
// away from under the other). A frame that cannot tell gives no sight.
//
// A sight that the card is there may also tell how it lies (Shows): Tapped
// or not, as its look when last read shows it, or that look turned a
// quarter turn where it lay (a card tapped or untapped while vision could
// not read it).
type HiddenSight struct {
	HiddenCard
	Gone          bool
	Shows, Tapped bool
}

// gone is the reading of a hidden card's channel once it has left; a card
// still there reads as "" (the channel's initial accepted reading).
var goneReading = []seen{{Card: "gone"}}

// seeHidden adds a frame's sights of hidden cards to their channels, each
// kept by the hidden piece's ID, and forgets the channels of pieces that are
// no longer hidden.
func (t *Tracker) seeHidden(dur float64, sights []HiddenSight, keep float64) {
	if len(t.under) == 0 && len(sights) == 0 {
		return
	}
	hidden := map[int]bool{}
	for _, c := range models.AllCells() {
		for _, u := range t.board.At(c).Units {
			if u.Hidden && !u.Avatar {
				hidden[u.ID] = true
			}
		}
	}
	for id := range t.under {
		if !hidden[id] {
			delete(t.under, id)
		}
	}
	for _, s := range sights {
		id, ok := t.hiddenPiece(s.HiddenCard)
		if !ok || !hidden[id] {
			continue
		}
		if t.under == nil {
			t.under = map[int]*channel{}
		}
		ch := t.under[id]
		if ch == nil {
			ch = &channel{}
			t.under[id] = ch
		}
		var cards []seen
		if s.Gone {
			cards = goneReading
		}
		ch.add(t.time, dur, cards, false, 0, keep)
		ch.saw(!s.Gone)
	}
}

// hiddenPiece finds the ID of the hidden piece a HiddenCard names.
func (t *Tracker) hiddenPiece(h HiddenCard) (int, bool) {
	if !h.Cell.Valid() {
		return 0, false
	}
	for _, u := range t.board.squares[h.Cell.Index()].Units {
		if u.Hidden && sameName(u.Card, h.Card) && u.Owner == h.Owner {
			return u.ID, true
		}
	}
	return 0, false
}

// hiddenGone gives card_removed for each hidden card whose sights have said
// "gone" for the stability window, and takes it off the board: the camera
// saw it stable before, covered, and no longer there after. One that may be
// settling in another cell waits for it: it moved.
func (t *Tracker) hiddenGone() []models.Event {
	var evs []models.Event
	for _, c := range models.AllCells() {
		for _, u := range t.board.At(c).Units {
			ch := t.under[u.ID]
			if ch == nil || !u.Hidden || u.Avatar {
				continue
			}
			cards, ok := ch.check(t.cfg.Window, 1, t.cfg.Quorum)
			if !ok || len(cards) == 0 {
				continue
			}
			if t.arrivingElsewhere(c, u) {
				// It left from under the other card to settle in another
				// cell, where it is about to be read: a move (see
				// Board.hiddenNear), once that cell's change is accepted.
				continue
			}
			delete(t.under, u.ID)
			ev := models.Event{Type: models.CardRemoved, Player: u.Owner, Cell: models.CellPtr(c), Card: u.Card}
			t.board.removeID(u.ID)
			evs = append(evs, ev)
		}
	}
	return evs
}

// arrivingElsewhere reports whether a card of p's name and owner is
// settling in a cell other than c whose change is not yet accepted.
func (t *Tracker) arrivingElsewhere(c models.Cell, p Piece) bool {
	return p.Card != "" && t.otherCellChanging(c, anyCell, samePiece(p), func(onBoard, reading int) bool { return reading > onBoard })
}

// underPending reports whether a hidden card's sights are changing.
func (t *Tracker) underPending() bool {
	for _, ch := range t.under {
		if ch.pending(t.cfg.Window) {
			return true
		}
	}
	return false
}
