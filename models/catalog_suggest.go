package models

import (
	"sort"
	"strings"
)

// minSuggestScore is the least similarity (0–1) a name needs to be suggested.
const minSuggestScore = 0.55

// suggestSpread is how far behind the best suggestion the others may be.
const suggestSpread = 0.15

// Suggest gives up to n card names closest to name, best first: names a
// typing slip away ("Arid Dessert" → Arid Desert), names that contain what
// was typed ("pelleas" → Sir Pelleas), and names sharing most of its words
// ("desert arid"). Names too far from anything give no suggestion.
func (c *Catalog) Suggest(name string, n int) []string {
	q := NormalizeName(name)
	if q == "" || n <= 0 {
		return nil
	}
	qr := []rune(q)
	qWords := strings.Fields(q)
	type scored struct {
		i     int
		score float64
	}
	var best []scored
	for i, cand := range c.names {
		s := nameSimilarity(q, qr, qWords, cand)
		if s >= minSuggestScore {
			best = append(best, scored{i, s})
		}
	}
	sort.SliceStable(best, func(a, b int) bool {
		if best[a].score != best[b].score {
			return best[a].score > best[b].score
		}
		return c.cards[best[a].i].Name < c.cards[best[b].i].Name
	})
	var out []string
	seen := map[string]bool{}
	for _, b := range best {
		if b.score < best[0].score-suggestSpread {
			break // far behind the best: noise rather than help
		}
		name := c.cards[b.i].Name
		if seen[name] {
			continue
		}
		seen[name] = true
		out = append(out, name)
		if len(out) == n {
			break
		}
	}
	return out
}

// nameSimilarity scores a normalized candidate name against the normalized
// query q (with its runes and words) from 0 (nothing alike) to 1 (equal).
func nameSimilarity(q string, qr []rune, qWords []string, cand string) float64 {
	if q == cand {
		return 1
	}
	cr := []rune(cand)
	score := 1 - float64(editDistance(qr, cr))/float64(max(len(qr), len(cr)))

	// Part of the name: "pelleas" in "sir pelleas".
	if len(qr) >= 3 && strings.Contains(cand, q) {
		s := 0.8 + 0.19*float64(len(qr))/float64(len(cr))
		if strings.HasPrefix(cand, q) || strings.Contains(cand, " "+q) {
			s += 0.005
		}
		score = max(score, s)
	}

	// Word by word: each query word against its closest word of the name.
	cWords := strings.Fields(cand)
	var sum float64
	for _, qw := range qWords {
		sum += bestWordMatch(qw, cWords)
	}
	words := sum / float64(len(qWords))
	// A name with many more words than the query is a weaker match.
	cover := float64(min(len(qWords), len(cWords))) / float64(max(len(qWords), len(cWords)))
	score = max(score, words*(0.75+0.2*cover))
	return score
}

// bestWordMatch scores one query word against the closest of words.
func bestWordMatch(qw string, words []string) float64 {
	var best float64
	qr := []rune(qw)
	for _, w := range words {
		var s float64
		switch {
		case w == qw:
			s = 1
		case len(qr) >= 3 && strings.HasPrefix(w, qw):
			s = 0.85 + 0.1*float64(len(qr))/float64(len([]rune(w)))
		default:
			wr := []rune(w)
			d := editDistance(qr, wr)
			if d <= 2 && d < len(qr)/2+1 {
				s = 1 - float64(d)/float64(max(len(qr), len(wr)))
			}
		}
		best = max(best, s)
	}
	return best
}

// editDistance counts the insertions, deletions, substitutions and swaps of
// neighbouring letters that turn a into b (optimal string alignment).
func editDistance(a, b []rune) int {
	if len(a) == 0 {
		return len(b)
	}
	if len(b) == 0 {
		return len(a)
	}
	prev2 := make([]int, len(b)+1)
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
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
