package ui

import (
	"sort"
	"strings"

	"github.com/tablecam/tablecam/models"
)

// Suggest gives up to n catalog names matching what the user typed, best
// first: names that start with it, then names with a word that starts with
// it, then names holding its letters in order (a fuzzy match, so "arddes"
// finds "Arid Desert"). Case, punctuation and accents are ignored.
func Suggest(cat *models.Catalog, typed string, n int) []string {
	q := models.NormalizeName(typed)
	if cat == nil || q == "" || n <= 0 {
		return nil
	}
	type hit struct {
		name  string
		score int
	}
	var hits []hit
	seen := map[string]bool{}
	for _, c := range cat.Cards() {
		if seen[c.Name] {
			continue
		}
		seen[c.Name] = true
		norm := models.NormalizeName(c.Name)
		score := matchScore(norm, q)
		if score < 0 {
			continue
		}
		hits = append(hits, hit{c.Name, score})
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].score != hits[j].score {
			return hits[i].score < hits[j].score
		}
		if len(hits[i].name) != len(hits[j].name) {
			return len(hits[i].name) < len(hits[j].name)
		}
		return hits[i].name < hits[j].name
	})
	out := make([]string, 0, min(n, len(hits)))
	for _, h := range hits[:min(n, len(hits))] {
		out = append(out, h.name)
	}
	return out
}

// matchScore ranks how well the normalized name matches the normalized
// query: 0 exact, 1 prefix, 2 a word's prefix, 3 a substring, 4 + gaps for a
// subsequence; -1 for no match.
func matchScore(name, q string) int {
	switch {
	case name == q:
		return 0
	case strings.HasPrefix(name, q):
		return 1
	case strings.Contains(" "+name, " "+q):
		return 2
	case strings.Contains(name, q):
		return 3
	}
	// Letters in order, spaces in the query ignored; fewer gaps rank higher.
	q = strings.ReplaceAll(q, " ", "")
	gaps, j, last := 0, 0, -1
	for i := 0; i < len(name) && j < len(q); i++ {
		if name[i] == q[j] {
			if last >= 0 && i != last+1 {
				gaps++
			}
			last = i
			j++
		}
	}
	if j < len(q) {
		return -1
	}
	return 4 + gaps
}
