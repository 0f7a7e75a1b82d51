package synth

import (
	"fmt"
	"math/rand"
	"sort"

	"github.com/tablecam/tablecam/models"
)

// piece is one card on the table during a recorded game.
type piece struct {
	id     int
	card   *models.Card
	owner  models.Player
	cell   models.Cell
	tapped bool
	// Placement inside the cell, in mm from the cell centre, and a small turn.
	dx, dy, jitter float64
	summonedTurn   int
}

// board is the table at one moment: pieces in stacking order, bottom first.
type board struct {
	pieces []*piece
}

func (b board) clone() board {
	out := board{pieces: make([]*piece, len(b.pieces))}
	for i, p := range b.pieces {
		c := *p
		out.pieces[i] = &c
	}
	return out
}

func (b board) find(id int) *piece {
	for _, p := range b.pieces {
		if p.id == id {
			return p
		}
	}
	return nil
}

func (b *board) remove(id int) {
	for i, p := range b.pieces {
		if p.id == id {
			b.pieces = append(b.pieces[:i], b.pieces[i+1:]...)
			return
		}
	}
}

// stepKind says what a hand reach does.
type stepKind int

const (
	stepChange  stepKind = iota // the board changes; events follow
	stepPass                    // a hand passes over the mat, nothing changes
	stepNudge                   // a card is nudged a few mm inside its cell: no event
	stepFlicker                 // the light flickers briefly: no hand, no event
)

// step is one hand reach (or flicker) of a scripted game.
type step struct {
	kind   stepKind
	player models.Player // whose hand
	target models.Cell   // where the fingertips go
	after  board         // the board once the hand has left
	events []models.Event
	// turnStart and turnEnd are events with no visible change, placed
	// before and after the step's own events.
	before []models.Event
	trail  []models.Event
	note   string
}

// gameScript is a whole scripted game.
type gameScript struct {
	start    board
	steps    []step
	avatars  [3]*models.Card // by models.Player
	warnings []DeliberateWarning
}

// DeliberateWarning is a rule break the demo game commits on purpose, so
// that the overlay has a warning to show.
type DeliberateWarning struct {
	Code  string       `json:"code"`
	Card  string       `json:"card"`
	Cell  *models.Cell `json:"cell"`
	Frame int          `json:"frame"`
	Note  string       `json:"note"`
}

// scriptPlayer tracks what the script needs to keep a player's moves legal.
type scriptPlayer struct {
	sites  []models.Cell
	avatar int // piece id
}

