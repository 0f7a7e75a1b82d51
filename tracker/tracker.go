package tracker

import (
	"fmt"
	"math"
	"strings"

	"github.com/tablecam/tablecam/models"
)

// Config tunes a Tracker. The zero value is usable: every field has a default.
type Config struct {
	// Window is how long, in seconds of video, a change must hold before it is
	// accepted (default 0.25). It is measured in frame time, not frame count,
	// and only frames that could read the change count towards it.
	Window float64
	// Quorum is the share of the window the new reading must hold (default
	// 0.75), so that a misread frame inside the window does not reset it.
	Quorum float64
	// MinConfidence is the identification confidence below which a card's
	// reading is ignored as a dip (default 0.5).
	MinConfidence float64
	// MoveHold is how long, in seconds, a card that left a cell waits for the
	// same card to settle in another cell before it counts as removed
	// (default 1). It only applies while another cell is still changing.
	MoveHold float64
	// Settle is how long, in seconds, an accepted change waits for another
	// cell that is still changing under the same hand, so that the changes of
	// one hand pass come out together (default 0.05).
	Settle float64
	// Catalog, when set, gives the costs for AutoMana.
	Catalog *models.Catalog
	// AutoMana adds a mana_spent event after each unit_summoned whose cost the
	// catalog knows, for rules that do not charge summons themselves.
	AutoMana bool
	// SouthAvatar and NorthAvatar name the Avatars for game_start when they
	// cannot be read from the realm.
	SouthAvatar, NorthAvatar string
	// UnnamedHold is how long, in seconds of video, a card that can be
	// neither identified nor recognised as one its cell holds must stay so
	// before it is taken as a card the catalog lacks, in play unnamed
	// (default 1, and never less than Window): a card being put down or
	// slid is often unidentified for a few frames before it is named.
	UnnamedHold float64
}

func (c Config) withDefaults() Config {
	if c.Window <= 0 {
		c.Window = 0.25
	}
	if c.Quorum <= 0 || c.Quorum > 1 {
		c.Quorum = 0.75
	}
	if c.MinConfidence <= 0 {
		c.MinConfidence = 0.5
	}
	if c.Settle <= 0 {
		c.Settle = 0.05
	}
	if c.MoveHold <= 0 {
		c.MoveHold = 1
	}
	if c.UnnamedHold <= 0 {
		c.UnnamedHold = 1
	}
	c.UnnamedHold = max(c.UnnamedHold, c.Window)
	return c
}

// cellChannels are the three things the tracker watches in each cell.
type cellChannels struct {
	site, units, spells channel
}

// held is half of a possible move waiting for its other half.
type held struct {
	cell    models.Cell
	piece   Piece // a card that left cell (removal) or settled in it (arrival, ID 0)
	arrival bool
	until   float64
}

// Tracker turns per-frame observations into stable board changes and game
// events. Feed it frames in order with Observe. A Tracker is not safe for
// concurrent use.
type Tracker struct {
	cfg     Config
	cells   [models.Columns * models.Rows]cellChannels
	board   *Board
	started bool
	active  models.Player
	holds   []held
	// deferSince is when a ready change started waiting for another channel
	// that is still changing; negative when none waits.
	deferSince float64

	lastTime float64
	haveTime bool
	// lastHand is the video time of the last frame a hand was over the
	// realm (occluded); handSeen tells whether there was one.
	lastHand float64
	handSeen bool
	observed float64
	frame    int
	time     float64
	status   string
	// under watches what shows of each hidden card, by piece ID.
	under map[int]*channel
	// kinds gives the outline size (standard card or token) each card
	// name was read with, by its normalised name (see shownSeen).
	kinds map[string]models.CardKind
	// places gives where each unit was last read by name in its cell (by
	// placeKey): its outline's centre and area.
	places map[string]seen
}

// New gives a tracker for a game that has not started: the first stable
// board, once both Avatars are known, becomes game_start.
func New(cfg Config) *Tracker {
	return &Tracker{cfg: cfg.withDefaults(), board: NewBoard(), deferSince: -1}
}

// Resume gives a tracker that continues a game whose board (in the names
// vision reads) and active player are known, such as one rebuilt from a journal.
func Resume(cfg Config, board *Board, active models.Player) *Tracker {
	t := New(cfg)
	t.SetBoard(board, active)
	return t
}

