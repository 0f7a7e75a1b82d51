package rules

import (
	"fmt"

	"github.com/tablecam/tablecam/models"
)

// phase is where the active player is in their turn.
type phase int8

const (
	// phaseNone: no turn has started yet.
	phaseNone phase = iota
	// phaseStart: the turn has started and the active player has not acted yet,
	// so their cards may still untap.
	phaseStart
	// phaseMain: the active player has acted (played, cast, tapped, moved or spent).
	phaseMain
	// phaseEnded: the turn has ended and the next has not started.
	phaseEnded
)

// seat is one player's side of the game.
type seat struct {
	avatar         *models.Card
	life, maxLife  int
	deathsDoor     bool
	immuneThisTurn bool // reached death's door this turn, so damage is ignored until the turn ends
	defeated       bool
	manaTotal      int // provided this turn
	manaSpent      int
	// thresholdThisTurn: what a site's Genesis provided for this turn only
	// ("Genesis → Provides (A)(E)(F) this turn", Algae Bloom).
	thresholdThisTurn models.Thresholds
}

func (s *seat) available() int { return max(0, s.manaTotal-s.manaSpent) }

// clearTurn forgets what held for the turn only, as a turn starts or ends:
// the mana provided and spent, immunity, and a Genesis's threshold.
func (s *seat) clearTurn() {
	s.manaTotal, s.manaSpent = 0, 0
	s.immuneThisTurn = false
	s.thresholdThisTurn = models.Thresholds{}
}

// Game is a game of Sorcery: Contested Realm as seen on the table. Events go in
// through Apply, which checks them against the rules, updates the board and
// returns the warnings they raise; State gives the derived game state.
//
// A Game follows the table: an event that breaks a rule still happens (the
// card is on the mat) and is reported as a warning, so replaying the same
// events always gives the same states. A Game is not safe for concurrent use.
type Game struct {
	cat  *models.Catalog
	opts options

	started bool
	board   board
	seats   [3]seat // indexed by models.Player
	active  models.Player
	first   models.Player
	turn    int
	phase   phase
	winner  models.Player

	events   []models.Event
	warnings []models.Warning // raised by the last event

	// provisions caches what cards' texts say they provide (provides.go).
	provisions map[*models.Card]provision
}

// Option changes how NewGame sets up a game.
type Option func(*options)

type options struct {
	startingLife int
}

// WithStartingLife sets the life (and maximum life) both Avatars start with
// when the catalog and game_start give none. The default is 20.
func WithStartingLife(n int) Option { return func(o *options) { o.startingLife = n } }

// NewGame prepares a game whose cards are looked up in cat. The first event
// applied must be game_start.
func NewGame(cat *models.Catalog, opts ...Option) *Game {
	o := options{startingLife: 20}
	for _, f := range opts {
		f(&o)
	}
	return &Game{cat: cat, opts: o}
}

// Apply checks ev against the rules and applies it. Warnings report rule
// breaches, which do not stop the game. An error (wrapping ErrInvalidEvent)
// means the event itself is bad, such as an unknown card or a card that is not
// at the cell named; the game is then left unchanged.
func (g *Game) Apply(ev models.Event) ([]models.Warning, error) {
	if err := validateShape(ev); err != nil {
		return nil, err
	}
	if !g.started && ev.Type != models.GameStart {
		return nil, fieldErr("type", nil, "%s before game_start: a game begins with a game_start event", ev.Type)
	}
	if g.started && ev.Type == models.GameStart {
		return nil, fieldErr("type", nil, "a second game_start: one game per events file")
	}
	saved := g.clone()
	over := g.winner != models.NoPlayer
	var ws []models.Warning
	if p, ok := g.impliedFirstTurn(ev); ok {
		ws, _ = g.turnStart(models.Event{Type: models.TurnStart, Player: p})
	}
	more, err := g.dispatch(ev)
	if err != nil {
		*g = *saved
		return nil, err
	}
	ws = append(ws, more...)
	if over {
		ws = append([]models.Warning{warn(GameOver, models.NoPlayer, nil,
			"%s after the game ended: the %s Avatar was dealt a death blow, which ends the game (Winning the Game).",
			ev.Type, g.winner.Opponent())}, ws...)
	}
	if ws == nil {
		ws = []models.Warning{}
	}
	g.events = append(g.events, ev)
	g.warnings = ws
	return append([]models.Warning(nil), ws...), nil
}

