package tracker

import (
	"sort"
	"strconv"
	"strings"

	"github.com/tablecam/tablecam/models"
)

// seen is one card as a frame read it, reduced to what the tracker compares.
type seen struct {
	Card   string
	Owner  models.Player
	Tapped bool
	// Type is the catalog type vision gave ("Site", "Minion", "Avatar", …).
	Type string
	conf float64
	// kind is the outline's size vision read (site, standard card or
	// token); for a card the board holds, the kind it was read with when
	// named (Tracker.kinds), or "" when not known.
	kind models.CardKind
	// at and area are the outline's centre and area in image pixels, area
	// 0 when vision gave no outline.
	at   models.Point
	area float64
}

// role says which channel of its cell a card belongs to.
type role int8

const (
	roleSite role = iota
	roleUnit
	roleSpell
)

func roleOf(o models.CardObservation) role {
	if o.Type != nil {
		switch models.CardType(*o.Type) {
		case models.Site:
			return roleSite
		case models.Magic:
			return roleSpell
		}
		return roleUnit
	}
	if o.Kind == models.KindSite {
		return roleSite
	}
	return roleUnit
}

// cellReading is what one frame says about one cell. A channel that the
// frame could not read with confidence is marked unsure and adds no sample.
type cellReading struct {
	site, units, spells []seen
	spellsSure          bool
	anyUnit             bool
	// unsureSite and unsureUnits are the cards of the cell that were seen
	// but not read with confidence; the tracker may carry their identity.
	unsureSite  *seen
	unsureUnits []seen
	// weakSite is unsureSite with the name vision gave it, when it gave one
	// with at least half the confidence needed: a vote, not a reading.
	weakSite *seen
	// keptSite and keptUnits mark a site and units put in the reading
	// because the place they lay still looks as it did (keepSighted).
	keptSite, keptUnits bool
}

// readFrame sorts a frame's cards into cells and channels.
func readFrame(obs models.FrameObservation, minConfidence float64) [models.Columns * models.Rows]cellReading {
	var cells [models.Columns * models.Rows]cellReading
	for i := range cells {
		cells[i].spellsSure = true
	}
	for _, o := range obs.Cards {
		if o.Cell == nil || !o.Cell.Valid() {
			continue
		}
		r := &cells[o.Cell.Index()]
		sure := o.Identified() && o.Confidence >= minConfidence
		s := seen{Owner: o.Owner, Tapped: o.Tapped, conf: o.Confidence, kind: o.Kind, at: o.Quad.Center(), area: o.Quad.Area()}
		if o.Token {
			s.kind = models.KindToken
		}
		if o.Identified() {
			s.Card = *o.Name
		}
		if o.Type != nil {
			s.Type = *o.Type
		}
		if !sure {
			s.Card = "" // a name read with low confidence is not evidence
		}
		switch roleOf(o) {
		case roleSite:
			s.Tapped = false // sites do not tap; a landscape shape never means tapped
			if !sure {
				if r.unsureSite == nil {
					r.unsureSite = &s
				}
				if o.Identified() && o.Confidence >= minConfidence/2 && (r.weakSite == nil || o.Confidence > r.weakSite.conf) {
					weak := s
					weak.Card = *o.Name
					r.weakSite = &weak
				}
				continue
			}
			// Two sites read in one cell are a misread: the most confident stands.
			if len(r.site) == 0 || s.conf > r.site[0].conf {
				r.site = []seen{s}
			}
		case roleSpell:
			r.spellsSure = r.spellsSure && sure
			if sure {
				r.spells = append(r.spells, s)
			}
		default:
			r.anyUnit = true
			if !sure {
				r.unsureUnits = append(r.unsureUnits, s)
				continue
			}
			r.units = append(r.units, s)
		}
	}
	return cells
}

// changesUnnamed reports whether a reading puts an unnamed card on the
// board or takes one off, compared with the cell's known cards (ref): it
// holds more unnamed cards of some player, or fewer cards of a player with
// fewer unnamed ones. An unnamed card read with a name is neither.
func changesUnnamed(reading, ref []seen) bool {
	type count struct{ unnamed, all int }
	n := map[models.Player]count{}
	for _, c := range reading {
		k := n[c.Owner]
		k.all++
		if c.Card == "" {
			k.unnamed++
		}
		n[c.Owner] = k
	}
	for _, c := range ref {
		k := n[c.Owner]
		k.all--
		if c.Card == "" {
			k.unnamed--
		}
		n[c.Owner] = k
	}
	for _, k := range n {
		if k.unnamed > 0 || k.all < 0 && k.unnamed < 0 {
			return true
		}
	}
	return false
}

// hasUnnamed reports whether a reading holds a card that has no name.
func hasUnnamed(cards []seen) bool {
	for _, c := range cards {
		if c.Card == "" {
			return true
		}
	}
	return false
}

