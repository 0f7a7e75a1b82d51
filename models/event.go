package models

// EventType names a game event. The same vocabulary is read by `tablecam rules`,
// written by the tracker and by `tablecam synth` truth files, and stored in the journal.
type EventType string

// The event types of a Sorcery game.
const (
	GameStart     EventType = "game_start"
	TurnStart     EventType = "turn_start"
	TurnEnd       EventType = "turn_end"
	SitePlayed    EventType = "site_played"
	UnitSummoned  EventType = "unit_summoned"
	SpellCast     EventType = "spell_cast"
	CardTapped    EventType = "card_tapped"
	CardUntapped  EventType = "card_untapped"
	UnitMoved     EventType = "unit_moved"
	CardRemoved   EventType = "card_removed"
	SiteDestroyed EventType = "site_destroyed"
	Damage        EventType = "damage"
	LifeLoss      EventType = "life_loss"
	LifeGain      EventType = "life_gain"
	ManaSpent     EventType = "mana_spent"
	// CardNamed gives an unnamed card its name once the camera identifies
	// it: Card is the name, Player and Cell say which unnamed card (a
	// site's name names the unnamed site there, any other the unnamed unit).
	CardNamed EventType = "card_named"
)

// EventTypes lists every known event type.
var EventTypes = []EventType{GameStart, TurnStart, TurnEnd, SitePlayed, UnitSummoned, SpellCast,
	CardTapped, CardUntapped, UnitMoved, CardRemoved, SiteDestroyed, Damage, LifeLoss, LifeGain, ManaSpent, CardNamed}

// Known reports whether t is one of EventTypes.
func (t EventType) Known() bool {
	for _, k := range EventTypes {
		if k == t {
			return true
		}
	}
	return false
}

// Seat describes one player at game_start.
type Seat struct {
	Avatar string `json:"avatar"`
	// Cell overrides where the avatar starts (default C1 for south, C4 for north).
	Cell *Cell `json:"cell,omitempty"`
	// Life is the seat's life at the start (default: the Avatar's printed life, which stays the maximum); 0 starts at death's door.
	Life *int `json:"life,omitempty"`
	// Unnamed marks an Avatar the camera saw but could not name (its face is
	// not in the catalog); Avatar is then empty.
	Unnamed bool `json:"unnamed,omitempty"`
}

// Seated reports whether the seat has an Avatar, named or seen unnamed.
func (s *Seat) Seated() bool { return s != nil && (s.Avatar != "" || s.Unnamed) }

// Event is one line of a game: what happened, to which card, where.
// Fields that an event type does not use are left empty and omitted in JSON.
type Event struct {
	Type   EventType `json:"type"`
	Player Player    `json:"player,omitempty"`
	Cell   *Cell     `json:"cell,omitempty"`
	Card   string    `json:"card,omitempty"`
	From   *Cell     `json:"from,omitempty"`
	To     *Cell     `json:"to,omitempty"`
	Amount int       `json:"amount,omitempty"`
	// Unnamed marks a card the camera saw but could not name (its face is
	// not in the catalog, as an opponent's unscanned deck): Card is empty and
	// the event stands for the unnamed card of Player at the cell. A later
	// card_named gives it its name.
	Unnamed bool `json:"unnamed,omitempty"`

	// game_start only.
	South *Seat  `json:"south,omitempty"`
	North *Seat  `json:"north,omitempty"`
	First Player `json:"first,omitempty"`

	// Frame and Time say when a change became stable on camera (tracker and synth truth).
	Frame *int     `json:"frame,omitempty"`
	Time  *float64 `json:"time,omitempty"`
}

// CellPtr returns a pointer to c, for building events in code.
func CellPtr(c Cell) *Cell { return &c }