// SetBoard makes b the stable board, as after an undo or a correction that
// changed what the tracker had accepted; pending changes start over.
func (t *Tracker) SetBoard(b *Board, active models.Player) {
	t.board = b.Clone()
	t.active = active
	t.started = true
	t.holds = nil
	t.under = nil
	for _, c := range models.AllCells() {
		ch := &t.cells[c.Index()]
		ch.site.accepted, ch.units.accepted = squareKeys(t.board.At(c))
		ch.spells.accepted = ""
	}
}

// InSight lists the named cards the tracker holds in sight: sites, and units
// not hidden under others. Of those a frame does not read, the pipeline can
// tell whether the place each lay still looks as it did (see ObserveWith).
func (t *Tracker) InSight() []HiddenCard {
	var out []HiddenCard
	for _, c := range models.AllCells() {
		sq := t.board.At(c)
		if sq.Site != nil && sq.Site.Card != "" {
			out = append(out, HiddenCard{Cell: c, Card: sq.Site.Card, Owner: sq.Site.Owner})
		}
		for _, u := range sq.Units {
			if !u.Hidden && u.Card != "" {
				out = append(out, HiddenCard{Cell: c, Card: u.Card, Owner: u.Owner})
			}
		}
	}
	return out
}

// keepSighted puts in a frame's readings the cards in sight that vision
// did not read but whose sights say they are still there (tapped or not as
// the sight shows, when it shows): a site where no site was seen, and a unit where fewer
// cards of its owner were seen than the cell holds in sight (none of them
// read under its name; the cards whose sights say they left not counted)
// and no card the cell does not hold was.
func (t *Tracker) keepSighted(readings *[models.Columns * models.Rows]cellReading, sights []HiddenSight, gone goneCards) {
	for _, s := range sights {
		if s.Gone || !s.Cell.Valid() {
			continue
		}
		r, sq := &readings[s.Cell.Index()], t.board.At(s.Cell)
		if sq.Site != nil && sameName(sq.Site.Card, s.Card) && sq.Site.Owner == s.Owner {
			if len(r.site) == 0 && r.unsureSite == nil {
				r.site, r.keptSite = []seen{{Card: sq.Site.Card, Owner: sq.Site.Owner}}, true
			}
			continue
		}
		if newcomer(r.units, sq) {
			// A card lost as another comes into its cell is under that one
			// (see pair), not lost.
			continue
		}
		held, read := 0, 0
		var piece *Piece
		left := gone.in(s.Cell)
		for i, u := range sq.Units {
			if !u.Hidden && u.Owner == s.Owner {
				if left.take(u) {
					continue
				}
				held++
				if piece == nil && sameName(u.Card, s.Card) {
					piece = &sq.Units[i]
				}
			}
		}
		if piece == nil {
			continue
		}
		// A card read that is one the cell holds hidden (showing again)
		// is no read of the cards in sight.
		var hidden []Piece
		for _, u := range sq.Units {
			if u.Hidden && u.Owner == s.Owner {
				hidden = append(hidden, u)
			}
		}
		for _, group := range [][]seen{r.units, r.unsureUnits} {
			for _, u := range group {
				if u.Owner != s.Owner {
					continue
				}
				if sameName(u.Card, s.Card) {
					read = held // read under its name: nothing to keep
					break
				}
				if i := hiddenAs(hidden, u); i >= 0 {
					hidden = append(hidden[:i:i], hidden[i+1:]...)
					continue
				}
				read++
			}
		}
		if read < held {
			tapped := piece.Tapped
			if s.Shows {
				tapped = s.Tapped
			}
			r.units = append(r.units, seen{Card: piece.Card, Owner: piece.Owner, Tapped: tapped})
			r.anyUnit, r.keptUnits = true, true
		}
	}
}

// hiddenAs gives the place in hidden of the card that u, a card read in
// the cell, may be: of its name, or, unnamed, of its tapped state; -1 for
// none.
func hiddenAs(hidden []Piece, u seen) int {
	for i, h := range hidden {
		if u.Card != "" && sameName(u.Card, h.Card) || u.Card == "" && u.Tapped == h.Tapped {
			return i
		}
	}
	return -1
}

// goneCards counts, by cell, the cards whose sights on a frame say they
// have left (HiddenSight.Gone), by name and owner.
type goneCards map[models.Cell]map[string]int

func goneOf(sights []HiddenSight) goneCards {
	var g goneCards
	for _, s := range sights {
		if !s.Gone || !s.Cell.Valid() {
			continue
		}
		if g == nil {
			g = goneCards{}
		}
		if g[s.Cell] == nil {
			g[s.Cell] = map[string]int{}
		}
		g[s.Cell][pieceKey(s.Card, s.Owner, false)]++
	}
	return g
}