// carryOrUnnamed completes a cell reading that carry could not: each card
// seen but not read with confidence takes the identity of a card the cell
// holds (ref) of the same owner and tapped state, one card each, and the
// others stay unnamed: a card the catalog lacks is still a card on the board.
func carryOrUnnamed(sure, unsure, ref []seen) []seen {
	pool := withoutCopiesOf(ref, sure)
	out := append([]seen(nil), sure...)
	for _, u := range unsure {
		c := u
		c.Card, c.Type = "", ""
		for j, p := range pool {
			if mayBe(u, p) {
				c = p
				c.conf = u.conf
				pool = append(pool[:j:j], pool[j+1:]...)
				break
			}
		}
		out = append(out, c)
	}
	return out
}

// key encodes a list of cards, order-free, so that equal readings compare equal.
func key(cards []seen) string {
	parts := make([]string, len(cards))
	for i, c := range cards {
		parts[i] = pieceKey(c.Card, c.Owner, c.Tapped)
	}
	sort.Strings(parts)
	return strings.Join(parts, "\n")
}

func pieceKey(card string, owner models.Player, tapped bool) string {
	return models.NormalizeName(card) + "\x00" + strconv.Itoa(int(owner)) + "\x00" + strconv.FormatBool(tapped)
}

// squareKeys gives the keys a board square would read as.
func squareKeys(sq Square) (site, units string) {
	if sq.Site != nil {
		site = pieceKey(sq.Site.Card, sq.Site.Owner, false)
	}
	return site, key(piecesSeen(shownUnits(sq)))
}

// carry completes a cell reading with cards that were seen but not read
// with confidence, by giving each the identity of a card that the cell is
// known to hold or is becoming: the same owner and tapped state, preferring
// the same name. A card that matches nothing leaves the reading unsure.
func carry(sure, unsure []seen, refs ...[]seen) ([]seen, bool) {
	if len(unsure) == 0 {
		return sure, true
	}
	for _, ref := range refs {
		// Cards read with confidence account for their own copies first.
		pool := withoutCopiesOf(ref, sure)
		out, ok := append([]seen(nil), sure...), true
		for _, u := range unsure {
			found := firstMayBe(u, pool)
			if found < 0 {
				ok = false
				break
			}
			c := pool[found]
			c.conf = u.conf
			out = append(out, c)
			pool = append(pool[:found:found], pool[found+1:]...)
		}
		if ok {
			return out, true
		}
	}
	return nil, false
}

// mayBe reports whether u, a card seen but not read with confidence, may
// be p, a card the cell holds or is becoming: the same owner and tapped
// state, or any tapped state when u is token-sized and p a standard card.
// Such an outline is the part of p that another card leaves showing (most
// often one put on it), and its shape says nothing of how p is turned.
func mayBe(u, p seen) bool {
	if u.Owner != p.Owner {
		return false
	}
	return u.Tapped == p.Tapped || u.kind == models.KindToken && p.kind == models.KindStandard
}

// piecesSeen lists board pieces as readings.
func piecesSeen(ps []Piece) []seen {
	out := make([]seen, len(ps))
	for i, p := range ps {
		out[i] = seen{Card: p.Card, Owner: p.Owner, Tapped: p.Tapped}
	}
	return out
}

// shownUnits lists the units of a square that the camera can see.
func shownUnits(sq Square) []Piece {
	var shown []Piece
	for _, u := range sq.Units {
		if !u.Hidden {
			shown = append(shown, u)
		}
	}
	return shown
}

// withoutHidden drops from unsure the cards that can be units hidden in the
// square (the same owner and tapped state, and the same name when one was
// read), one card for each hidden unit, and reports whether it dropped any.
func withoutHidden(unsure []seen, sq Square) ([]seen, bool) {
	var hidden []Piece
	for _, u := range sq.Units {
		if u.Hidden {
			hidden = append(hidden, u)
		}
	}
	if len(hidden) == 0 {
		return unsure, false
	}
	var rest []seen
	dropped := false
	for _, s := range unsure {
		match := -1
		for i, h := range hidden {
			if h.Owner == s.Owner && h.Tapped == s.Tapped && (s.Card == "" || sameName(s.Card, h.Card)) {
				match = i
				break
			}
		}
		if match < 0 {
			rest = append(rest, s)
			continue
		}
		hidden = append(hidden[:match:match], hidden[match+1:]...)
		dropped = true
	}
	return rest, dropped
}

// withoutCopiesOf returns a copy of ref without one card of the same name and
// owner for each card of sure.
func withoutCopiesOf(ref, sure []seen) []seen {
	pool := append([]seen(nil), ref...)
	for _, s := range sure {
		for i, p := range pool {
			if sameName(p.Card, s.Card) && p.Owner == s.Owner {
				pool = append(pool[:i:i], pool[i+1:]...)
				break
			}
		}
	}
	return pool
}

// firstMayBe gives the place in pool of the first card an unsure reading u
// may be (mayBe), or -1 when it may be none of them.
func firstMayBe(u seen, pool []seen) int {
	for i, p := range pool {
		if mayBe(u, p) {
			return i
		}
	}
	return -1
}