// scriptGame writes a legal game of several turns with the catalog's cards:
// each player plays a site a turn (the first on their Avatar's cell, then
// adjacent), summons the strongest minion their mana and threshold allow,
// taps and moves rested minions toward the enemy, and loses units that are
// attacked. The last turn breaks one rule on purpose (a minion taps the turn
// it was summoned) and the script records it.
func scriptGame(cat *models.Catalog, seed int64, turns int) (*gameScript, error) {
	rng := rand.New(rand.NewSource(seed))
	var sites, minions, avatars, tokens []*models.Card
	for _, c := range cat.Cards() {
		switch {
		case c.Token:
			if c.Type == models.Minion {
				tokens = append(tokens, c)
			}
		case c.Type == models.Site:
			sites = append(sites, c)
		case c.Type == models.Avatar:
			avatars = append(avatars, c)
		case c.Type == models.Minion && c.Cost != nil:
			minions = append(minions, c)
		}
	}
	if len(sites) < 4 || len(minions) < 4 || len(avatars) == 0 {
		return nil, fmt.Errorf("synth: catalog %s needs at least 4 sites, 4 minions with a cost and an avatar for a scripted game (has %d, %d, %d)",
			cat.Path, len(sites), len(minions), len(avatars))
	}
	sc := &gameScript{}
	nextID := 0
	add := func(b *board, c *models.Card, owner models.Player, cell models.Cell, dx, dy float64, under bool) *piece {
		nextID++
		p := &piece{id: nextID, card: c, owner: owner, cell: cell, dx: dx, dy: dy, jitter: (rng.Float64()*2 - 1) * 3}
		if under {
			b.pieces = append([]*piece{p}, b.pieces...)
		} else {
			b.pieces = append(b.pieces, p)
		}
		return p
	}
	players := map[models.Player]*scriptPlayer{models.South: {}, models.North: {}}
	cur := board{}
	for _, pl := range models.Players {
		av := avatars[rng.Intn(len(avatars))]
		if pl == models.North && len(avatars) > 1 {
			for av == sc.avatars[models.South] {
				av = avatars[rng.Intn(len(avatars))]
			}
		}
		sc.avatars[pl] = av
		cell := models.Cell{Col: 2, Row: 0}
		if pl == models.North {
			cell.Row = 3
		}
		players[pl].avatar = add(&cur, av, pl, cell, 0, -8, false).id
	}
	sc.start = cur.clone()

	siteAt := func(b board, c models.Cell) *piece {
		for _, p := range b.pieces {
			if p.cell == c && p.card.Type == models.Site {
				return p
			}
		}
		return nil
	}
	unitsAt := func(b board, c models.Cell) []*piece {
		var out []*piece
		for _, p := range b.pieces {
			if p.cell == c && p.card.Type != models.Site {
				out = append(out, p)
			}
		}
		return out
	}
	// Units share a cell side by side.
	slot := func(b board, c models.Cell, except int) (float64, float64) {
		n := 0
		for _, u := range unitsAt(b, c) {
			if u.id != except {
				n++
			}
		}
		offs := [][2]float64{{-20, -9}, {22, 6}, {0, 12}, {-26, 10}}
		o := offs[n%len(offs)]
		return o[0] + (rng.Float64()*2-1)*2, o[1] + (rng.Float64()*2-1)*2
	}
	usedMinion := map[*models.Card]bool{}
	affinity := func(p *scriptPlayer) models.Thresholds {
		var t models.Thresholds
		for _, c := range p.sites {
			s := siteAt(cur, c).card.Thresholds
			t.Air += s.Air
			t.Earth += s.Earth
			t.Fire += s.Fire
			t.Water += s.Water
		}
		return t
	}
	meets := func(have, need models.Thresholds) bool {
		return have.Air >= need.Air && have.Earth >= need.Earth && have.Fire >= need.Fire && have.Water >= need.Water
	}
	ev := func(t models.EventType, p models.Player) models.Event { return models.Event{Type: t, Player: p} }
	cellEv := func(t models.EventType, p models.Player, c models.Cell, card string) models.Event {
		e := ev(t, p)
		e.Cell, e.Card = models.CellPtr(c), card
		return e
	}
	push := func(s step) {
		s.after = cur.clone()
		sc.steps = append(sc.steps, s)
	}
	// Sites are chosen with the elements of a player's deck in mind: south
	// favours water and air, north fire and earth, so summons find threshold.
	siteScore := func(pl models.Player, c *models.Card) float64 {
		t := c.Thresholds
		if pl == models.South {
			return float64(t.Water*2+t.Air) + rng.Float64()
		}
		return float64(t.Fire*2+t.Earth) + rng.Float64()
	}
	usedSite := map[*models.Card]bool{}

	for turn := 1; turn <= turns; turn++ {
		pl := models.South
		if turn%2 == 0 {
			pl = models.North
		}
		sp := players[pl]
		last := turn == turns
		turnStart := []models.Event{ev(models.TurnStart, pl)}
		first := true
		begin := func() []models.Event {
			if first {
				first = false
				return turnStart
			}
			return nil
		}

		// Untap step.
		var tapped []*piece
		for _, p := range cur.pieces {
			if p.owner == pl && p.tapped {
				tapped = append(tapped, p)
			}
		}
		if len(tapped) > 0 {
			var evs []models.Event
			for _, p := range tapped {
				p.tapped = false
				evs = append(evs, cellEv(models.CardUntapped, pl, p.cell, p.card.Name))
			}
			push(step{kind: stepChange, player: pl, target: tapped[0].cell, events: evs, before: begin(), note: "untap"})
		}

		// Site step: the Avatar taps to play a site.
		avatar := cur.find(sp.avatar)
		var where models.Cell
		if len(sp.sites) == 0 {
			where = avatar.cell
		} else {
			var cands []models.Cell
			seen := map[models.Cell]bool{}
			for _, s := range sp.sites {
				for _, n := range s.Neighbors() {
					if !seen[n] && siteAt(cur, n) == nil {
						seen[n] = true
						cands = append(cands, n)
					}
				}
			}
			sort.Slice(cands, func(i, j int) bool { return cands[i].Index() < cands[j].Index() })
			// Prefer the middle rows and columns.
			best := -1.0
			for _, c := range cands {
				score := -abs(float64(c.Col)-2) - 0.8*abs(float64(c.Row)-1.5) + rng.Float64()*1.5
				if score > best {
					best, where = score, c
				}
			}
			if best == -1 {
				where = models.Cell{Col: -1}
			}
		}
		if where.Valid() {
			var site *models.Card
			bestScore := -1.0
			for _, c := range sites {
				if usedSite[c] {
					continue
				}
				if s := siteScore(pl, c); s > bestScore {
					bestScore, site = s, c
				}
			}
			if site == nil {
				site = sites[rng.Intn(len(sites))]
			}
			usedSite[site] = true
			avatar.tapped = true
			if where == avatar.cell {
				// The player lifts the Avatar, lays the site and sets the Avatar
				// back to one side, so that part of the site shows.
				avatar.dx, avatar.dy = -24, -6
			}
			add(&cur, site, pl, where, (rng.Float64()*2-1)*3, (rng.Float64()*2-1)*2, true)
			sp.sites = append(sp.sites, where)
			push(step{kind: stepChange, player: pl, target: where, before: begin(), note: "site", events: []models.Event{
				cellEv(models.CardTapped, pl, avatar.cell, avatar.card.Name),
				cellEv(models.SitePlayed, pl, where, site.Name),
			}})
		}

		// Move step: a rested minion that was not summoned this turn taps and
		// moves to an adjacent site, preferring one with an enemy.
		for _, p := range cur.pieces {
			if p.owner != pl || p.tapped || p.card.Type != models.Minion || p.summonedTurn == turn {
				continue
			}
			var to models.Cell
			best := -1.0
			for _, n := range p.cell.Neighbors() {
				if siteAt(cur, n) == nil {
					continue
				}
				score := rng.Float64()
				for _, u := range unitsAt(cur, n) {
					if u.owner != pl && u.card.Type == models.Minion {
						score += 10
					}
				}
				if pl == models.South && n.Row > p.cell.Row || pl == models.North && n.Row < p.cell.Row {
					score += 2
				}
				if score > best {
					best, to = score, n
				}
			}
			if best < 0 {
				continue
			}
			from := p.cell
			p.tapped = true
			p.cell = to
			p.dx, p.dy = slot(cur, to, p.id)
			// Moved units go on top.
			cur.remove(p.id)
			cur.pieces = append(cur.pieces, p)
			tap := cellEv(models.CardTapped, pl, from, p.card.Name)
			move := ev(models.UnitMoved, pl)
			move.Card, move.From, move.To = p.card.Name, models.CellPtr(from), models.CellPtr(to)
			push(step{kind: stepChange, player: pl, target: to, before: begin(), note: "move", events: []models.Event{tap, move}})
			// An enemy minion there dies and goes to the cemetery (its owner takes it away).
			for _, u := range unitsAt(cur, to) {
				if u.owner != pl && u.card.Type == models.Minion {
					cur.remove(u.id)
					push(step{kind: stepChange, player: u.owner, target: to, note: "cemetery", events: []models.Event{
						cellEv(models.CardRemoved, u.owner, to, u.card.Name),
					}})
					break
				}
			}
			break
		}

		// Summon step: the strongest minion mana and threshold allow.
		mana := len(sp.sites)
		have := affinity(sp)
		var pick *models.Card
		for _, c := range minions {
			if c.CostOrZero() > mana || !meets(have, c.Thresholds) || usedMinion[c] {
				continue
			}
			if pick == nil || c.CostOrZero() > pick.CostOrZero() || c.CostOrZero() == pick.CostOrZero() && rng.Intn(2) == 0 {
				pick = c
			}
		}
		if pick != nil {
			usedMinion[pick] = true
			at := sp.sites[len(sp.sites)-1]
			dx, dy := slot(cur, at, -1)
			u := add(&cur, pick, pl, at, dx, dy, false)
			u.summonedTurn = turn
			push(step{kind: stepChange, player: pl, target: at, before: begin(), note: "summon", events: []models.Event{
				cellEv(models.UnitSummoned, pl, at, pick.Name),
			}})
			if last {
				// The deliberate rule break: the new minion taps at once.
				u.tapped = true
				push(step{kind: stepChange, player: pl, target: at, note: "summoning sickness", events: []models.Event{
					cellEv(models.CardTapped, pl, at, pick.Name),
				}})
				sc.warnings = append(sc.warnings, DeliberateWarning{
					Code: "unit.summoning_sick", Card: pick.Name, Cell: models.CellPtr(at),
					Note: pick.Name + " taps the turn it was summoned (summoning sickness), on purpose so the overlay shows a warning",
				})
			}
		}
		// A token now and then (made by an effect: no cost).
		if turn == 4 && len(tokens) > 0 {
			tk := tokens[rng.Intn(len(tokens))]
			at := sp.sites[0]
			dx, dy := slot(cur, at, -1)
			add(&cur, tk, pl, at, dx, dy, false).summonedTurn = turn
			push(step{kind: stepChange, player: pl, target: at, before: begin(), note: "token", events: []models.Event{
				cellEv(models.UnitSummoned, pl, at, tk.Name),
			}})
		}
		// Things that must not become events.
		switch turn {
		case 2:
			push(step{kind: stepPass, player: pl.Opponent(), target: models.Cell{Col: 1 + rng.Intn(3), Row: 1 + rng.Intn(2)}, note: "hand pass"})
		case 3:
			if len(sp.sites) > 0 {
				s := siteAt(cur, sp.sites[0])
				s.dx += 3.5
				s.dy -= 2
				s.jitter += 1.5
				push(step{kind: stepNudge, player: pl, target: s.cell, note: "nudge"})
			}
		case 4:
			push(step{kind: stepFlicker, note: "light flicker"})
		case 5:
			push(step{kind: stepPass, player: pl, target: models.Cell{Col: rng.Intn(5), Row: 1 + rng.Intn(2)}, note: "hand pass"})
		}
		if len(sc.steps) > 0 {
			lastStep := &sc.steps[len(sc.steps)-1]
			if first {
				lastStep.trail = append(lastStep.trail, turnStart...)
			}
			lastStep.trail = append(lastStep.trail, ev(models.TurnEnd, pl))
		}
	}
	return sc, nil
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
