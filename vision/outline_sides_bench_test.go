package vision

import (
	"encoding/binary"
	"math"
	"math/bits"
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
		quads := quadsOfDetections(s.dets)
		if _, err := a.outlines.findUnknownCards(s.gray, sharpnessOf(s.gray, s.v), s.v, quads); err != nil {
			tb.Fatal(err)
		}
		ss := sidedSearch{stackedSearch: s, thin: a.outlines.sides.thin.Clone(), grey: a.outlines.sides.grey.Clone()}
		tb.Cleanup(func() { ss.thin.Close(); ss.grey.Close() })
		out = append(out, ss)
	}
	return out
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
		thin := s.thin.Clone()
		defer thin.Close()
		px, err := a.outlines.edges.markDirections(thin, s.grey, nil)
		if err != nil {
			t.Fatal(err)
		}
		dirs, err := thin.DataPtrUint8()
		if err != nil {
			t.Fatal(err)
		}
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

// TestEdgeDirectionsArePlain checks markDirections (in C, its
// arctangents eight at a time) against marking the edges with the
// directions of the blurred image's gradients as plainly as can be
// (plainMarkDirections, in Go): the same marks on the bundled stills'
// edges, at every vector width, the border cleared, and the same pixels
// listed.
func TestEdgeDirectionsArePlain(t *testing.T) {
	a := newTestAnalyzer(t, firstFacesCatalog(t, 20))
	n := 40
	if testing.Short() {
		n = 10
	}
	edges := 0
	for _, s := range sidedSearches(t, a, n) {
		w, h := s.thin.Cols(), s.thin.Rows()
		grey, err := s.grey.DataPtrUint8()
		if err != nil {
			t.Fatal(err)
		}
		pix, err := s.thin.DataPtrUint8()
		if err != nil {
			t.Fatal(err)
		}
		want := slices.Clone(pix)
		wantPx := plainMarkDirections(want, edgeMap{pix: grey, w: w, h: h}, nil)
		for _, width := range []vectorWidth{widestVectors, avx2Vectors, noVectors} {
			thin := s.thin.Clone()
			px, err := a.outlines.edges.markDirectionsWidth(thin, s.grey, nil, width)
			if err != nil {
				t.Fatal(err)
			}
			got, err := thin.DataPtrUint8()
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				diff := 0
				for i := range got {
					if got[i] != want[i] {
						diff++
					}
				}
				t.Fatalf("%s (vectors %d): %d of %d pixels marked otherwise than plainly", s.name, width, diff, len(got))
			}
			if !slices.Equal(px, wantPx) {
				t.Fatalf("%s (vectors %d): %d edge pixels listed, %d plainly", s.name, width, len(px), len(wantPx))
			}
			thin.Close()
		}
		edges += len(wantPx)
	}
	if edges == 0 {
		t.Fatal("no edges: the comparison says little")
	}
}

// TestEdgeDirectionCodes checks the direction marks of markDirections
// against dirCode(dirStep(gx, gy)) for every gradient a 3×3 Sobel of 8-bit
// pixels gives (each derivative within ±1020), at every vector width.
func TestEdgeDirectionCodes(t *testing.T) {
	const most = 4 * 255
	gx := make([]int32, 0, (2*most+1)*(2*most+1))
	gy := make([]int32, 0, cap(gx))
	for y := -most; y <= most; y++ {
		for x := -most; x <= most; x++ {
			gx, gy = append(gx, int32(x)), append(gy, int32(y))
		}
	}
	want := make([]byte, len(gx))
	for k := range want {
		want[k] = 1
		if gx[k] != 0 || gy[k] != 0 {
			want[k] = dirCode(dirStep(float64(gx[k]), float64(gy[k])))
		}
	}
	for _, width := range []vectorWidth{widestVectors, avx2Vectors, noVectors} {
		got := edgeDirCodes(gx, gy, width)
		for k := range got {
			if got[k] != want[k] {
				t.Fatalf("vectors %d, gradient (%d, %d): marked %d, want %d", width, gx[k], gy[k], got[k], want[k])
			}
		}
	}
}

// plainMarkDirections is markDirections as plainly as can be: it marks
// each pixel of an edge map (of the image grey shows, lightly blurred), in
// place, with its gradient's direction modulo a whole turn (dirCode), and
// lists the pixels (y·w + x) row by row, in out. The pixels in the image's
// border rows and columns are left out (and cleared).
func plainMarkDirections(edges []byte, grey edgeMap, out []int32) []int32 {
	w, h := grey.w, grey.h
	out = out[:0]
	g := grey.pix
	if len(edges) < w*h || len(g) < w*h || w < 10 || h < 3 {
		return out
	}
	clear(edges[:w])
	clear(edges[(h-1)*w : h*w])
	for y := 1; y < h-1; y++ {
		row := edges[y*w : (y+1)*w]
		row[0], row[w-1] = 0, 0
		// Eight pixels at a time: most are off the edges.
		for x0 := 0; x0 < w; x0 += 8 {
			var word uint64
			if x0+8 <= w {
				word = binary.LittleEndian.Uint64(row[x0:])
			} else {
				for k := x0; k < w; k++ {
					word |= uint64(row[k]) << (8 * (k - x0))
				}
			}
			for word != 0 {
				k := bits.TrailingZeros64(word) / 8
				word &^= 0xff << (8 * k)
				x := x0 + k
				i := y*w + x
				a, b, c := int(g[i-w-1]), int(g[i-w]), int(g[i-w+1])
				d, f := int(g[i-1]), int(g[i+1])
				e, k2, l := int(g[i+w-1]), int(g[i+w]), int(g[i+w+1])
				gx := c + 2*f + l - a - 2*d - e
				gy := e + 2*k2 + l - a - 2*b - c
				code := byte(1) // no direction (rare): an edge still
				if gx != 0 || gy != 0 {
					code = dirCode(dirStep(float64(gx), float64(gy)))
				}
				row[x] = code
				out = append(out, int32(i))
			}
		}
	}
	return out
}