func (g *Game) dispatch(ev models.Event) ([]models.Warning, error) {
	switch ev.Type {
	case models.GameStart:
		return g.start(ev)
	case models.TurnStart:
		return g.turnStart(ev)
	case models.TurnEnd:
		return g.turnEnd(ev)
	case models.SitePlayed:
		return g.playSite(ev)
	case models.UnitSummoned:
		return g.summon(ev)
	case models.SpellCast:
		return g.castSpell(ev)
	case models.CardTapped:
		return g.tap(ev)
	case models.CardUntapped:
		return g.untap(ev)
	case models.UnitMoved:
		return g.move(ev)
	case models.CardRemoved:
		return g.remove(ev)
	case models.SiteDestroyed:
		return g.destroySite(ev)
	case models.Damage:
		return g.damage(ev)
	case models.LifeLoss:
		return g.loseLife(ev)
	case models.LifeGain:
		return g.gainLife(ev)
	case models.ManaSpent:
		return g.spendMana(ev)
	case models.UnitUnder:
		return g.goUnder(ev)
	case models.UnitSurfaced:
		return g.surface(ev)
	case models.CardNamed:
		return g.name(ev)
	}
	return nil, fieldErr("type", nil, "unknown event type %q", ev.Type)
}

// impliedFirstTurn says whose turn an event starts when it comes before any
// turn_start: a player who plays a site, casts or spends mana has begun the
// first turn, so it starts for them (with its mana) rather than leaving them
// with no turn and no mana.
func (g *Game) impliedFirstTurn(ev models.Event) (models.Player, bool) {
	if g.turn != 0 || g.phase != phaseNone {
		return models.NoPlayer, false
	}
	switch ev.Type {
	case models.SitePlayed, models.UnitSummoned, models.SpellCast, models.ManaSpent:
		return ev.Player, ev.Player != models.NoPlayer
	}
	return models.NoPlayer, false
}

// Events gives a copy of the events applied so far.
func (g *Game) Events() []models.Event { return append([]models.Event(nil), g.events...) }

// StateAt gives the state right after event n (counting from 0), rebuilt from
// the history: what the game looked like at any point of a replay.
func (g *Game) StateAt(n int) (models.GameState, error) {
	if n < 0 || n >= len(g.events) {
		return models.GameState{}, fmt.Errorf("rules: no event %d (the game has %d)", n, len(g.events))
	}
	h := &Game{cat: g.cat, opts: g.opts}
	for i, ev := range g.events[:n+1] {
		if _, err := h.Apply(ev); err != nil {
			return models.GameState{}, fmt.Errorf("rules: replaying event %d: %w", i, err)
		}
	}
	return h.State(), nil
}

// Over reports whether a death blow has ended the game, and who won.
func (g *Game) Over() (models.Player, bool) { return g.winner, g.winner != models.NoPlayer }

// clone copies the game deeply enough that changing the copy leaves g intact.
func (g *Game) clone() *Game {
	c := *g
	for i := range c.board {
		sq := &c.board[i]
		if sq.site != nil {
			s := *sq.site
			sq.site = &s
		}
		units := make([]*unit, len(sq.units))
		for j, u := range sq.units {
			v := *u
			units[j] = &v
		}
		sq.units = units
	}
	return &c
}

// lookup finds a card named in field, with suggestions when it is unknown.
func (g *Game) lookup(field, name string) (*models.Card, error) {
	if name == "" {
		return nil, fieldErr(field, nil, "missing card name")
	}
	card, err := g.cat.Lookup(name)
	if err != nil {
		return nil, fieldErr(field, err, "%v", err)
	}
	return card, nil
}

// Replay applies events to a new game and gives the state after each one. An
// error names the event's index.
func Replay(cat *models.Catalog, events []models.Event, opts ...Option) ([]models.GameState, error) {
	g := NewGame(cat, opts...)
	states := make([]models.GameState, 0, len(events))
	for i, ev := range events {
		if _, err := g.Apply(ev); err != nil {
			return states, fmt.Errorf("event %d (%s): %w", i, ev.Type, err)
		}
		states = append(states, g.State())
	}
	return states, nil
}