// in gives a copy of the counts of cell c, to take pieces from.
func (g goneCards) in(c models.Cell) goneLeft {
	left := goneLeft{}
	for k, n := range g[c] {
		left[k] = n
	}
	return left
}

// goneLeft is what remains of a cell's gone cards to be matched to pieces.
type goneLeft map[string]int

// take reports whether p is one of the gone cards, and counts it off.
func (l goneLeft) take(p Piece) bool {
	k := pieceKey(p.Card, p.Owner, false)
	if l[k] == 0 {
		return false
	}
	l[k]--
	return true
}

// newcomer reports whether units, read with confidence in a cell, hold a
// card the cell does not: more cards of some name and owner than it holds.
func newcomer(units []seen, sq Square) bool {
	return len(withoutCopiesOf(units, piecesSeen(sq.Units))) > 0
}

// HiddenCard names a card the tracker holds hidden under another, so that a
// journal can keep it across a restart.
type HiddenCard struct {
	Cell  models.Cell   `json:"cell"`
	Card  string        `json:"card"`
	Owner models.Player `json:"owner"`
}

// Hidden lists the cards hidden under others.
func (t *Tracker) Hidden() []HiddenCard {
	var out []HiddenCard
	for _, c := range models.AllCells() {
		for _, u := range t.board.At(c).Units {
			if u.Hidden {
				out = append(out, HiddenCard{Cell: c, Card: u.Card, Owner: u.Owner})
			}
		}
	}
	return out
}

// Hide marks cards of the board hidden, as Hidden listed them before a
// restart (after SetBoard or Resume).
func (t *Tracker) Hide(cards []HiddenCard) {
	for _, h := range cards {
		sq := &t.board.squares[h.Cell.Index()]
		for i := range sq.Units {
			if u := &sq.Units[i]; !u.Hidden && sameName(u.Card, h.Card) && u.Owner == h.Owner {
				u.Hidden = true
				break
			}
		}
		_, t.cells[h.Cell.Index()].units.accepted = squareKeys(*sq)
	}
}

// SetActive tells the tracker whose turn it is (after a turn typed by a player).
func (t *Tracker) SetActive(p models.Player) { t.active = p }

// Active is whose turn the tracker believes it is.
func (t *Tracker) Active() models.Player { return t.active }

// Board gives a copy of the stable board.
func (t *Tracker) Board() *Board { return t.board.Clone() }

// Started reports whether game_start has been emitted or the game resumed.
func (t *Tracker) Started() bool { return t.started }

// Status says what the tracker is waiting for, empty when nothing, or else
// where the board holds cards it could not name.
func (t *Tracker) Status() string {
	if t.status != "" {
		return t.status
	}
	var cells []string
	for _, c := range models.AllCells() {
		sq := t.board.At(c)
		unnamed := sq.Site != nil && sq.Site.Card == ""
		for _, u := range sq.Units {
			unnamed = unnamed || u.Card == ""
		}
		if unnamed {
			cells = append(cells, c.String())
		}
	}
	if len(cells) > 0 {
		return "cannot identify the card at " + strings.Join(cells, ", ") + " (is it in the catalog?): kept in play unnamed"
	}
	return ""
}

// siteVoteSpan is how long, in seconds of video, a sighting of a site under
// units counts towards accepting it.
const siteVoteSpan = 2.0

// Pending reports whether some cell is changing and not yet accepted, or a
// move is waiting for its other half: the next frames must be read in full.
func (t *Tracker) Pending() bool {
	if len(t.holds) > 0 || !t.started || t.underPending() {
		return true
	}
	for i := range t.cells {
		ch := &t.cells[i]
		if ch.site.pending(t.cfg.Window) || ch.units.pending(t.cfg.Window) || ch.spells.pending(t.cfg.Window) {
			return true
		}
	}
	return false
}

// frameDuration is how much video time a frame stands for: the gap since the
// previous frame, bounded so that a stall does not count as a long stable stretch.
func (t *Tracker) frameDuration(tm float64) float64 {
	const first, longest = 1.0 / 30, 0.1
	if !t.haveTime {
		t.haveTime, t.lastTime = true, tm
		return first
	}
	d := tm - t.lastTime
	t.lastTime = tm
	switch {
	case d <= 0:
		return first
	case d > longest:
		return longest
	}
	return d
}

// Observe reads one frame and gives the events that became stable on it, each
// stamped with the frame's index and time.
func (t *Tracker) Observe(obs models.FrameObservation) []models.Event {
	return t.ObserveWith(obs, nil)
}

