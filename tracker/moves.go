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
func (t *Tracker) pair(removed, arrived []held) (moves, returned []move, removals, summons []held, hidden []int) {
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
	usedG, usedC := make([]bool, len(gone)), make([]bool, len(come))
	// A card back in the cell it left, while its leaving waits, never left:
	// vision lost it for a moment. It only turned, if it came back turned.
	for i, g := range gone {
		for j, c := range come {
			if !usedC[j] && c.cell == g.cell && sameCard(g.piece, c.piece) {
				usedG[i], usedC[j] = true, true
				returned = append(returned, move{piece: g.piece, from: g.cell, to: c.cell, wasTapped: g.piece.Tapped, tapped: c.piece.Tapped})
				break
			}
		}
	}
	type cand struct {
		g, c int
		dist float64
	}
	var cands []cand
	for i, g := range gone {
		if usedG[i] {
			continue
		}
		for j, c := range come {
			if usedC[j] {
				continue
			}
			// An Avatar is one of a kind: the owner's Avatar seen in another
			// cell has moved there, whatever name it was read under.
			avatar := g.piece.Avatar && c.piece.Avatar && g.piece.Owner == c.piece.Owner
			// A card vision cannot name settling next to where a card of
			// its owner left is that card, read badly: it keeps its name.
			// Cards of the same name pair first.
			unnamed := unnamedArrival(g.piece, c.piece) && g.cell.Distance(c.cell) <= unnamedReach
			if (avatar || unnamed || sameName(g.piece.Card, c.piece.Card) && g.piece.Owner == c.piece.Owner) && g.cell != c.cell {
				d := float64(g.cell.Distance(c.cell))
				if g.piece.Tapped != c.piece.Tapped {
					d += 0.5
				}
				if unnamed {
					d += unnamedPairing
				}
				cands = append(cands, cand{i, j, d})
			}
		}
	}
	sort.SliceStable(cands, func(a, b int) bool { return cands[a].dist < cands[b].dist })
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
			if t.mayArriveUnnamed(g) {
				// (an unnamed card is accepted after UnnamedHold)
				g.until += t.cfg.UnnamedHold
			}
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
	return moves, returned, removals, summons, hidden
}

// sameCard reports whether two pieces may be one card: the same owner and
// name, or both unnamed (the Avatar flag alike).
func sameCard(a, b Piece) bool {
	if a.Owner != b.Owner || a.Avatar != b.Avatar && a.Card == "" {
		return false
	}
	return sameName(a.Card, b.Card)
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

// unnamedPairing is added to the distance of a card that left and an
// unnamed card that settled, so that cards of the same name pair first;
// they pair only when no further apart than unnamedReach (a step). anyCell
// reaches the whole realm.
const (
	unnamedPairing = 10
	unnamedReach   = 1
	anyCell        = models.Columns + models.Rows
)

// unnamedArrival reports whether arrived, a card with no name, may be gone,
// a named card of the same owner (neither an Avatar), read badly.
func unnamedArrival(gone, arrived Piece) bool {
	return gone.Card != "" && arrived.Card == "" && !gone.Avatar && !arrived.Avatar && gone.Owner == arrived.Owner
}

// mayArrive reports whether a card that left its cell may be settling in
// another cell whose change is not yet accepted: read under its name, or
// (mayArriveUnnamed) as a card vision cannot name.
func (t *Tracker) mayArrive(h held) bool {
	return t.otherCellChanging(h.cell, anyCell, samePiece(h.piece), func(onBoard, reading int) bool { return reading > onBoard }) ||
		t.mayArriveUnnamed(h)
}

// mayArriveUnnamed reports whether a named card that left its cell may be
// settling in another cell as a card vision cannot name.
func (t *Tracker) mayArriveUnnamed(h held) bool {
	if h.piece.Card == "" || h.piece.Avatar {
		return false
	}
	unnamed := func(card string, owner models.Player) bool { return card == "" && owner == h.piece.Owner }
	return t.otherCellChanging(h.cell, unnamedReach, unnamed, func(onBoard, reading int) bool { return reading > onBoard })
}

// mayLeave reports whether a card that settled in a cell may be leaving
// another cell whose change is not yet accepted; for a card with no name,
// any card of its owner.
func (t *Tracker) mayLeave(h held) bool {
	leaving := func(match func(string, models.Player) bool, within int) bool {
		return t.otherCellChanging(h.cell, within, match, func(onBoard, reading int) bool { return reading < onBoard })
	}
	if h.piece.Card == "" && !h.piece.Avatar && leaving(func(_ string, owner models.Player) bool { return owner == h.piece.Owner }, unnamedReach) {
		return true
	}
	return leaving(samePiece(h.piece), anyCell)
}

// samePiece matches cards of p's name and owner.
func samePiece(p Piece) func(string, models.Player) bool {
	return func(card string, owner models.Player) bool { return sameName(card, p.Card) && owner == p.Owner }
}

// otherCellChanging reports whether a cell other than except, no further
// from it than within, whose units are changing, reads in the last window a number of the cards match takes
// that differs (as differs says) from the number the board holds there.
func (t *Tracker) otherCellChanging(except models.Cell, within int, match func(string, models.Player) bool, differs func(onBoard, reading int) bool) bool {
	for _, c := range models.AllCells() {
		if c == except || c.Distance(except) > within {
			continue
		}
		ch := &t.cells[c.Index()].units
		if !ch.pending(t.cfg.Window) {
			continue
		}
		onBoard := 0
		for _, u := range shownUnits(t.board.At(c)) {
			if match(u.Card, u.Owner) {
				onBoard++
			}
		}
		// Any reading of the last window that shows the card coming or going.
		total := 0.0
		for i := len(ch.samples) - 1; i >= 0 && total < t.cfg.Window; i-- {
			total += ch.samples[i].dur
			reading := 0
			for _, u := range ch.samples[i].cards {
				if match(u.Card, u.Owner) {
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
