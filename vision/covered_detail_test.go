package vision

import (
	"math"
	"testing"

	"github.com/tablecam/tablecam/models"
)

// TestCoveredLookAlikeNotNamed puts a water site the catalog lacks
// (Tidewrack Cove: a catalog of the first 20 faces by slug, as a player who
// scanned one deck has) under a unit, a third or so of it showing, where
// the catalog's one other water site (Glimmering Shoals) shares its art's
// tones, its threshold and its text box: it must not be named, let alone
// as that look-alike (where it leads, its place is the site's, reported
// as a site without a name). The look-alike itself, drawn in the same places, is
// named right in most of them: the check takes the detail of a face that
// is there for it.
func TestCoveredLookAlikeNotNamed(t *testing.T) {
	full := devCatalog(t)
	slugs := facedSlugs(full)
	keep := map[string]bool{}
	for _, s := range slugs[:min(20, len(slugs))] {
		keep[s] = true
	}
	const absent, alike = "tidewrack_cove", "glimmering_shoals"
	if _, ok := full.BySlug(absent); !ok || !keep[alike] || keep[absent] {
		t.Skip("the catalog lacks the two water sites, or its first 20 faces differ")
	}
	missing := map[string]bool{}
	for _, s := range slugs {
		if !keep[s] {
			missing[s] = true
		}
	}
	a := newTestAnalyzer(t, catalogWithout(full, missing))
	faces := siteFacesOf(t, a)
	const cx, cy = 150.0, 112.5 // cell B2's centre, realm mm
	cell := models.Cell{Col: 1, Row: 1}
	cases := []struct {
		name           string
		unitDX, unitDY float64
		unitTurn       models.Rotation
	}{
		{"unit 14 mm east", 14, 2, 0},
		{"unit 14 mm west", -14, -1, 0},
		{"unit 20 mm east", 20, 2, 0},
		{"unit 20 mm west", -20, -1, 0}, // named the look-alike at turn 180 before the detail check
		{"unit 25 mm east", 25, 0, 0},
		{"unit 25 mm west", -25, 1, 0},
		{"unit tapped, to the south", -2, -14, 90},
	}
	lookAlikes, alikeNamed, tried := 0, 0, 0
	for _, tc := range cases {
		for _, rot := range []models.Rotation{0, 180} {
			for _, site := range []string{absent, alike} {
				unit := placement{slug: "granite_warden", x: cx + tc.unitDX, y: cy + tc.unitDY, rot: (rot + tc.unitTurn) % 360}
				gray, v := renderedTopGray(t, a, full, []placement{{slug: site, x: cx, y: cy, rot: rot, jitter: 1}, unit}, 120+uint64(rot))
				w, h := models.CardShortMM, models.CardLongMM
				found := []placed{{topDownQuad(v, unit.x, unit.y, float64(unit.rot), w, h), models.KindStandard}}
				places := sitePlacements(gray, v, cell, found, &edgeSums{}, false)
				n, named := a.nameSiteAt(gray, v, faces, places, found, len(places) > 0 && outlineShows(places[0]))
				gray.Close()
				got := ""
				if named {
					got = a.index.refs[n.det.ref].Slug
				}
				if site == absent && n.lookAlike {
					lookAlikes++
					// Reported as a site without a name, where it lies.
					c, want := n.det.quad.Center(), topDownQuad(v, cx, cy, float64(rot), models.CardLongMM, models.CardShortMM).Center()
					if e := math.Hypot(c.X-want.X, c.Y-want.Y) / v.pxPerMM; e > 4 {
						t.Errorf("%s, turn %d: the look-alike's place lies %.1f mm off the site", tc.name, rot, e)
					}
				}
				switch {
				case site == absent && named:
					t.Errorf("%s, turn %d: %s, which the catalog lacks, named %s", tc.name, rot, absent, got)
				case site == alike:
					tried++
					if got == alike {
						alikeNamed++
					} else if named {
						t.Errorf("%s, turn %d: %s named %s", tc.name, rot, alike, got)
					}
				}
			}
		}
	}
	if lookAlikes == 0 {
		t.Errorf("the look-alike led in none of the places: the scenes no longer try the detail check")
	}
	if alikeNamed < tried/2 {
		t.Errorf("%s itself named in %d of %d places, want half at least", alike, alikeNamed, tried)
	}
}