// ObserveWith is Observe with what the frame shows of the cards held hidden
// (see Hidden) and of cards in sight that the frame did not read (see
// InSight). A hidden card whose sights say it is gone for the stability
// window is removed (card_removed), while one that is fully covered, and so
// gives no sight, stays hidden. A card in sight that vision lost on the
// frame but whose place still looks as it did (Gone false) is still there:
// it counts as read in its cell, so that vision losing a card for a moment
// (most often just after a hand pass) neither removes it nor brings it back.
func (t *Tracker) ObserveWith(obs models.FrameObservation, sights []HiddenSight) []models.Event {
	dur := t.frameDuration(obs.Time)
	t.frame, t.time = obs.Frame, obs.Time
	if obs.Occluded {
		t.lastHand, t.handSeen = obs.Time, true
		return nil
	}
	keep := 2*t.cfg.Window + t.cfg.MoveHold
	readings := readFrame(obs, t.cfg.MinConfidence)
	t.noteKinds(&readings)
	gone := goneOf(sights)
	t.keepSighted(&readings, sights, gone)
	for _, c := range models.AllCells() {
		r, ch := &readings[c.Index()], &t.cells[c.Index()]
		sq := t.board.At(c)
		// A site seen but not identified is the site the cell holds, or the one
		// it is becoming; a cell that shows no site while units may hide it
		// says nothing about the site.
		hiding := t.mayHideSite(c, r)
		// Under units, a new site shows seldom and in part: each frame that
		// reads it is a vote for its name, even read with low confidence, and
		// frames that do not read it say nothing; votes older than
		// siteVoteSpan are forgotten, so that rare misreads never add up.
		voting := t.started && sq.Site == nil && (r.anyUnit || len(sq.Units) > 0)
		if voting {
			ch.site.expire(t.time - siteVoteSpan)
		}
		switch {
		case len(r.site) > 0:
			ch.site.add(t.time, dur, r.site, r.keptSite, t.siteHold(sq, r.site), keep)
			ch.site.saw(key(r.site) == ch.site.accepted)
		case r.unsureSite != nil:
			var refs [][]seen
			if sq.Site != nil {
				refs = append(refs, piecesSeen([]Piece{*sq.Site}))
			}
			// Under units, where the votes are few, an unnamed site takes the
			// name they give only when most agree: it must not feed on a misread.
			votes, share := 2, 0.5
			if voting {
				votes, share = 3, 0.75
			}
			if becoming, ok := ch.site.becoming(t.cfg.Window, votes, share); ok {
				refs = append(refs, becoming)
			}
			site, ok := carry(nil, []seen{*r.unsureSite}, refs...)
			switch {
			case ok:
				ch.site.add(t.time, dur, site, true, 0, keep)
			case voting && r.weakSite != nil:
				site, ok = []seen{*r.weakSite}, true
				ch.site.add(t.time, dur, site, false, 0, keep)
			default:
				// A site that is none the cell holds or is becoming: a
				// site the catalog lacks, if it stays so (UnnamedHold).
				unnamed := *r.unsureSite
				unnamed.Card, unnamed.Type = "", ""
				site, ok = []seen{unnamed}, true
				ch.site.add(t.time, dur, site, false, t.cfg.UnnamedHold, keep)
			}
			ch.site.saw(ok && key(site) == ch.site.accepted)
		case !hiding && !voting:
			ch.site.add(t.time, dur, nil, false, t.siteHold(sq, nil), keep)
			ch.site.saw(ch.site.accepted == "")
		}
		becoming, _ := ch.units.becoming(t.cfg.Window, 2, 0.5)
		// A card whose sight says it left is not one an unsure card may be.
		shown := t.shownSeen(sq, gone.in(c))
		units, ok := carry(r.units, r.unsureUnits, becoming, shown)
		if !ok {
			// A card seen but not identified that can be a card hidden in the
			// cell is that card showing in part: it stays hidden, and the rest
			// of the reading stands.
			if rest, peeking := withoutHidden(r.unsureUnits, sq); peeking {
				units, ok = carry(r.units, rest, becoming, shown)
			}
		}
		if !ok {
			// A card seen but not identified where a named unit of its owner
			// lay, turned, is that unit tapped or untapped.
			units, ok = t.turnedInPlace(c, r, shown, sq, &readings)
		}
		carried := len(r.unsureUnits) > 0 || r.keptUnits
		if !ok {
			// Cards that are none the cell holds or is becoming: cards the
			// catalog lacks, if they stay so (UnnamedHold).
			rest, _ := withoutHidden(r.unsureUnits, sq)
			units, carried = carryOrUnnamed(r.units, rest, shown), false
		}
		hold := 0.0
		if changesUnnamed(units, shown) {
			hold = t.cfg.UnnamedHold
		}
		ch.units.add(t.time, dur, units, carried, hold, keep)
		ch.units.saw(key(units) == ch.units.accepted)
		if r.spellsSure {
			ch.spells.add(t.time, dur, r.spells, false, 0, keep)
		}
		ch.spells.saw(r.spellsSure && key(r.spells) == ch.spells.accepted)
	}
	t.observed += dur
	if !t.started {
		return t.stamp(t.baseline())
	}
	t.seeHidden(dur, sights, keep)
	evs := t.changes()
	return t.stamp(append(evs, t.hiddenGone()...))
}

