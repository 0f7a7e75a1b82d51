package tracker

import (
	"fmt"

	"github.com/tablecam/tablecam/models"
)

// missingAvatarAfter is how long, in seconds of video read, the realm must
// show cards but not both Avatars before the game starts with the missing
// ones unseen (see baseline): the first board's two stability windows and a
// second more, in which the pipeline has doubted a realm that shows no
// Avatar and vision has had many looks at a card put down. Much longer and
// the first turn's plays come seconds late.
const missingAvatarAfter = 1.5

// baseline takes the first stable board: game_start with the Avatars on it,
// then any other card already in play. A player whose Avatar cannot be
// named (the catalog lacks its face) has as Avatar their unnamed card
// nearest their home cell: named SouthAvatar or NorthAvatar when
// configured, else unnamed. The first board is still, no hand over it, so
// a card unnamed on most of its frames (majority) is no card being put down
// and UnnamedHold does not apply: it is named later if a frame names it.
func (t *Tracker) baseline() []models.Event {
	if t.observed < 2*t.cfg.Window-1e-9 {
		t.status = "reading the board"
		return nil
	}
	type found struct {
		cell  models.Cell
		cards []seen
	}
	var sites, units, spells []found
	avatars := map[models.Player]found{}
	for _, c := range models.AllCells() {
		ch := &t.cells[c.Index()]
		for _, x := range []*channel{&ch.site, &ch.units, &ch.spells} {
			if _, share, ok := x.majority(2 * t.cfg.Window); ok && share <= 0.5 {
				t.status = "reading the board"
				return nil
			}
		}
		if s, _, ok := ch.site.majority(2 * t.cfg.Window); ok && len(s) > 0 {
			sites = append(sites, found{c, s})
		}
		if us, _, ok := ch.units.majority(2 * t.cfg.Window); ok {
			var rest []seen
			for _, u := range us {
				if models.CardType(u.Type) == models.Avatar {
					if _, dup := avatars[u.Owner]; !dup && u.Owner != models.NoPlayer {
						avatars[u.Owner] = found{c, []seen{u}}
						continue
					}
				}
				rest = append(rest, u)
			}
			if len(rest) > 0 {
				units = append(units, found{c, rest})
			}
		}
		if sp, _, ok := ch.spells.majority(2 * t.cfg.Window); ok && len(sp) > 0 {
			spells = append(spells, found{c, sp})
		}
	}
	for _, p := range []models.Player{models.South, models.North} {
		if _, ok := avatars[p]; ok {
			continue
		}
		// The player's unnamed unit nearest their home cell.
		home := models.MustCell("C1")
		if p == models.North {
			home = models.MustCell("C4")
		}
		bi, bj, best := -1, -1, 0
		for i, u := range units {
			for j, card := range u.cards {
				if card.Card == "" && card.Owner == p && (bi < 0 || u.cell.Distance(home) < best) {
					bi, bj, best = i, j, u.cell.Distance(home)
				}
			}
		}
		if bi < 0 {
			continue
		}
		u := units[bi]
		avatar := u.cards[bj]
		avatars[p] = found{u.cell, []seen{avatar}}
		units[bi].cards = append(u.cards[:bj:bj], u.cards[bj+1:]...)
	}
	seat := func(p models.Player, def, configured string) *models.Seat {
		if a, ok := avatars[p]; ok {
			s := &models.Seat{Avatar: a.cards[0].Card, Unnamed: a.cards[0].Card == ""}
			if s.Unnamed && configured != "" {
				s.Avatar, s.Unnamed = configured, false
				avatars[p].cards[0].Card = configured
			}
			if a.cell != models.MustCell(def) {
				s.Cell = models.CellPtr(a.cell)
			}
			return s
		}
		if configured != "" {
			return &models.Seat{Avatar: configured}
		}
		return nil
	}
	south, north := seat(models.South, "C1", t.cfg.SouthAvatar), seat(models.North, "C4", t.cfg.NorthAvatar)
	// Both Avatars are on the realm when a game starts: one that vision
	// cannot find (a face the catalog lacks, on a card it fails to outline,
	// or one tapped on a site and read as one card with it) is taken as
	// unnamed in its home cell, out of sight, once the realm has shown
	// cards for missingAvatarAfter.
	var unseen []models.Player
	if t.observed >= missingAvatarAfter-1e-9 && len(avatars)+len(sites)+len(units) > 0 {
		for _, s := range []struct {
			seat **models.Seat
			p    models.Player
		}{{&south, models.South}, {&north, models.North}} {
			if *s.seat == nil {
				*s.seat = &models.Seat{Unnamed: true}
				unseen = append(unseen, s.p)
			}
		}
	}
	if south == nil || north == nil {
		t.status = "waiting for both Avatars on the realm"
		return nil
	}
	t.status = ""
	t.started = true
	evs := []models.Event{{Type: models.GameStart, South: south, North: north}}
	for _, p := range []models.Player{models.South, models.North} {
		if a, ok := avatars[p]; ok && a.cards[0].Tapped {
			evs = append(evs, models.Event{Type: models.CardTapped, Player: p, Cell: models.CellPtr(a.cell), Card: a.cards[0].Card})
		}
	}
	for _, s := range sites {
		evs = append(evs, models.Event{Type: models.SitePlayed, Player: s.cards[0].Owner, Cell: models.CellPtr(s.cell), Card: s.cards[0].Card})
	}
	for _, u := range units {
		for _, c := range u.cards {
			evs = append(evs, models.Event{Type: models.UnitSummoned, Player: c.Owner, Cell: models.CellPtr(u.cell), Card: c.Card})
			if c.Tapped {
				evs = append(evs, models.Event{Type: models.CardTapped, Player: c.Owner, Cell: models.CellPtr(u.cell), Card: c.Card})
			}
		}
	}
	for _, ev := range evs {
		if _, err := t.board.Apply(ev); err != nil {
			panic(fmt.Sprintf("tracker: baseline event %+v does not fit its own board: %v", ev, err))
		}
	}
	for _, p := range unseen {
		if a, _, ok := t.board.avatarOf(p); ok {
			t.board.setHidden(a.ID, true)
		}
	}
	for _, c := range models.AllCells() {
		ch := &t.cells[c.Index()]
		ch.site.accepted, ch.units.accepted = squareKeys(t.board.At(c))
	}
	for _, s := range spells {
		t.cells[s.cell.Index()].spells.accepted = key(s.cards)
	}
	return evs
}
