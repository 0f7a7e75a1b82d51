package rules

import (
	"strings"

	"github.com/tablecam/tablecam/models"
)

// hasKeyword reports whether a card has keyword k: from the catalog's keywords,
// or, for cards built without them, as the catalog would find it in the rules
// text (models.FindKeywords).
func hasKeyword(c *models.Card, k models.Keyword) bool {
	if c.Has(k) {
		return true
	}
	if len(c.Keywords) > 0 || c.RulesText == "" {
		return false
	}
	found, _ := models.FindKeywords(c.RulesText)
	for _, x := range found {
		if x == k {
			return true
		}
	}
	return false
}

// movementBonus gives the N of a card's "Movement +N": the catalog's, or, for
// cards built without it, as the catalog would read it from the rules text.
func movementBonus(c *models.Card) int {
	if c.MovementBonus > 0 || len(c.Keywords) > 0 || c.RulesText == "" {
		return c.MovementBonus
	}
	_, n := models.FindKeywords(c.RulesText)
	return n
}

// hasSubtype reports whether the card's type line has subtype s ("Automaton",
// "Monument"), ignoring case.
func hasSubtype(c *models.Card, s string) bool {
	for _, x := range c.Subtypes {
		if strings.EqualFold(strings.TrimSpace(x), s) {
			return true
		}
	}
	return false
}

// isMinion reports whether the card is a minion: a minion card or token, or
// an Automaton ("Automatons are artifacts that are minions", Automatons).
func isMinion(c *models.Card) bool {
	return c.Type == models.Minion || (c.Type == models.Artifact && hasSubtype(c, "Automaton"))
}

// carriable reports whether an artifact can be carried: Automatons and
// Monuments cannot ("Monuments are an artifact subtype that cannot be carried").
func carriable(c *models.Card) bool {
	return c.Type == models.Artifact && !hasSubtype(c, "Automaton") && !hasSubtype(c, "Monument")
}