// placeKey keys a unit read by name in cell c (see Tracker.places).
func placeKey(c models.Cell, u seen) string {
	return c.String() + "|" + pieceKey(u.Card, u.Owner, false)
}

// samePlace reports whether outlines a and b lie in one card's place: their
// centres within a quarter of the smaller card's short side (a card turns
// about its centre), both of the same size within a third.
func samePlace(a, b seen) bool {
	if a.area <= 0 || b.area <= 0 || max(a.area, b.area) > 4.0/3*min(a.area, b.area) {
		return false
	}
	short := math.Sqrt(min(a.area, b.area) * models.CardShortMM / models.CardLongMM)
	return math.Hypot(a.at.X-b.at.X, a.at.Y-b.at.Y) <= short/4
}

// turnedInPlace completes a cell reading that carry could not when its one
// card of some owner seen but not identified lies in the place where the
// cell's one unit of that owner in sight was last read by name, the same
// size of card (standard or token) but turned: that unit, tapped or
// untapped. Nothing else may explain it: the unit is read in no other cell
// (it moved), and the owner has no card hidden in the cell that may be
// showing. Vision often fails to name a card just turned for a while, long
// enough for a hand to come and turn it back, and both turns were lost.
func (t *Tracker) turnedInPlace(c models.Cell, r *cellReading, shown []seen, sq Square, readings *[models.Columns * models.Rows]cellReading) ([]seen, bool) {
	pool := withoutCopiesOf(shown, r.units)
	out := append([]seen(nil), r.units...)
	for _, u := range r.unsureUnits {
		found := firstMayBe(u, pool) // reading.go
		if found < 0 {
			found = t.turnedOf(c, u, r, pool, sq, readings)
		}
		if found < 0 {
			return nil, false
		}
		p := pool[found]
		if !mayBe(u, p) {
			p.Tapped = u.Tapped
		}
		p.conf = u.conf
		out = append(out, p)
		pool = append(pool[:found:found], pool[found+1:]...)
	}
	return out, true
}

// turnedOf gives the place in pool of the unit u, unsure, may be turned
// (see turnedInPlace), or -1.
func (t *Tracker) turnedOf(c models.Cell, u seen, r *cellReading, pool []seen, sq Square, readings *[models.Columns * models.Rows]cellReading) int {
	count := func(cards []seen) int {
		n := 0
		for _, x := range cards {
			if x.Owner == u.Owner {
				n++
			}
		}
		return n
	}
	if count(r.unsureUnits) != 1 || count(pool) != 1 || u.kind == "" {
		return -1
	}
	for _, h := range sq.Units {
		if h.Hidden && h.Owner == u.Owner {
			return -1
		}
	}
	for i, p := range pool {
		if p.Owner != u.Owner || p.Card == "" || p.Tapped == u.Tapped || p.kind != u.kind {
			continue
		}
		if at, ok := t.places[placeKey(c, p)]; !ok || !samePlace(at, u) {
			return -1
		}
		for j := range readings {
			if j == c.Index() {
				continue
			}
			for _, o := range readings[j].units {
				if o.Owner == p.Owner && sameName(o.Card, p.Card) {
					return -1
				}
			}
		}
		return i
	}
	return -1
}

// noteKinds keeps the outline size of each unit a frame names with
// confidence: a standard card's or a token's (the face vision matched
// has it).
func (t *Tracker) noteKinds(readings *[models.Columns * models.Rows]cellReading) {
	for i := range readings {
		for _, u := range readings[i].units {
			if u.Card != "" && u.area > 0 {
				if t.places == nil {
					t.places = map[string]seen{}
				}
				t.places[placeKey(models.CellAt(i), u)] = u
			}
			if u.Card == "" || u.kind != models.KindStandard && u.kind != models.KindToken {
				continue
			}
			if t.kinds == nil {
				t.kinds = map[string]models.CardKind{}
			}
			t.kinds[models.NormalizeName(u.Card)] = u.kind
		}
	}
}

