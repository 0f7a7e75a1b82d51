package tracker

import (
	"errors"
	"fmt"

	"github.com/tablecam/tablecam/models"
)

// Rules is what the game needs of a rules engine: *rules.Game fits.
type Rules interface {
	Apply(ev models.Event) ([]models.Warning, error)
	State() models.GameState
}

// ErrNothingToUndo is returned by Undo when no batch or correction is left.
var ErrNothingToUndo = errors.New("nothing to undo")

// ErrBadCorrection wraps every reason a correction is refused.
var ErrBadCorrection = errors.New("bad correction")

// Rejected is an event the rules refused (an unknown card, a card that is not
// where the event says). It stays in the journal, and a correction can fix it.
type Rejected struct {
	Seq   int
	Event models.Event
	Err   error
}

// slotRef names a card instance by the journal entry that brought it into
// play (and, for game_start, which Avatar).
type slotRef struct {
	seq  int
	slot models.Player
}

// fix is what corrections changed about one card instance.
type fix struct {
	name  string
	owner models.Player
}

// Game is a game kept in a journal: events from the camera and from the
// players, undos and corrections. History is never rewritten: the state is
// the journal replayed through the rules, with the undos and corrections in
// force. A Game is not safe for concurrent use.
type Game struct {
	newRules func() Rules
	journal  *Journal
	cat      *models.Catalog

	entries []Entry
	batch   int

	// Derived from entries by rebuild, and kept up to date by each event.
	rules    Rules
	raw      *Board // the board in the names the camera read
	intro    map[int]slotRef
	idOf     map[slotRef]int
	fixes    map[slotRef]fix
	applied  []int // journal seq of each event the rules accepted, by rules index
	rejected []Rejected
	active   models.Player
	events   []models.Event // corrected events the rules accepted
}

// NewGame starts a game recorded in j (nil keeps it in memory only). cat,
// when set, checks the names that corrections give.
func NewGame(newRules func() Rules, j *Journal, cat *models.Catalog) *Game {
	g := &Game{newRules: newRules, journal: j, cat: cat}
	g.rebuild()
	return g
}

// LoadGame rebuilds a game from journal entries, as read by ReadJournal or
// ResumeJournal; new entries go to j (nil for a read-only replay).
func LoadGame(newRules func() Rules, entries []Entry, j *Journal, cat *models.Catalog) *Game {
	g := &Game{newRules: newRules, journal: j, cat: cat, entries: append([]Entry(nil), entries...)}
	for _, e := range entries {
		g.batch = max(g.batch, e.Batch)
	}
	g.rebuild()
	return g
}

// Journal gives the journal the game writes to (nil when in memory).
func (g *Game) Journal() *Journal { return g.journal }

// Entries gives a copy of the journal entries.
func (g *Game) Entries() []Entry { return append([]Entry(nil), g.entries...) }

// State is the rules' state after the last event in force.
func (g *Game) State() models.GameState { return g.rules.State() }

// Events gives the corrected events in force, in the order the rules took them.
func (g *Game) Events() []models.Event { return append([]models.Event(nil), g.events...) }

// Rejected lists the events the rules refused.
func (g *Game) Rejected() []Rejected { return append([]Rejected(nil), g.rejected...) }

// Board is the board in the names the camera read, for the tracker.
func (g *Game) Board() *Board { return g.raw.Clone() }

// Active is whose turn it is.
func (g *Game) Active() models.Player { return g.active }

// Started reports whether game_start is in force.
func (g *Game) Started() bool { return len(g.events) > 0 }

// LastFrame is the frame of the last camera event in the journal, so that a
// video can resume where the game left off.
func (g *Game) LastFrame() (int, bool) {
	for i := len(g.entries) - 1; i >= 0; i-- {
		e := g.entries[i]
		if e.Kind == EntryEvent && e.Source == Camera && e.Event != nil && e.Event.Frame != nil {
			return *e.Event.Frame, true
		}
	}
	return 0, false
}

// append writes an entry to the journal (when there is one) and keeps it.
func (g *Game) append(e Entry) (Entry, error) {
	es, err := g.appendBatch([]Entry{e})
	if err != nil {
		return e, err
	}
	return es[0], nil
}

// appendBatch writes entries that stand or fall together to the journal
// (when there is one) and keeps them.
func (g *Game) appendBatch(es []Entry) ([]Entry, error) {
	if g.journal != nil {
		var err error
		if es, err = g.journal.AppendBatch(es); err != nil {
			return nil, err
		}
	} else {
		for i := range es {
			es[i].Seq = len(g.entries) + i + 1
		}
	}
	g.entries = append(g.entries, es...)
	return es, nil
}

// Start writes the journal's opening entry: where the game is watched from,
// and the catalog's path.
func (g *Game) Start(note, catalog string) error {
	_, err := g.append(Entry{Kind: EntryStart, Note: note, Catalog: catalog})
	return err
}

// CatalogPath gives the catalog named by the journal's first start entry.
func CatalogPath(entries []Entry) string {
	for _, e := range entries {
		if e.Kind == EntryStart && e.Catalog != "" {
			return e.Catalog
		}
	}
	return ""
}

