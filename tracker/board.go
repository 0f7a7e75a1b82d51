package tracker

import (
	"fmt"
	"strings"

	"github.com/tablecam/tablecam/models"
)

// Piece is one card on the board as the tracker knows it.
type Piece struct {
	// ID numbers the card instance within a game, from 1; two copies of a card
	// have different IDs. Events that act on a piece are traced back to the event
	// that brought it into play through its ID.
	ID     int
	Card   string
	Owner  models.Player
	Tapped bool
	// Avatar marks a player's Avatar, which never leaves the realm.
	Avatar bool
	// Hidden marks a card the camera cannot see: covered by a card put on
	// it. It keeps its place and identity until it shows again.
	Hidden bool
}

// Square is what one cell holds: at most one site (or Rubble) and any units.
type Square struct {
	Site   *Piece
	Rubble bool
	Units  []Piece
}

// Board is the realm as a sequence of events leaves it. The tracker keeps its
// own Board in the names vision reads, so that it compares like with like.
type Board struct {
	squares [models.Columns * models.Rows]Square
	nextID  int
	// covers gives, for each unit that went under others, the IDs of the
	// units that stood in its cell when it did.
	covers map[int][]int
}

// NewBoard gives an empty realm.
func NewBoard() *Board { return &Board{} }

// Clone gives an independent copy.
func (b *Board) Clone() *Board {
	c := *b
	for i := range c.squares {
		sq := &c.squares[i]
		if sq.Site != nil {
			s := *sq.Site
			sq.Site = &s
		}
		sq.Units = append([]Piece(nil), sq.Units...)
	}
	if b.covers != nil {
		c.covers = make(map[int][]int, len(b.covers))
		for id, ids := range b.covers {
			c.covers[id] = append([]int(nil), ids...)
		}
	}
	return &c
}

// At gives a copy of what the cell holds.
func (b *Board) At(c models.Cell) Square {
	sq := b.squares[c.Index()]
	if sq.Site != nil {
		s := *sq.Site
		sq.Site = &s
	}
	sq.Units = append([]Piece(nil), sq.Units...)
	return sq
}

// Find gives the piece named card at cell: the site when card names it (or
// card is empty and there is a site), otherwise the first unit of that name.
func (b *Board) Find(c models.Cell, card string) (Piece, bool) {
	if !c.Valid() {
		return Piece{}, false
	}
	sq := &b.squares[c.Index()]
	if i := sq.unit(card); i >= 0 {
		return sq.Units[i], true
	}
	if sq.Site != nil && (card == "" || sameName(sq.Site.Card, card)) {
		return *sq.Site, true
	}
	return Piece{}, false
}

func (sq *Square) unit(card string) int {
	for i, u := range sq.Units {
		if sameName(u.Card, card) {
			return i
		}
	}
	return -1
}

func sameName(a, b string) bool { return models.NormalizeName(a) == models.NormalizeName(b) }

// Apply plays ev on the board and gives the ID of the piece the event brought
// into play or acted on (0 for events that act on no piece: turns, life, mana).
// An event that names a card the board does not hold there is an error.
func (b *Board) Apply(ev models.Event) (int, error) {
	cell := func(c *models.Cell, field string) (*Square, error) {
		if c == nil || !c.Valid() {
			return nil, fmt.Errorf("%s: %s needs a realm cell", ev.Type, field)
		}
		return &b.squares[c.Index()], nil
	}
	switch ev.Type {
	case models.GameStart:
		for _, s := range []struct {
			seat *models.Seat
			p    models.Player
			def  string
		}{{ev.South, models.South, "C1"}, {ev.North, models.North, "C4"}} {
			if !s.seat.Seated() {
				continue
			}
			c := models.MustCell(s.def)
			if s.seat.Cell != nil {
				c = *s.seat.Cell
			}
			b.nextID++
			sq := &b.squares[c.Index()]
			sq.Units = append(sq.Units, Piece{ID: b.nextID, Card: s.seat.Avatar, Owner: s.p, Avatar: true})
		}
		return 0, nil
	case models.SitePlayed:
		sq, err := cell(ev.Cell, "cell")
		if err != nil {
			return 0, err
		}
		b.nextID++
		sq.Site, sq.Rubble = &Piece{ID: b.nextID, Card: ev.Card, Owner: ev.Player}, false
		return b.nextID, nil
	case models.UnitSummoned:
		sq, err := cell(ev.Cell, "cell")
		if err != nil {
			return 0, err
		}
		b.nextID++
		sq.Units = append(sq.Units, Piece{ID: b.nextID, Card: ev.Card, Owner: ev.Player})
		return b.nextID, nil
	case models.CardTapped, models.CardUntapped:
		sq, err := cell(ev.Cell, "cell")
		if err != nil {
			return 0, err
		}
		tapped := ev.Type == models.CardTapped
		// Of two copies in one cell, turn the one that is not turned yet.
		i := -1
		for j, u := range sq.Units {
			if sameName(u.Card, ev.Card) && (i < 0 || sq.Units[i].Tapped == tapped && u.Tapped != tapped) {
				i = j
			}
		}
		if i >= 0 {
			sq.Units[i].Tapped = tapped
			return sq.Units[i].ID, nil
		}
		if sq.Site != nil && sameName(sq.Site.Card, ev.Card) {
			sq.Site.Tapped = tapped
			return sq.Site.ID, nil
		}
		return 0, fmt.Errorf("%s: no %q at %v", ev.Type, ev.Card, *ev.Cell)
	case models.UnitMoved:
		from, err := cell(ev.From, "from")
		if err != nil {
			return 0, err
		}
		to, err := cell(ev.To, "to")
		if err != nil {
			return 0, err
		}
		i := from.unit(ev.Card)
		if i < 0 {
			return 0, fmt.Errorf("%s: no %q at %v", ev.Type, ev.Card, *ev.From)
		}
		p := from.Units[i]
		from.Units = append(from.Units[:i:i], from.Units[i+1:]...)
		to.Units = append(to.Units, p)
		return p.ID, nil
	case models.CardRemoved:
		sq, err := cell(ev.Cell, "cell")
		if err != nil {
			return 0, err
		}
		if i := sq.unit(ev.Card); i >= 0 {
			id := sq.Units[i].ID
			sq.Units = append(sq.Units[:i:i], sq.Units[i+1:]...)
			return id, nil
		}
		if sq.Site != nil && sameName(sq.Site.Card, ev.Card) {
			id := sq.Site.ID
			sq.Site = nil
			return id, nil
		}
		return 0, fmt.Errorf("%s: no %q at %v", ev.Type, ev.Card, *ev.Cell)
	case models.CardNamed:
		// The unnamed unit of the player at the cell, else the unnamed site.
		sq, err := cell(ev.Cell, "cell")
		if err != nil {
			return 0, err
		}
		for i, u := range sq.Units {
			if u.Card == "" && (ev.Player == models.NoPlayer || u.Owner == ev.Player) {
				sq.Units[i].Card = ev.Card
				return u.ID, nil
			}
		}
		if sq.Site != nil && sq.Site.Card == "" {
			sq.Site.Card = ev.Card
			return sq.Site.ID, nil
		}
		return 0, fmt.Errorf("%s: no unnamed card at %v", ev.Type, *ev.Cell)
	case models.SiteDestroyed:
		sq, err := cell(ev.Cell, "cell")
		if err != nil {
			return 0, err
		}
		if sq.Site == nil {
			return 0, fmt.Errorf("%s: no site at %v", ev.Type, *ev.Cell)
		}
		id := sq.Site.ID
		sq.Site, sq.Rubble = nil, true
		return id, nil
	}
	return 0, nil
}

