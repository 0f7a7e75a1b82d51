package rules

import (
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
