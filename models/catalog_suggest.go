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
	c.suggestOnce.Do(c.buildSuggestNames)
	query := newSuggestName(q)
	var d distance
	type scored struct {
		i     int
		score float64
	}
	var best []scored
	for i := range c.suggestNames {
		s := d.nameSimilarity(&query, &c.suggestNames[i])
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

// suggestName is a normalized name prepared for comparing.
type suggestName struct {
	text  string
	runes []rune
	words []string
	wordR [][]rune
}

func newSuggestName(normalized string) suggestName {
	n := suggestName{text: normalized, runes: []rune(normalized), words: strings.Fields(normalized)}
	n.wordR = make([][]rune, len(n.words))
	for i, w := range n.words {
		n.wordR[i] = []rune(w)
	}
	return n
}

func (c *Catalog) buildSuggestNames() {
	c.suggestNames = make([]suggestName, len(c.names))
	for i, n := range c.names {
		c.suggestNames[i] = newSuggestName(n)
	}
}

// nameSimilarity scores a candidate name against the query from 0 (nothing
// alike) to 1 (equal).
func (d *distance) nameSimilarity(q, cand *suggestName) float64 {
	if q.text == cand.text {
		return 1
	}
	qn, cn := len(q.runes), len(cand.runes)
	score := 1 - float64(d.edit(q.runes, cand.runes))/float64(max(qn, cn))

	// Part of the name: "pelleas" in "sir pelleas".
	if qn >= 3 && strings.Contains(cand.text, q.text) {
		s := 0.8 + 0.19*float64(qn)/float64(cn)
		if strings.HasPrefix(cand.text, q.text) || strings.Contains(cand.text, " "+q.text) {
			s += 0.005
		}
		score = max(score, s)
	}

	// Word by word: each query word against its closest word of the name.
	var sum float64
	for i := range q.words {
		sum += d.bestWordMatch(q.words[i], q.wordR[i], cand)
	}
	words := sum / float64(len(q.words))
	// A name with many more words than the query is a weaker match.
	nq, nc := len(q.words), len(cand.words)
	cover := float64(min(nq, nc)) / float64(max(nq, nc))
	return max(score, words*(0.75+0.2*cover))
}

// bestWordMatch scores one query word against the closest word of cand.
func (d *distance) bestWordMatch(qw string, qr []rune, cand *suggestName) float64 {
	var best float64
	for i, w := range cand.words {
		wr := cand.wordR[i]
		var s float64
		switch {
		case w == qw:
			return 1
		case len(qr) >= 3 && strings.HasPrefix(w, qw):
			s = 0.85 + 0.1*float64(len(qr))/float64(len(wr))
		case absDiff(len(qr), len(wr)) <= 2:
			if dist := d.edit(qr, wr); dist <= 2 && dist < len(qr)/2+1 {
				s = 1 - float64(dist)/float64(max(len(qr), len(wr)))
			}
		}
		best = max(best, s)
	}
	return best
}

func absDiff(a, b int) int {
	if a < b {
		return b - a
	}
	return a - b
}

// distance holds the rows editDistance works in, reused across calls.
type distance struct{ prev2, prev, cur []int }

// edit counts the insertions, deletions, substitutions and swaps of
// neighbouring letters that turn a into b (optimal string alignment).
func (d *distance) edit(a, b []rune) int {
	if len(a) == 0 {
		return len(b)
	}
	if len(b) == 0 {
		return len(a)
	}
	if cap(d.prev) < len(b)+1 {
		d.prev2, d.prev, d.cur = make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	}
	prev2, prev, cur := d.prev2[:len(b)+1], d.prev[:len(b)+1], d.cur[:len(b)+1]
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
