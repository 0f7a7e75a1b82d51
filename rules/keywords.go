package rules

import (
	"strings"
	"unicode"

	"github.com/tablecam/tablecam/models"
)

// hasKeyword reports whether a card has keyword k: from the catalog's keywords,
// or, for catalogs that did not extract them, as a word of its rules text.
func hasKeyword(c *models.Card, k models.Keyword) bool {
	if c.Has(k) {
		return true
	}
	word := strings.ToLower(string(k))
	text := strings.ToLower(c.RulesText)
	for i := strings.Index(text, word); i >= 0; {
		end := i + len(word)
		before := i == 0 || !unicode.IsLetter(rune(text[i-1]))
		after := end == len(text) || !unicode.IsLetter(rune(text[end]))
		if before && after {
			return true
		}
		next := strings.Index(text[end:], word)
		if next < 0 {
			break
		}
		i = end + next
	}
	return false
}
