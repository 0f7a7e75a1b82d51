package tracker

import (
	"sort"

	"github.com/tablecam/tablecam/models"
)

// move is a unit that left one cell and settled in another.
type move struct {
	piece             Piece
	from, to          models.Cell
	wasTapped, tapped bool
}

// pair matches cards that left a cell with the same cards settling in
// another, nearest first, so that two copies are told apart by position.
// Unmatched halves wait while another cell is still changing in a way that
// could complete them; otherwise they are removals and summons.
func (t *Tracker) pair(removed, arrived []held) (moves []move, removals, summons []held, hidden []int) {
	var gone, come []held
	for _, h := range t.holds {
		if h.arrival {
			come = append(come, h)
		} else {
			gone = append(gone, h)
		}
	}
	gone = append(gone, removed...)
	come = append(come, arrived...)
	type cand struct {
		g, c int
		dist float64
	}
	var cands []cand
	for i, g := range gone {
		for j, c := range come {
			// An Avatar is one of a kind: the owner's Avatar seen in another
			// cell has moved there, whatever name it was read under.
			avatar := g.piece.Avatar && c.piece.Avatar && g.piece.Owner == c.piece.Owner
			if (avatar || sameName(g.piece.Card, c.piece.Card) && g.piece.Owner == c.piece.Owner) && g.cell != c.cell {
				d := float64(g.cell.Distance(c.cell))
				if g.piece.Tapped != c.piece.Tapped {
					d += 0.5
				}
				cands = append(cands, cand{i, j, d})
			}
		}
	}
	sort.SliceStable(cands, func(a, b int) bool { return cands[a].dist < cands[b].dist })
	usedG, usedC := make([]bool, len(gone)), make([]bool, len(come))
	for _, p := range cands {
		if usedG[p.g] || usedC[p.c] {
			continue
		}
		usedG[p.g], usedC[p.c] = true, true
		g, c := gone[p.g], come[p.c]
		moves = append(moves, move{piece: g.piece, from: g.cell, to: c.cell, wasTapped: g.piece.Tapped, tapped: c.piece.Tapped})
	}
	sort.SliceStable(moves, func(a, b int) bool { return moves[a].from.Index() < moves[b].from.Index() })
	t.holds = t.holds[:0]
	leaving := map[int]bool{}
	for _, g := range gone {
		leaving[g.piece.ID] = true
	}
	for i, g := range gone {
		if usedG[i] {
			continue
		}
		if g.until == 0 && t.mayArrive(g) {
			g.until = t.time + t.moveHold(g.piece)
		}
		if g.until > t.time && t.mayArrive(g) {
			t.holds = append(t.holds, g)
			continue
		}
		if g.piece.Avatar || t.coveredBy(g, come) || t.board.stillCovered(g.piece.ID, g.cell, leaving) {
			// An Avatar does not leave the realm, a card that vanishes as
			// another is put in its cell is under it, and so is one that went
			// under another once, showed in part, and vanishes again while
			// that other still stands there: each is hidden.
			hidden = append(hidden, g.piece.ID)
			continue
		}
		removals = append(removals, g)
	}
	for i, c := range come {
		if usedC[i] {
			continue
		}
		// An unnamed card is not told from another unnamed one of its
		// owner: one that comes out is a new card, not a hidden one.
		if !c.piece.Avatar && c.piece.Card != "" {
			if p, from, ok := t.board.hiddenNear(c.piece, c.cell); ok {
				// A card that was hidden under another came out in a new cell.
				moves = append(moves, move{piece: p, from: from, to: c.cell, wasTapped: p.Tapped, tapped: c.piece.Tapped})
				continue
			}
		}
		if c.until == 0 && t.mayLeave(c) {
			c.until = t.time + t.moveHold(c.piece)
		}
		if c.until > t.time && t.mayLeave(c) {
			t.holds = append(t.holds, c)
			continue
		}
		if c.piece.Avatar {
			// Avatars are not summoned: the owner's hidden Avatar moved here,
			// or this is a misread.
			if a, from, ok := t.board.avatarOf(c.piece.Owner); ok && a.Hidden && from != c.cell {
				moves = append(moves, move{piece: a, from: from, to: c.cell, wasTapped: a.Tapped, tapped: c.piece.Tapped})
			}
			continue
		}
		summons = append(summons, c)
	}
	return moves, removals, summons, hidden
}

// moveHold is how long half of a possible move waits for its other half:
// MoveHold, and for an unnamed card UnnamedHold more, since its arrival is
// accepted only once it has stayed unnamed that long.
func (t *Tracker) moveHold(p Piece) float64 {
	if p.Card == "" {
		return t.cfg.MoveHold + t.cfg.UnnamedHold
	}
	return t.cfg.MoveHold
}

// coveredBy reports whether a card that left its cell may be under a card
// that arrived in the same cell (summoned, or moved there).
func (t *Tracker) coveredBy(g held, come []held) bool {
	for _, c := range come {
		if c.cell == g.cell {
			return true
		}
	}
	return false
}

// mayArrive reports whether a card that left its cell may be settling in
// another cell whose change is not yet accepted.
func (t *Tracker) mayArrive(h held) bool {
	return t.otherCellChanging(h.cell, h.piece, func(onBoard, reading int) bool { return reading > onBoard })
}

// mayLeave reports whether a card that settled in a cell may be leaving
// another cell whose change is not yet accepted.
func (t *Tracker) mayLeave(h held) bool {
	return t.otherCellChanging(h.cell, h.piece, func(onBoard, reading int) bool { return reading < onBoard })
}

func (t *Tracker) otherCellChanging(except models.Cell, p Piece, differs func(onBoard, reading int) bool) bool {
	for _, c := range models.AllCells() {
		if c == except {
			continue
		}
		ch := &t.cells[c.Index()].units
		if !ch.pending(t.cfg.Window) {
			continue
		}
		onBoard := 0
		for _, u := range shownUnits(t.board.At(c)) {
			if sameName(u.Card, p.Card) && u.Owner == p.Owner {
				onBoard++
			}
		}
		// Any reading of the last window that shows the card coming or going.
		total := 0.0
		for i := len(ch.samples) - 1; i >= 0 && total < t.cfg.Window; i-- {
			total += ch.samples[i].dur
			reading := 0
			for _, u := range ch.samples[i].cards {
				if sameName(u.Card, p.Card) && u.Owner == p.Owner {
					reading++
				}
			}
			if differs(onBoard, reading) {
				return true
			}
		}
	}
	return false
}
