package vision

import (
	"image"
	"image/color"
	"math/rand/v2"
	"testing"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// textFace draws a smooth face (smoothFace) with a text box and a title
// dense with small print: rows of words of small dark glyphs, of the
// card's own text (seeded by art). Brought down to a camera's size and
// out of focus, the print blurs into keypoints that agree little with
// the face's sharp print.
func textFace(t testing.TB, path string, site bool, palette, art uint64) {
	t.Helper()
	smoothFace(t, path, site, palette, art)
	img := gocv.IMRead(path, gocv.IMReadColor)
	if img.Empty() {
		t.Fatalf("cannot read %s", path)
	}
	defer img.Close()
	w, h := img.Cols(), img.Rows()
	r := rand.New(rand.NewPCG(art, 3))
	// Art of flat shapes with sharp corners, over the smooth one.
	for i := 0; i < 4; i++ {
		c := color.RGBA{uint8(40 + r.IntN(200)), uint8(40 + r.IntN(200)), uint8(40 + r.IntN(200)), 0}
		var pts []image.Point
		for k := 0; k < 3; k++ {
			pts = append(pts, image.Pt(20+r.IntN(w-40), h/10+r.IntN(h*6/10)))
		}
		pv := gocv.NewPointsVectorFromPoints([][]image.Point{pts})
		gocv.FillPoly(&img, pv, c)
		pv.Close()
	}
	ink := color.RGBA{30, 28, 36, 0}
	syll := []string{"ka", "zan", "thel", "mir", "quo", "sor", "lum", "vor", "dun", "ith", "bel", "rak", "nel", "gro", "fen", "pex"}
	word := func() string {
		s := ""
		for n := 1 + r.IntN(2); n >= 0; n-- {
			s += syll[r.IntN(len(syll))]
		}
		return s
	}
	line := func() string {
		s := word()
		for n := 2 + r.IntN(2); n > 0; n-- {
			s += " " + word()
		}
		return s
	}
	for y := h*7/10 + h/16 + 26; y < h-20; y += 22 {
		gocv.PutText(&img, line(), image.Pt(24, y), gocv.FontHersheySimplex, 0.7, ink, 2)
	}
	gocv.PutText(&img, word()+" "+word(), image.Pt(24, h/10-18), gocv.FontHersheySimplex, 1.2, color.RGBA{240, 240, 240, 0}, 2)
	if !gocv.IMWrite(path, img) {
		t.Fatalf("cannot write %s", path)
	}
}

// textCatalog draws the cards' faces with text (textFace) into dir and
// gives them as a catalog.
func textCatalog(t testing.TB, dir string, cards []smoothCard) *models.Catalog {
	t.Helper()
	return drawnCatalog(t, dir, cards, textFace) // appearance_test.go
}

// softKeypoints gives the keypoints a camera shows of face ri lying in
// the outline of d, out of focus: the face's own keypoints where d lays
// them, of which only every sharpEvery-th keeps its descriptor, the others
// described as the blur of small print describes them, like nothing of
// any face (random bits).
func softKeypoints(a *Analyzer, d detection, ri, sharpEvery int) features {
	ref := &a.index.refs[ri]
	r := rand.New(rand.NewPCG(uint64(ri), 5))
	var f features
	for i, p := range ref.Feat.Points {
		x, y := d.sim.apply(float64(p.X), float64(p.Y))
		desc := ref.Feat.Descs[i]
		if i%sharpEvery != 0 {
			for k := range desc {
				desc[k] = r.Uint64()
			}
		}
		f.Points = append(f.Points, keypoint{float32(x), float32(y)})
		f.Descs = append(f.Descs, desc)
	}
	return f
}

// TestLookNameOfSoftCardStands: a card named by its look in its whole
// outline whose keypoints, out of focus, agree with its face too seldom
// for the keypoints' check (a third of them: the small print blurs) keeps
// its name when they agree with the other faces of its size still less
// (lookOverKeypoints). A card whose look named another face than the one
// it shows is still reported unknown: the keypoints agree with that face
// no more than with any other.
func TestLookNameOfSoftCardStands(t *testing.T) {
	cat := textCatalog(t, t.TempDir(), smoothCards())
	a := newTestAnalyzer(t, cat)
	v := sidesTestView(t)
	read := func(shown, named string, sharpEvery int) (kept, contradicted bool) {
		si, ni := refOf(t, a, shown), refOf(t, a, named)
		w, h := float64(a.index.refs[si].W), float64(a.index.refs[si].H)
		x0, y0 := float64(v.size.X)/2-w/2, float64(v.size.Y)/2-h/2
		q := [4]models.Point{{X: x0, Y: y0}, {X: x0 + w, Y: y0}, {X: x0 + w, Y: y0 + h}, {X: x0, Y: y0 + h}}
		ds, _ := lookDetection(&a.index.refs[si], si, q, 0.8)
		f := softKeypoints(a, ds, si, sharpEvery)
		d, _ := lookDetection(&a.index.refs[ni], ni, q, 0.8)
		cards := []models.CardObservation{a.observe(d, v)}
		ks := a.check(&d, f, keypointsInside(f, d.quad))
		contradicted = a.contradicted(&d, f, ks)
		a.confirmNames(f, v, cards, []namedCard{{0, d, true}}, []placed{{d.quad, models.KindStandard}})
		return cards[0].Name != nil, contradicted
	}
	for _, c := range [][2]string{{"smooth_00", "smooth_03"}, {"smooth_02", "smooth_05"}, {"smooth_05", "smooth_01"}, {"smooth_07", "smooth_04"}} {
		slug, other := c[0], c[1]
		if kept, contradicted := read(slug, slug, 3); !contradicted || !kept {
			t.Errorf("%s, soft, named by look: contradicted by its keypoints %v (want true), name kept %v (want true)", slug, contradicted, kept)
		}
		if kept, _ := read(slug, other, 3); kept {
			t.Errorf("%s, soft, named %s by look: name kept, want it unknown", slug, other)
		}
	}
}