// String lists the occupied cells, one a line, for tests and logs.
func (b *Board) String() string {
	var sb strings.Builder
	for _, c := range models.AllCells() {
		sq := b.squares[c.Index()]
		if sq.Site == nil && !sq.Rubble && len(sq.Units) == 0 {
			continue
		}
		fmt.Fprintf(&sb, "%v:", c)
		if sq.Site != nil {
			fmt.Fprintf(&sb, " site %s (%v)", sq.Site.Card, sq.Site.Owner)
		}
		if sq.Rubble {
			sb.WriteString(" rubble")
		}
		for _, u := range sq.Units {
			fmt.Fprintf(&sb, " | %s (%v", u.Card, u.Owner)
			if u.Tapped {
				sb.WriteString(", tapped")
			}
			sb.WriteString(")")
		}
		sb.WriteString("\n")
	}
	return sb.String()
}

// setHidden marks the piece with the given ID hidden or shown.
func (b *Board) setHidden(id int, hidden bool) {
	for i := range b.squares {
		for j := range b.squares[i].Units {
			if b.squares[i].Units[j].ID == id {
				b.squares[i].Units[j].Hidden = hidden
			}
		}
	}
}

// noteCovers records the units standing, in sight, in the cell of the unit
// with the given ID as the ones it went under.
func (b *Board) noteCovers(id int) {
	for i := range b.squares {
		sq := &b.squares[i]
		if sq.unitID(id) < 0 {
			continue
		}
		if b.covers == nil {
			b.covers = map[int][]int{}
		}
		for _, u := range sq.Units {
			if u.ID != id && !u.Hidden {
				b.covers[id] = append(b.covers[id], u.ID)
			}
		}
		return
	}
}

// stillCovered reports whether a unit that went under others once has one of
// them still in its cell, in sight, other than those in leaving.
func (b *Board) stillCovered(id int, cell models.Cell, leaving map[int]bool) bool {
	sq := &b.squares[cell.Index()]
	for _, c := range b.covers[id] {
		if i := sq.unitID(c); i >= 0 && !sq.Units[i].Hidden && !leaving[c] {
			return true
		}
	}
	return false
}

func (sq *Square) unitID(id int) int {
	for i, u := range sq.Units {
		if u.ID == id {
			return i
		}
	}
	return -1
}

// removeID takes the unit with the given ID off the board.
func (b *Board) removeID(id int) {
	for i := range b.squares {
		sq := &b.squares[i]
		for j, u := range sq.Units {
			if u.ID == id {
				sq.Units = append(sq.Units[:j:j], sq.Units[j+1:]...)
				delete(b.covers, id)
				return
			}
		}
	}
}

// avatarOf finds a player's Avatar and its cell.
func (b *Board) avatarOf(p models.Player) (Piece, models.Cell, bool) {
	for i := range b.squares {
		for _, u := range b.squares[i].Units {
			if u.Avatar && u.Owner == p {
				return u, models.CellAt(i), true
			}
		}
	}
	return Piece{}, models.Cell{}, false
}

// hiddenNear finds the hidden piece of the same card and owner nearest to cell.
func (b *Board) hiddenNear(p Piece, cell models.Cell) (Piece, models.Cell, bool) {
	best, bestCell, bestDist := Piece{}, models.Cell{}, -1
	for i := range b.squares {
		c := models.CellAt(i)
		for _, u := range b.squares[i].Units {
			if u.Hidden && u.Owner == p.Owner && sameName(u.Card, p.Card) && c != cell {
				if d := c.Distance(cell); bestDist < 0 || d < bestDist {
					best, bestCell, bestDist = u, c, d
				}
			}
		}
	}
	return best, bestCell, bestDist >= 0
}
