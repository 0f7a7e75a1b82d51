package ui

import (
	"sort"
	"strings"

	"github.com/tablecam/tablecam/models"
)

// Suggest gives up to n catalog names for what the user has typed so far,
// best first. The name box completes as the user types, so the names that
// begin with the text come first, then those with a word that begins with
// it (shorter names first in each); then the catalog's own suggestions
// (models.Catalog.Suggest), which forgive typing slips ("arid dessert") and
// find a name from part of it. Case, punctuation and accents are ignored.
func Suggest(cat *models.Catalog, typed string, n int) []string {
	q := models.NormalizeName(typed)
	if cat == nil || q == "" || n <= 0 {
		return nil
	}
	// Completions: the catalog's Suggest scores whole words and typing
	// slips, and finds nothing for the first letter or two of a name.
	type completion struct {
		name string
		rank int // 0 the name begins with q, 1 one of its words does
	}
	var comps []completion
	seen := map[string]bool{}
	for _, c := range cat.Cards() {
		norm := models.NormalizeName(c.Name)
		switch {
		case seen[c.Name]:
		case strings.HasPrefix(norm, q):
			comps = append(comps, completion{c.Name, 0})
		case strings.Contains(norm, " "+q):
			comps = append(comps, completion{c.Name, 1})
		default:
			continue
		}
		seen[c.Name] = true
	}
	sort.Slice(comps, func(i, j int) bool {
		a, b := comps[i], comps[j]
		if a.rank != b.rank {
			return a.rank < b.rank
		}
		if len(a.name) != len(b.name) {
			return len(a.name) < len(b.name)
		}
		return a.name < b.name
	})
	out := make([]string, 0, n)
	for _, c := range comps[:min(n, len(comps))] {
		out = append(out, c.name)
	}
	for _, name := range cat.Suggest(typed, n) {
		if len(out) == n {
			break
		}
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