// shownSeen lists the units of a square the camera can see as readings,
// each with the outline size its name was read with, less those gone.
func (t *Tracker) shownSeen(sq Square, gone goneLeft) []seen {
	var out []seen
	for _, u := range shownUnits(sq) {
		if gone.take(u) {
			continue
		}
		s := seen{Card: u.Card, Owner: u.Owner, Tapped: u.Tapped}
		if s.Card != "" {
			s.kind = t.kinds[models.NormalizeName(s.Card)]
		}
		out = append(out, s)
	}
	return out
}

// unnamedSiteGone is how many times UnnamedHold an unnamed site must stay
// out of sight before it is taken as gone: vision finds a card whose face it
// cannot match less surely than one it names, and a site seldom leaves.
const unnamedSiteGone = 3

// siteHold is how long a site reading must hold before it is accepted,
// beyond the window: longer when it takes an unnamed site off the board.
func (t *Tracker) siteHold(sq Square, site []seen) float64 {
	if sq.Site != nil && sq.Site.Card == "" && len(site) == 0 {
		return unnamedSiteGone * t.cfg.UnnamedHold
	}
	return 0
}

// mayHideSite reports whether a site the board holds at c may be out of sight
// under units, so that seeing no site there is not evidence that it left.
func (t *Tracker) mayHideSite(c models.Cell, r *cellReading) bool {
	sq := t.board.At(c)
	return sq.Site != nil && (r.anyUnit || len(sq.Units) > 0)
}

// stamp puts the current frame and time on each event, and marks those
// about a card the tracker could not name.
func (t *Tracker) stamp(evs []models.Event) []models.Event {
	for i := range evs {
		f, tm := t.frame, t.time
		evs[i].Frame, evs[i].Time = &f, &tm
		switch evs[i].Type {
		case models.SitePlayed, models.UnitSummoned, models.SpellCast, models.CardTapped, models.CardUntapped,
			models.UnitMoved, models.CardRemoved:
			evs[i].Unnamed = evs[i].Card == ""
		}
	}
	return evs
}

// hasUnnamedUnit reports whether the square holds an unnamed unit of owner.
func hasUnnamedUnit(sq Square, owner models.Player) bool {
	for _, u := range sq.Units {
		if u.Card == "" && u.Owner == owner {
			return true
		}
	}
	return false
}

// readyReading is a channel's new reading, when it is ready to be accepted.
type readyReading struct {
	cards []seen
	ok    bool
}

// settleHolds gives the events of half-moves whose wait is over, on a frame
// where nothing else is accepted.
func (t *Tracker) settleHolds() []models.Event {
	if len(t.holds) == 0 {
		return nil
	}
	var none [models.Columns * models.Rows]readyReading
	return t.emit(&none, &none, &none)
}

// changes collects the readings accepted on this frame and turns them into events.
func (t *Tracker) changes() []models.Event {
	var site, units, spells [models.Columns * models.Rows]readyReading
	anyReady := false
	check := func(window float64) {
		for i := range t.cells {
			ch := &t.cells[i]
			for _, x := range []struct {
				ch *channel
				to *readyReading
			}{{&ch.site, &site[i]}, {&ch.units, &units[i]}, {&ch.spells, &spells[i]}} {
				if !x.to.ok {
					x.to.cards, x.to.ok = x.ch.check(window, window/t.cfg.Window, t.cfg.Quorum)
					anyReady = anyReady || x.to.ok
				}
			}
		}
	}
	check(t.cfg.Window)
	if !anyReady {
		t.deferSince = -1
		return t.settleHolds()
	}
	// Changes made by one hand pass are accepted together, so that they keep
	// their order: another channel that has held its new reading for half the
	// window joins the change that is ready.
	check(t.cfg.Window / 2)
	// A channel still changing, most likely under the same hand, is waited
	// for a little.
	for i := range t.cells {
		ch := &t.cells[i]
		if !site[i].ok && ch.site.unsettled >= 2 || !units[i].ok && ch.units.unsettled >= 2 || !spells[i].ok && ch.spells.unsettled >= 2 {
			if t.deferSince < 0 {
				t.deferSince = t.time
			}
			if t.time-t.deferSince < t.cfg.Settle-1e-9 {
				return t.settleHolds()
			}
			break
		}
	}
	t.deferSince = -1
	for i := range t.cells {
		ch := &t.cells[i]
		for _, x := range []struct {
			ch *channel
			r  readyReading
		}{{&ch.site, site[i]}, {&ch.units, units[i]}, {&ch.spells, spells[i]}} {
			if x.r.ok {
				x.ch.accepted, x.ch.unsettled = key(x.r.cards), 0
			}
		}
	}
	return t.emit(&site, &units, &spells)
}

