package tracker

import (
	"fmt"
	"math/rand"
	"strings"

	"github.com/tablecam/tablecam/models"
)

// A script is a table over time, for feeding the tracker what a noisy
// vision would read: a board, then changes, each made by a hand that covers
// the realm for a while. A card whose name starts with "?" is not in the
// catalog: vision never names it.

type card struct {
	name   string
	typ    models.CardType
	owner  models.Player
	tapped bool
}

func site(name string, owner models.Player) card { return card{name, models.Site, owner, false} }
func unit(name string, owner models.Player) card { return card{name, models.Minion, owner, false} }
func avatar(name string, owner models.Player) card {
	return card{name, models.Avatar, owner, false}
}

type table map[string][]card

func (tb table) clone() table {
	out := table{}
	for k, v := range tb {
		out[k] = append([]card(nil), v...)
	}
	return out
}

// step changes the table under a hand that stays for hand seconds, then
// leaves it still for still seconds.
type step struct {
	hand, still float64
	change      func(table)
}

// noise says how badly the simulated vision reads.
type noise struct {
	misread    float64 // chance a card is read under another name, confidently
	unknown    float64 // chance a card is not identified
	dip        float64 // chance a card's confidence dips low
	coveredID  float64 // chance a site under a unit is identified
	unflagged  float64 // chance a hand frame is not flagged occluded (the hand then hides what it covers)
	fps        float64
	otherNames []string
}

func defaultNoise() noise {
	return noise{misread: 0.1, unknown: 0.05, dip: 0.1, coveredID: 0.5, fps: 30,
		otherNames: []string{"Mirror Imp", "Glass Golem", "Ash Hollow"}}
}

// render plays the script and gives the observations, the frame at which
// each step's result became visible, and the frames a hand was over the mat.
func render(start table, steps []step, nz noise, seed int64) (obs []models.FrameObservation, visible []int) {
	rng := rand.New(rand.NewSource(seed))
	tb := start.clone()
	frame := 0
	emit := func(n int, hand bool) {
		for i := 0; i < n; i++ {
			o := models.FrameObservation{Frame: frame, Time: float64(frame) / nz.fps}
			if hand && rng.Float64() >= nz.unflagged {
				o.Occluded = true
			}
			for _, c := range models.AllCells() {
				cards := tb[c.String()]
				hasUnit := false
				for _, cd := range cards {
					if cd.typ != models.Site {
						hasUnit = true
					}
				}
				for _, cd := range cards {
					if hand && !o.Occluded && rng.Float64() < 0.5 {
						continue // hidden by the unflagged hand
					}
					co := models.CardObservation{Cell: models.CellPtr(c), Owner: cd.owner, Tapped: cd.tapped,
						Rotation: models.RotationFor(cd.owner, cd.tapped), Confidence: 0.9}
					co.Kind = models.KindStandard
					if cd.typ == models.Site {
						co.Kind = models.KindSite
					}
					name, typ := cd.name, string(cd.typ)
					co.Name, co.Type = &name, &typ
					r := rng.Float64()
					switch {
					case strings.HasPrefix(cd.name, "?"):
						co.Name, co.Type, co.Confidence = nil, nil, 0.2
					case cd.typ == models.Site && hasUnit && rng.Float64() >= nz.coveredID:
						co.Name, co.Type, co.Confidence = nil, nil, 0.1
					case r < nz.misread:
						other := nz.otherNames[rng.Intn(len(nz.otherNames))]
						co.Name = &other
					case r < nz.misread+nz.unknown:
						co.Name, co.Type, co.Confidence = nil, nil, 0.2
					case r < nz.misread+nz.unknown+nz.dip:
						co.Confidence = 0.3
					}
					o.Cards = append(o.Cards, co)
				}
			}
			obs = append(obs, o)
			frame++
		}
	}
	emit(int(nz.fps), false)
	for _, s := range steps {
		emit(int(s.hand*nz.fps), true)
		s.change(tb)
		visible = append(visible, frame)
		emit(int(s.still*nz.fps), false)
	}
	return obs, visible
}

// run feeds the observations to a tracker and gives its events, frames included.
func run(tr *Tracker, obs []models.FrameObservation) []models.Event {
	var evs []models.Event
	for _, o := range obs {
		evs = append(evs, tr.Observe(o)...)
	}
	return append(evs, tr.Flush()...)
}

// brief writes an event without its frame and time, for comparing.
func brief(ev models.Event) string {
	var b strings.Builder
	b.WriteString(string(ev.Type))
	if ev.Player != models.NoPlayer {
		fmt.Fprintf(&b, " %v", ev.Player)
	}
	if ev.Card != "" {
		fmt.Fprintf(&b, " %s", ev.Card)
	}
	if ev.Unnamed {
		b.WriteString(" ?")
	}
	if ev.Cell != nil {
		fmt.Fprintf(&b, " %v", *ev.Cell)
	}
	if ev.From != nil {
		fmt.Fprintf(&b, " %v→%v", *ev.From, *ev.To)
	}
	if ev.Amount != 0 {
		fmt.Fprintf(&b, " %d", ev.Amount)
	}
	if ev.South != nil {
		seat := func(s *models.Seat) string {
			if s.Unnamed {
				return "?"
			}
			return s.Avatar
		}
		fmt.Fprintf(&b, " south=%s north=%s", seat(ev.South), seat(ev.North))
	}
	return b.String()
}

func briefs(evs []models.Event) []string {
	out := make([]string, len(evs))
	for i, ev := range evs {
		out[i] = brief(ev)
	}
	return out
}

func put(cell string, cards ...card) func(table) {
	return func(tb table) { tb[cell] = append(tb[cell], cards...) }
}

func take(cell, name string) func(table) {
	return func(tb table) {
		for i, c := range tb[cell] {
			if c.name == name {
				tb[cell] = append(tb[cell][:i:i], tb[cell][i+1:]...)
				return
			}
		}
		panic("take: no " + name + " at " + cell)
	}
}

func turn(cell, name string, tapped bool) func(table) {
	return func(tb table) {
		for i, c := range tb[cell] {
			if c.name == name && c.tapped != tapped {
				tb[cell][i].tapped = tapped
				return
			}
		}
		panic("turn: no " + name + " at " + cell)
	}
}

func moveCard(from, to, name string) func(table) {
	return func(tb table) {
		for i, c := range tb[from] {
			if c.name == name && c.typ != models.Site {
				tb[from] = append(tb[from][:i:i], tb[from][i+1:]...)
				tb[to] = append(tb[to], c)
				return
			}
		}
		panic("move: no " + name + " at " + from)
	}
}

func all(fs ...func(table)) func(table) {
	return func(tb table) {
		for _, f := range fs {
			f(tb)
		}
	}
}

func startTable() table {
	return table{"C1": {avatar("Sorcerer", models.South)}, "C4": {avatar("Geomancer", models.North)}}
}