// End writes the closing entry of a clean exit.
func (g *Game) End() error {
	_, err := g.append(Entry{Kind: EntryEnd})
	return err
}

// RecordCamera journals a batch of the tracker's events with the cards it
// holds hidden after them (see Tracker.Hidden), and applies them as Record does.
func (g *Game) RecordCamera(evs []models.Event, hidden []HiddenCard) ([]models.Event, []models.Warning, error) {
	return g.record(evs, Camera, hidden)
}

// Hidden gives the cards the tracker held hidden after the last camera
// batch in force, for Tracker.Hide after a restart or an undo.
func (g *Game) Hidden() []HiddenCard {
	acts := g.actions()
	for i := len(acts) - 1; i >= 0; i-- {
		es := acts[i].entries
		if e := es[len(es)-1]; e.Kind == EntryEvent && e.Source == Camera {
			return append([]HiddenCard(nil), e.Hidden...)
		}
	}
	return nil
}

// Record journals a batch of events that came together (one frame's) and
// applies them. It gives the events as the rules took them (corrections
// applied) and the warnings they raised. Events the rules refuse are kept in
// Rejected and reported in the error; the others still apply.
func (g *Game) Record(evs []models.Event, src Source) ([]models.Event, []models.Warning, error) {
	return g.record(evs, src, nil)
}

func (g *Game) record(evs []models.Event, src Source, hidden []HiddenCard) ([]models.Event, []models.Warning, error) {
	if len(evs) == 0 {
		return nil, nil, nil
	}
	g.batch++
	var (
		out  []models.Event
		ws   []models.Warning
		errs []error
	)
	batch := make([]Entry, len(evs))
	for i, ev := range evs {
		ev := ev
		batch[i] = Entry{Kind: EntryEvent, Source: src, Batch: g.batch, BatchSize: len(evs), Event: &ev}
	}
	batch[len(batch)-1].Hidden = hidden
	batch, err := g.appendBatch(batch)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range batch {
		applied, w, err := g.apply(e)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, applied)
		ws = append(ws, w...)
	}
	return out, ws, errors.Join(errs...)
}

// Undo takes back the last batch of events, or the last correction, that is
// still in force.
func (g *Game) Undo() error {
	if len(g.actions()) == 0 {
		return ErrNothingToUndo
	}
	if _, err := g.append(Entry{Kind: EntryUndo}); err != nil {
		return err
	}
	g.rebuild()
	return nil
}

// Correct journals a correction and rebuilds the state with it: rename a
// card, give it to the other player, or drop an event (by its index in the
// rules' numbering, as GameState.Event counts).
func (g *Game) Correct(c models.Correction) error {
	e := Entry{Kind: EntryCorrection, Correction: &c}
	switch c.Kind {
	case models.DropEvent:
		if c.Event < 0 || c.Event >= len(g.applied) {
			return fmt.Errorf("%w: no event %d (the game has %d)", ErrBadCorrection, c.Event, len(g.applied))
		}
		e.Target = g.applied[c.Event]
	case models.RenameCard, models.ChangeOwner:
		if c.Cell == nil || !c.Cell.Valid() {
			return fmt.Errorf("%w: %s needs the card's cell", ErrBadCorrection, c.Kind)
		}
		ref, ok := g.findCard(*c.Cell, c.Card)
		if !ok {
			return fmt.Errorf("%w: no card %q at %v", ErrBadCorrection, c.Card, *c.Cell)
		}
		e.Target, e.Slot = ref.seq, ref.slot
		if c.Kind == models.RenameCard {
			if c.Name == "" {
				return fmt.Errorf("%w: rename needs the new name", ErrBadCorrection)
			}
			if g.cat != nil {
				card, err := g.cat.Lookup(c.Name)
				if err != nil {
					return fmt.Errorf("%w: %w", ErrBadCorrection, err)
				}
				c.Name = card.Name
			}
		} else if c.Owner != models.South && c.Owner != models.North {
			return fmt.Errorf("%w: owner must be south or north", ErrBadCorrection)
		}
	default:
		return fmt.Errorf("%w: unknown kind %q", ErrBadCorrection, c.Kind)
	}
	if _, err := g.append(e); err != nil {
		return err
	}
	g.rebuild()
	return nil
}

// findCard finds the card instance at cell that the players call card (the
// corrected name; empty means the top unit, or else the site).
func (g *Game) findCard(cell models.Cell, card string) (slotRef, bool) {
	sq := g.raw.At(cell)
	pieces := append([]Piece(nil), sq.Units...)
	for i, j := 0, len(pieces)-1; i < j; i, j = i+1, j-1 {
		pieces[i], pieces[j] = pieces[j], pieces[i]
	}
	if sq.Site != nil {
		pieces = append(pieces, *sq.Site)
	}
	for _, p := range pieces {
		ref, ok := g.intro[p.ID]
		if !ok {
			continue
		}
		name := p.Card
		if f, ok := g.fixes[ref]; ok && f.name != "" {
			name = f.name
		}
		if card == "" || sameName(name, card) || sameName(p.Card, card) {
			return ref, true
		}
	}
	return slotRef{}, false
}

