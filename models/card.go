package models

import (
	"fmt"
	"strings"
)

// CardType is a card's type line as the catalog gives it.
type CardType string

// The card types of Sorcery. Tokens are marked with Card.Token, whatever their type.
const (
	Avatar   CardType = "Avatar"
	Site     CardType = "Site"
	Minion   CardType = "Minion"
	Magic    CardType = "Magic"
	Aura     CardType = "Aura"
	Artifact CardType = "Artifact"
)

// IsUnit reports whether cards of this type stay on the realm as units
// (minions, avatars and artifacts).
func (t CardType) IsUnit() bool { return t == Minion || t == Avatar || t == Artifact }

// IsSpell reports whether the type is cast from the spellbook (everything but sites and avatars).
func (t CardType) IsSpell() bool { return t != Site && t != Avatar && t != "" }

// Rarity limits how many copies a deck may hold.
type Rarity string

const (
	Ordinary    Rarity = "Ordinary"
	Exceptional Rarity = "Exceptional"
	Elite       Rarity = "Elite"
	Unique      Rarity = "Unique"
)

// MaxCopies gives the deck limit for the rarity (0 when the rarity is unknown,
// which means no limit is known).
func (r Rarity) MaxCopies() int {
	switch r {
	case Ordinary:
		return 4
	case Exceptional:
		return 3
	case Elite:
		return 2
	case Unique:
		return 1
	}
	return 0
}

// Keyword is an ability word the rules engine needs to see.
type Keyword string

// The keywords found in rules text.
const (
	Airborne    Keyword = "Airborne"
	Burrowing   Keyword = "Burrowing"
	Submerge    Keyword = "Submerge"
	Voidwalk    Keyword = "Voidwalk"
	Spellcaster Keyword = "Spellcaster"
	Stealth     Keyword = "Stealth"
	Immobile    Keyword = "Immobile"
	Waterbound  Keyword = "Waterbound"
	Landbound   Keyword = "Landbound"
	Ranged      Keyword = "Ranged"
	Charge      Keyword = "Charge"
	Lethal      Keyword = "Lethal"
	Genesis     Keyword = "Genesis"
	Deathrite   Keyword = "Deathrite"
	Movement    Keyword = "Movement"
)

// AllKeywords lists every keyword in a stable order.
var AllKeywords = []Keyword{Airborne, Burrowing, Submerge, Voidwalk, Spellcaster, Stealth, Immobile,
	Waterbound, Landbound, Ranged, Charge, Lethal, Genesis, Deathrite, Movement}

// Card is one card of the catalog. Numbers the card does not have are nil.
type Card struct {
	Name       string     `json:"name"`
	Slug       string     `json:"slug"`
	Type       CardType   `json:"type"`
	Rarity     Rarity     `json:"rarity,omitempty"`
	Cost       *int       `json:"cost"`
	Attack     *int       `json:"attack"`
	Defence    *int       `json:"defence"`
	Life       *int       `json:"life"`
	Thresholds Thresholds `json:"thresholds"`
	Elements   []Element  `json:"-"`
	Subtypes   []string   `json:"subtypes,omitempty"`
	RulesText  string     `json:"rules_text,omitempty"`
	// Keywords found in the rules text.
	Keywords []Keyword `json:"keywords,omitempty"`
	// MovementBonus is N of "Movement +N" (0 when absent).
	MovementBonus int `json:"movement_bonus,omitempty"`
	// Token marks token cards (half-size in play).
	Token bool `json:"token,omitempty"`
	// Printings lists the slugs of the card's printed variants.
	Printings []string `json:"printings,omitempty"`
	// Sets lists the names of the sets the card was printed in.
	Sets []string `json:"sets,omitempty"`
	// Image is the path of the reference face, empty when the catalog has none.
	Image string `json:"image,omitempty"`
}

// Has reports whether the card has keyword k.
func (c *Card) Has(k Keyword) bool {
	for _, x := range c.Keywords {
		if x == k {
			return true
		}
	}
	return false
}

// CostOrZero gives the mana cost, or 0 when the card has none.
func (c *Card) CostOrZero() int {
	if c.Cost == nil {
		return 0
	}
	return *c.Cost
}

// IsWaterSite reports whether the card is a site with a water threshold.
func (c *Card) IsWaterSite() bool { return c.Type == Site && c.Thresholds.Water > 0 }

// ElementNames gives the elements as lower-case names.
func (c *Card) ElementNames() []string {
	out := make([]string, len(c.Elements))
	for i, e := range c.Elements {
		out[i] = e.String()
	}
	return out
}

// String gives "Name (Type)".
func (c *Card) String() string {
	return fmt.Sprintf("%s (%s)", c.Name, strings.ToLower(string(c.Type)))
}

// IntPtr returns a pointer to n, for building cards in code.
func IntPtr(n int) *int { return &n }