// emit turns the accepted readings into events, in an order the rules can
// follow, and plays them on the board.
func (t *Tracker) emit(site, units, spells *[models.Columns * models.Rows]readyReading) []models.Event {
	var (
		sitesPlayed, sitesGone, taps, untaps, casts, named []models.Event
		removed, arrived                                   []held
		shown                                              []int
	)
	virtual := t.virtualBoard()
	for _, c := range models.AllCells() {
		sq := virtual.At(c)
		if s, ok := site[c.Index()].cards, site[c.Index()].ok; ok {
			switch {
			case len(s) > 0 && sq.Site == nil:
				sitesPlayed = append(sitesPlayed, models.Event{Type: models.SitePlayed, Player: s[0].Owner, Cell: models.CellPtr(c), Card: s[0].Card})
			case len(s) == 0 && sq.Site != nil:
				sitesGone = append(sitesGone, models.Event{Type: models.SiteDestroyed, Player: sq.Site.Owner, Cell: models.CellPtr(c)})
			case len(s) > 0 && sq.Site != nil && sq.Site.Card == "" && s[0].Card != "" && !hasUnnamedUnit(sq, sq.Site.Owner):
				// An unnamed site read with a name is named at last.
				named = append(named, models.Event{Type: models.CardNamed, Player: sq.Site.Owner, Cell: models.CellPtr(c), Card: s[0].Card})
			}
			// A site read under another name keeps the identity it was played with.
		}
		if us, ok := units[c.Index()].cards, units[c.Index()].ok; ok {
			d := diffUnits(sq.Units, us)
			shown = append(shown, d.shown...)
			for _, p := range d.named {
				named = append(named, models.Event{Type: models.CardNamed, Player: p.Owner, Cell: models.CellPtr(c), Card: p.Card})
			}
			if len(us) == 0 {
				// Nothing left to hide under: a hidden card that does not show
				// again has left the realm (an Avatar never does).
				for _, p := range sq.Units {
					if p.Hidden && !p.Avatar {
						p.Hidden = false
						d.removed = append(d.removed, p)
					}
				}
			}
			for _, p := range d.removed {
				removed = append(removed, held{cell: c, piece: p})
			}
			for _, u := range d.added {
				arrived = append(arrived, held{cell: c, piece: Piece{Card: u.Card, Owner: u.Owner, Tapped: u.Tapped,
					Avatar: models.CardType(u.Type) == models.Avatar}, arrival: true})
			}
			for _, p := range d.turned {
				ev := models.Event{Type: models.CardTapped, Player: p.Owner, Cell: models.CellPtr(c), Card: p.Card}
				if !p.Tapped {
					ev.Type = models.CardUntapped
					untaps = append(untaps, ev)
				} else {
					taps = append(taps, ev)
				}
			}
		}
		if sp, ok := spells[c.Index()].cards, spells[c.Index()].ok; ok {
			for _, s := range sp {
				casts = append(casts, models.Event{Type: models.SpellCast, Player: s.Owner, Cell: models.CellPtr(c), Card: s.Card})
			}
		}
	}
	moves, returned, removals, summons, hidden := t.pair(removed, arrived)
	for _, r := range returned {
		// (a card that only waited to be summoned is not on the board yet)
		if r.piece.ID != 0 && r.tapped != r.wasTapped {
			ev := models.Event{Type: models.CardTapped, Player: r.piece.Owner, Cell: models.CellPtr(r.to), Card: r.piece.Card}
			if !r.tapped {
				ev.Type = models.CardUntapped
				untaps = append(untaps, ev)
			} else {
				taps = append(taps, ev)
			}
		}
	}
	// A unit that moved and turned turned first, where it stood: it taps
	// to move or attack.
	var moveTaps []models.Event
	for _, m := range moves {
		if m.tapped != m.wasTapped {
			ev := models.Event{Type: models.CardTapped, Player: m.piece.Owner, Cell: models.CellPtr(m.from), Card: m.piece.Card}
			if !m.tapped {
				ev.Type = models.CardUntapped
			}
			moveTaps = append(moveTaps, ev)
		}
	}
	summonEvents, summonTaps := t.summonEvents(summons)
	taps = append(taps, summonTaps...)
	var evs []models.Event
	evs = append(evs, named...)
	evs = append(evs, untaps...)
	evs = append(evs, removalEvents(removals)...)
	evs = append(evs, sitesGone...)
	evs = append(evs, moveTaps...)
	for _, m := range moves {
		evs = append(evs, models.Event{Type: models.UnitMoved, Player: m.piece.Owner, Card: m.piece.Card, From: models.CellPtr(m.from), To: models.CellPtr(m.to)})
	}
	evs = append(evs, sitesPlayed...)
	evs = append(evs, summonEvents...)
	evs = append(evs, casts...)
	evs = append(evs, taps...)
	// A card hidden on this frame, or hidden until this frame, was out of
	// sight while the turn changed: its untap and its taps are inferred.
	for _, id := range hidden {
		t.board.setHidden(id, true)
	}
	evs = t.inferTurn(evs, shown)
	for _, ev := range evs {
		if _, err := t.board.Apply(ev); err != nil {
			panic(fmt.Sprintf("tracker: event %+v does not fit its own board: %v", ev, err))
		}
	}
	for _, id := range hidden {
		t.board.noteCovers(id)
	}
	for _, id := range shown {
		t.board.setHidden(id, false)
	}
	for _, m := range moves {
		t.board.setHidden(m.piece.ID, false)
		delete(t.board.covers, m.piece.ID)
	}
	return evs
}

