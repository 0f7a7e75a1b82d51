package vision

import (
	"math"
	"slices"
	"testing"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// sidedSearch is a stacked search with the edges and the blurred image
// findUnknownCards left for the side search in its frame.
type sidedSearch struct {
	stackedSearch
	thin, grey gocv.Mat
}

// sidedSearches reads the bundled stills (the first n; all when n is 0)
// as stackedSearches does, keeping each frame's side-search images.
func sidedSearches(tb testing.TB, a *Analyzer, n int) []sidedSearch {
	tb.Helper()
	var out []sidedSearch
	for _, s := range stackedSearches(tb, a, n) {
		quads := quadsOfDets(s.dets)
		if _, err := a.outlines.findUnknownCards(s.gray, s.v, quads); err != nil {
			tb.Fatal(err)
		}
		ss := sidedSearch{stackedSearch: s, thin: a.outlines.sides.thin.Clone(), grey: a.outlines.sides.grey.Clone()}
		tb.Cleanup(func() { ss.thin.Close(); ss.grey.Close() })
		out = append(out, ss)
	}
	return out
}

func quadsOfDets(dets []detection) []models.Quad {
	var q []models.Quad
	for _, d := range dets {
		q = append(q, d.quad)
	}
	return q
}

// run gives the side search's cards in the frame (its images restored).
func (s *sidedSearch) run(a *Analyzer) []stackedCard {
	b := &a.outlines.sides
	s.thin.CopyTo(&b.thin)
	s.grey.CopyTo(&b.grey)
	b.ready = true
	shows := func(d *detection, q models.Quad) bool { return a.faceShowsWithin(s.f, d, q, s.v.pxPerMM) }
	return a.outlines.findSidedCards(s.gray, s.v, s.f.Points, s.dets, s.found, shows)
}

// BenchmarkSidedCards times the side search (findSidedCards) alone on the
// bundled stills, in CPU time of one locked thread per frame (the copy of
// its images included).
func BenchmarkSidedCards(b *testing.B) {
	benchmarkSearch(b, sidedSearches)
}

// TestSegmentsOfIsPlain checks segmentsOf, which grows its runs over the
// marks it clears (three neighbours at a time) and puts them back, against
// growing them as plainly as can be (a neighbour at a time, a bit a pixel
// for those seen): the same segments on the bundled stills' edges, and the
// marks as they were.
func TestSegmentsOfIsPlain(t *testing.T) {
	a := newTestAnalyzer(t, firstFacesCatalog(t, 20))
	n := 40
	if testing.Short() {
		n = 10
	}
	total := 0
	var codes []byte
	for _, s := range sidedSearches(t, a, n) {
		w, h := s.thin.Cols(), s.thin.Rows()
		pix, err := s.thin.DataPtrUint8()
		if err != nil {
			t.Fatal(err)
		}
		grey, err := s.grey.DataPtrUint8()
		if err != nil {
			t.Fatal(err)
		}
		dirs := slices.Clone(pix)
		px := markDirections(dirs, edgeMap{pix: grey, w: w, h: h}, nil)
		marked := slices.Clone(dirs)
		minLen := sideMinShare * models.CardShortMM * s.v.pxPerMM
		var got []segment
		got, codes = segmentsOf(dirs, px, w, codes, minLen)
		if !slices.Equal(dirs, marked) {
			t.Fatalf("%s: the marks are not put back", s.name)
		}
		want := plainSegmentsOf(marked, px, w, make([]uint64, (w*h+63)/64), minLen)
		if !slices.Equal(got, want) {
			t.Fatalf("%s: segments %v, grown plainly %v", s.name, got, want)
		}
		total += len(want)
	}
	if total == 0 {
		t.Fatal("no segment found: the comparison says little")
	}
}

// plainSegmentsOf is segmentsOf as plainly as can be: a neighbour at a
// time, those seen a bit a pixel (all clear, left set where the runs lie).
func plainSegmentsOf(dirs []byte, px []int32, w int, seen []uint64, minLen float64) []segment {
	tol := int8(math.Round(sideDirTolDeg * dirSteps / 360))
	var offsets [8]int
	n := 0
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			if dx != 0 || dy != 0 {
				offsets[n] = dy*w + dx
				n++
			}
		}
	}
	var out []segment
	var region []runPixel
	for _, i := range px {
		if seen[i>>6]&(1<<(i&63)) != 0 {
			continue
		}
		seen[i>>6] |= 1 << (i & 63)
		region = append(region[:0], runPixel{i, i % int32(w), i / int32(w)})
		ang := dirs[i]
		c1, s1 := stepCos[ang], stepSin[ang]
		x0, y0 := int(i)%w, int(i)/w
		x1, y1 := x0, y0
		for k := 0; k < len(region); k++ {
			p := int(region[k].i)
			for _, o := range offsets {
				j := p + o
				bj := dirs[j]
				if bj == 0 || seen[j>>6]&(1<<(j&63)) != 0 {
					continue
				}
				if d := int8(bj - ang); d > tol || d < -tol {
					continue
				}
				seen[j>>6] |= 1 << (j & 63)
				region = append(region, runPixel{int32(j), int32(j % w), int32(j / w)})
				c1, s1 = c1+stepCos[bj], s1+stepSin[bj]
				if n := len(region); n&(n-1) == 0 || n%16 == 0 {
					ang = dirCode(dirStep(c1, s1))
				}
				x, y := j%w, j/w
				x0, x1, y0, y1 = min(x0, x), max(x1, x), min(y0, y), max(y1, y)
			}
		}
		if float64(len(region)) < sideMinDensity*minLen || math.Hypot(float64(x1-x0), float64(y1-y0)) < minLen {
			continue
		}
		if s, ok := fitSegment(region, minLen); ok {
			out = append(out, s)
		}
	}
	return out
}