// action is one undoable step: a batch of event entries or one correction.
type action struct {
	entries []Entry
}

// actions folds the journal into the steps still in force.
func (g *Game) actions() []action {
	var acts []action
	for _, e := range g.entries {
		switch e.Kind {
		case EntryEvent:
			if n := len(acts); n > 0 && acts[n-1].entries[0].Kind == EntryEvent && acts[n-1].entries[0].Batch == e.Batch && e.Batch != 0 {
				acts[n-1].entries = append(acts[n-1].entries, e)
				continue
			}
			acts = append(acts, action{[]Entry{e}})
		case EntryCorrection:
			acts = append(acts, action{[]Entry{e}})
		case EntryUndo:
			if len(acts) > 0 {
				acts = acts[:len(acts)-1]
			}
		}
	}
	return acts
}

// rebuild derives everything from the journal: the steps in force, the
// corrections, and the rules' state.
func (g *Game) rebuild() {
	acts := g.actions()
	dropped := map[int]bool{}
	g.fixes = map[slotRef]fix{}
	var corrections []Entry
	var events []Entry
	for _, a := range acts {
		for _, e := range a.entries {
			if e.Kind == EntryCorrection {
				corrections = append(corrections, e)
			} else {
				events = append(events, e)
			}
		}
	}
	for _, c := range corrections {
		switch c.Correction.Kind {
		case models.DropEvent:
			dropped[c.Target] = true
		case models.RenameCard:
			ref := slotRef{c.Target, c.Slot}
			f := g.fixes[ref]
			f.name = c.Correction.Name
			g.fixes[ref] = f
		case models.ChangeOwner:
			ref := slotRef{c.Target, c.Slot}
			f := g.fixes[ref]
			f.owner = c.Correction.Owner
			g.fixes[ref] = f
		}
	}
	g.rules = g.newRules()
	g.raw = NewBoard()
	g.intro, g.idOf = map[int]slotRef{}, map[slotRef]int{}
	g.applied, g.rejected, g.events = nil, nil, nil
	g.active = models.NoPlayer
	for _, e := range events {
		if dropped[e.Seq] {
			continue
		}
		g.apply(e) // refusals are kept in g.rejected
	}
}

// apply plays one event entry: on the camera's board, then, corrected, in
// the rules.
func (g *Game) apply(e Entry) (models.Event, []models.Warning, error) {
	ev := *e.Event
	before := g.raw.Clone()
	id, boardErr := g.raw.Apply(ev)
	if boardErr == nil {
		switch ev.Type {
		case models.GameStart:
			// The Avatars are the first pieces game_start puts on the board.
			next := before.nextID
			for _, p := range []models.Player{models.South, models.North} {
				seat := ev.South
				if p == models.North {
					seat = ev.North
				}
				if seat.Seated() {
					next++
					ref := slotRef{e.Seq, p}
					g.intro[next], g.idOf[ref] = ref, next
				}
			}
		case models.SitePlayed, models.UnitSummoned:
			ref := slotRef{e.Seq, models.NoPlayer}
			g.intro[id], g.idOf[ref] = ref, id
		}
	}
	fixed := g.correct(ev, id)
	ws, err := g.rules.Apply(fixed)
	if err != nil {
		g.raw = before
		g.rejected = append(g.rejected, Rejected{Seq: e.Seq, Event: fixed, Err: err})
		return fixed, nil, fmt.Errorf("journal entry %d (%s): %w", e.Seq, ev.Type, err)
	}
	if boardErr != nil {
		// The rules took an event the camera's board cannot follow (typed by a
		// player about a card the camera does not see): keep the board as it was.
		g.raw = before
	}
	g.applied = append(g.applied, e.Seq)
	g.events = append(g.events, fixed)
	g.active = g.rules.State().Active
	return fixed, ws, nil
}

// correct gives the event as the corrections in force rewrite it.
func (g *Game) correct(ev models.Event, id int) models.Event {
	if len(g.fixes) == 0 {
		return ev
	}
	if ev.Type == models.GameStart {
		for _, p := range []models.Player{models.South, models.North} {
			seat := &ev.South
			if p == models.North {
				seat = &ev.North
			}
			for ref, f := range g.fixes {
				if ref.slot == p && *seat != nil && f.name != "" && g.idOf[ref] != 0 {
					s := **seat
					s.Avatar, s.Unnamed = f.name, false
					*seat = &s
				}
			}
		}
		return ev
	}
	ref, ok := g.intro[id]
	if !ok {
		return ev
	}
	f, ok := g.fixes[ref]
	if !ok {
		return ev
	}
	if f.name != "" && (ev.Card != "" || ev.Unnamed) {
		ev.Card, ev.Unnamed = f.name, false
	}
	if f.owner != models.NoPlayer && ev.Player != models.NoPlayer {
		ev.Player = f.owner
	}
	return ev
}