// virtualBoard is the board as the accepted readings see it: cards waiting
// to be paired into a move are already gone from, or already in, their cell.
func (t *Tracker) virtualBoard() *Board {
	if len(t.holds) == 0 {
		return t.board
	}
	v := t.board.Clone()
	for _, h := range t.holds {
		sq := &v.squares[h.cell.Index()]
		if h.arrival {
			sq.Units = append(sq.Units, h.piece)
			continue
		}
		for i, u := range sq.Units {
			if u.ID == h.piece.ID {
				sq.Units = append(sq.Units[:i:i], sq.Units[i+1:]...)
				break
			}
		}
	}
	return v
}

// Flush settles every waiting half-move now, as at the end of a video.
func (t *Tracker) Flush() []models.Event {
	if len(t.holds) == 0 {
		return nil
	}
	for i := range t.holds {
		t.holds[i].until = t.time
	}
	var removals, summons []held
	for _, h := range t.holds {
		switch {
		case h.piece.Avatar:
			// Avatars are neither summoned nor removed.
		case h.arrival:
			summons = append(summons, h)
		default:
			removals = append(removals, h)
		}
	}
	t.holds = nil
	summonEvents, taps := t.summonEvents(summons)
	evs := append(removalEvents(removals), summonEvents...)
	evs = t.inferTurn(append(evs, taps...), nil)
	for _, ev := range evs {
		if _, err := t.board.Apply(ev); err != nil {
			panic(fmt.Sprintf("tracker: event %+v does not fit its own board: %v", ev, err))
		}
	}
	return t.stamp(evs)
}

// removalEvents gives card_removed for cards that left the realm.
func removalEvents(removals []held) []models.Event {
	var evs []models.Event
	for _, r := range removals {
		evs = append(evs, models.Event{Type: models.CardRemoved, Player: r.piece.Owner, Cell: models.CellPtr(r.cell), Card: r.piece.Card})
	}
	return evs
}

// summonEvents gives unit_summoned (and mana_spent with AutoMana) for cards
// that came into play, and card_tapped for those that came in tapped.
func (t *Tracker) summonEvents(summons []held) (evs, taps []models.Event) {
	for _, s := range summons {
		evs = append(evs, models.Event{Type: models.UnitSummoned, Player: s.piece.Owner, Cell: models.CellPtr(s.cell), Card: s.piece.Card})
		if t.cfg.AutoMana && t.cfg.Catalog != nil {
			if card, err := t.cfg.Catalog.Lookup(s.piece.Card); err == nil && card.CostOrZero() > 0 {
				evs = append(evs, models.Event{Type: models.ManaSpent, Player: s.piece.Owner, Amount: card.CostOrZero()})
			}
		}
		if s.piece.Tapped {
			taps = append(taps, models.Event{Type: models.CardTapped, Player: s.piece.Owner, Cell: models.CellPtr(s.cell), Card: s.piece.Card})
		}
	}
	return evs, taps
}
