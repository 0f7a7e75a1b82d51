package models

// CardKind is a card's shape class as vision sees it.
type CardKind string

const (
	// KindSite is landscape when upright (88×63 mm).
	KindSite CardKind = "site"
	// KindStandard is portrait when upright (63×88 mm): spells and avatars.
	KindStandard CardKind = "standard"
	// KindToken is a half-size card.
	KindToken CardKind = "token"
)

// Rotation is the clockwise turn, in degrees, of a card's upright face from
// upright for the south player: 0 south untapped, 90 south tapped, 180 north
// untapped, 270 north tapped.
type Rotation int

// Owner gives the player the rotation faces.
func (r Rotation) Owner() Player {
	if r == 180 || r == 270 {
		return North
	}
	return South
}

// Tapped reports whether the rotation is a tapped one.
func (r Rotation) Tapped() bool { return r == 90 || r == 270 }

// RotationFor gives the rotation of a card of owner, tapped or not.
func RotationFor(owner Player, tapped bool) Rotation {
	r := Rotation(0)
	if owner == North {
		r = 180
	}
	if tapped {
		r += 90
	}
	return r
}

// CardObservation is one card seen in one frame.
type CardObservation struct {
	// Cell holds the card's centre; nil when the card is off the grid.
	Cell *Cell `json:"cell"`
	// Name, Slug and Type are empty (null in JSON) when the card was not identified.
	Name       *string  `json:"name"`
	Slug       *string  `json:"slug,omitempty"`
	Type       *string  `json:"type"`
	Kind       CardKind `json:"kind,omitempty"`
	Token      bool     `json:"token"`
	Owner      Player   `json:"owner"`
	Rotation   Rotation `json:"rotation"`
	Tapped     bool     `json:"tapped"`
	Quad       Quad     `json:"quad"`
	Confidence float64  `json:"confidence"`
}

// Identified reports whether vision named the card.
func (o CardObservation) Identified() bool { return o.Name != nil && *o.Name != "" }

// NameOr gives the card's name or def when it is unknown.
func (o CardObservation) NameOr(def string) string {
	if o.Identified() {
		return *o.Name
	}
	return def
}

// MatObservation says where the realm is in the image.
type MatObservation struct {
	Found bool `json:"found"`
	// Corners are A1, E1, E4, A4 in image pixels.
	Corners *Quad `json:"corners"`
}

// FrameObservation is everything vision read from one image.
type FrameObservation struct {
	Image    string            `json:"image,omitempty"`
	Frame    int               `json:"frame,omitempty"`
	Time     float64           `json:"time,omitempty"`
	Mat      MatObservation    `json:"mat"`
	Occluded bool              `json:"occluded"`
	Cards    []CardObservation `json:"cards"`
}

// StrPtr returns a pointer to s, for building observations in code.
func StrPtr(s string) *string { return &s }
