package tracker

import "github.com/tablecam/tablecam/models"

// cellDiff is what changed in one cell's units once a new reading is accepted.
type cellDiff struct {
	removed []Piece
	added   []seen
	// turned are units that stayed and changed their tapped state, with the new state.
	turned []Piece
	// shown are hidden units seen again.
	shown []int
	// named are unnamed units now read with a name, with that name.
	named []Piece
}

// diffUnits matches the units a cell held with those now read there. Cards
// match by name, owner and tapped state first, then by name and owner (the
// card turned), then by name alone (an owner misread is not a new card).
func diffUnits(old []Piece, now []seen) cellDiff {
	usedOld := make([]bool, len(old))
	usedNew := make([]bool, len(now))
	var d cellDiff
	// pair marks old unit o (index i) as the one now read as n (index j).
	pair := func(i, j int, o Piece, n seen) {
		usedOld[i], usedNew[j] = true, true
		if o.Hidden {
			d.shown = append(d.shown, o.ID)
		}
		if o.Tapped != n.Tapped {
			o.Tapped = n.Tapped
			d.turned = append(d.turned, o)
		}
	}
	match := func(same func(Piece, seen) bool) {
		for j, n := range now {
			if usedNew[j] {
				continue
			}
			for i, o := range old {
				if !usedOld[i] && same(o, n) {
					pair(i, j, o, n)
					break
				}
			}
		}
	}
	match(func(o Piece, n seen) bool {
		return sameName(o.Card, n.Card) && o.Owner == n.Owner && o.Tapped == n.Tapped
	})
	match(func(o Piece, n seen) bool { return sameName(o.Card, n.Card) && o.Owner == n.Owner })
	match(func(o Piece, n seen) bool { return sameName(o.Card, n.Card) })
	// An unnamed unit read with a name, of the same owner and kind (an
	// Avatar's name names only an Avatar), is named at last; a named unit
	// read unnamed is the same card, unidentified.
	avatarName := func(n seen) bool { return models.CardType(n.Type) == models.Avatar }
	for _, sameTap := range []bool{true, false} {
		for j, n := range now {
			if usedNew[j] || n.Card == "" {
				continue
			}
			for i, o := range old {
				if !usedOld[i] && o.Card == "" && o.Owner == n.Owner && o.Avatar == avatarName(n) && (!sameTap || o.Tapped == n.Tapped) {
					o.Card = n.Card
					d.named = append(d.named, o)
					pair(i, j, o, n)
					break
				}
			}
		}
	}
	match(func(o Piece, n seen) bool { return n.Card == "" && o.Owner == n.Owner && o.Tapped == n.Tapped })
	match(func(o Piece, n seen) bool { return n.Card == "" && o.Owner == n.Owner })
	for i, o := range old {
		if !usedOld[i] && !o.Hidden {
			d.removed = append(d.removed, o)
		}
	}
	for j, n := range now {
		if !usedNew[j] {
			d.added = append(d.added, n)
		}
	}
	return d
}