// TestDetailScoresAsPlain checks detailScores against detailScore, its
// plain reading, on a site under a unit and on the bare mat: every face at
// both turns and a few shifts, three radii at once, its buffers kept from
// call to call (one window after another, and more or less of each
// showing). The scores must be equal to the last bit, and not all 0.
func TestDetailScoresAsPlain(t *testing.T) {
	cat := devCatalog(t)
	a := newTestAnalyzer(t, cat)
	_, site := sitesByScan(t, cat)
	faces := siteFacesOf(t, a)
	const cx, cy = 150.0, 112.5
	unit := placement{slug: "granite_warden", x: cx + 12, y: cy + 2, rot: 0}
	gray, v := renderedTopGray(t, a, cat, []placement{{slug: site, x: cx, y: cy, rot: 180, jitter: 1}, unit}, 130)
	defer gray.Close()
	found := []placed{{topDownQuad(v, unit.x, unit.y, float64(unit.rot), models.CardShortMM, models.CardLongMM), models.KindStandard}}
	s := v.pxPerMM
	radii := []int{2, 4, 8}
	got := make([]float64, len(radii))
	nonzero := 0
	for _, at := range [][2]float64{{cx, cy}, {cx - 30, cy + 20}, {cx + 100, cy - 75}} {
		p := sitePlacement{cx: (at[0] + v.marginMM) * s, cy: (v.geo.HeightMM() + v.marginMM - at[1]) * s}
		w := readSiteWindow(gray, s, faces, p, 4, found, stripHiddenPad)
		for face := range faces.refs {
			for turn := 0; turn < 2; turn++ {
				for _, d := range [][2]int{{0, 0}, {-3, 2}, {4, -4}} {
					w.detailScores(faces, face, turn, d[0], d[1], radii, got)
					for k, r := range radii {
						want := w.detailScore(faces, face, turn, d[0], d[1], r)
						if got[k] != want {
							t.Fatalf("at %v, face %d turn %d shift %v radius %d: %v, the plain reading %v", at, face, turn, d, r, got[k], want)
						}
						if want != 0 {
							nonzero++
						}
					}
				}
			}
		}
	}
	if nonzero == 0 {
		t.Error("every score 0: nothing compared")
	}
}

// detailScore is detailScores for one radius, read the plain way (every
// face pixel, a new buffer each time): detailScores' reference. It gives the partial correlation of the detail of what shows
// in the window with face's, at a turn and a level-0 shift (see
// nameMinEvidence): each visible pixel less the mean of the visible pixels
// around it, in the window, the face and the mean site
// face alike, where at least a third of those pixels are visible, within
// r pixels each way. It is 0, no evidence either way, when fewer than
// detailMinPixels are so, or the detail is flat.
func (w *siteWindow) detailScore(faces *siteFaces, face, turn, dx, dy, r int) float64 {
	var buf pixelPairs
	pp := w.pairs(faces, 0, dx, dy, &buf)
	tw, th := faces.w[0], faces.h[0]
	t := faces.faceAt(0, turn, face)
	m := faces.mean[0][turn]
	o := make([]float64, tw*th)
	vis := make([]bool, tw*th)
	for _, run := range pp.runs {
		for k := int32(0); k < run.n; k++ {
			o[run.face+k] = float64(w.px[0][run.win+k])
			vis[run.face+k] = true
		}
	}
	// Summed-area tables of the visible pixels: their count, and their sums
	// in the window, the face and the mean face.
	W := tw + 1
	var sat [4][]float64
	for i := range sat {
		sat[i] = make([]float64, W*(th+1))
	}
	for y := 0; y < th; y++ {
		var row [4]float64
		for x := 0; x < tw; x++ {
			i := y*tw + x
			if vis[i] {
				row[0]++
				row[1] += o[i]
				row[2] += float64(t[i])
				row[3] += float64(m[i])
			}
			j := (y+1)*W + x + 1
			for k := range sat {
				sat[k][j] = sat[k][j-W] + row[k]
			}
		}
	}
	var n, so, st, sm, soo, stt, smm, sot, som, stm float64
	for y := 0; y < th; y++ {
		y0, y1 := max(y-r, 0), min(y+r+1, th)
		for x := 0; x < tw; x++ {
			i := y*tw + x
			if !vis[i] {
				continue
			}
			x0, x1 := max(x-r, 0), min(x+r+1, tw)
			box := func(a []float64) float64 { return a[y1*W+x1] - a[y0*W+x1] - a[y1*W+x0] + a[y0*W+x0] }
			nv := box(sat[0])
			if 3*nv < float64((2*r+1)*(2*r+1)) {
				continue
			}
			do := o[i] - box(sat[1])/nv
			dt := float64(t[i]) - box(sat[2])/nv
			dm := float64(m[i]) - box(sat[3])/nv
			n++
			so, st, sm = so+do, st+dt, sm+dm
			soo, stt, smm = soo+do*do, stt+dt*dt, smm+dm*dm
			sot, som, stm = sot+do*dt, som+do*dm, stm+dt*dm
		}
	}
	return partialOf(n, so, st, sm, soo, stt, smm, sot, som, stm)
}
