package rules

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tablecam/tablecam/models"
)

// suggestNames gives up to n catalog names closest to name (edit distance on
// normalized names, ties by name), for "did you mean" messages.
func suggestNames(cat *models.Catalog, name string, n int) []string {
	want := models.NormalizeName(name)
	type scored struct {
		name string
		d    int
	}
	var all []scored
	for _, c := range cat.Cards() {
		norm := models.NormalizeName(c.Name)
		d := editDistance(want, norm)
		if strings.Contains(norm, want) && want != "" {
			d = min(d, len(norm)-len(want))/2 + 1
		}
		all = append(all, scored{c.Name, d})
	}
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].d != all[j].d {
			return all[i].d < all[j].d
		}
		return all[i].name < all[j].name
	})
	limit := max(2, len(want)/2)
	var out []string
	for _, s := range all {
		if len(out) == n || s.d > limit {
			break
		}
		out = append(out, s.name)
	}
	return out
}

// unknownCardProblem words the problem of a name missing from the catalog.
func unknownCardProblem(cat *models.Catalog, name string) string {
	msg := fmt.Sprintf("unknown card %q", name)
	if s := suggestNames(cat, name, 3); len(s) > 0 {
		q := make([]string, len(s))
		for i, x := range s {
			q[i] = fmt.Sprintf("%q", x)
		}
		msg += " (did you mean " + strings.Join(q, ", ") + "?)"
	}
	return msg
}

// editDistance is the Levenshtein distance between a and b, by bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
