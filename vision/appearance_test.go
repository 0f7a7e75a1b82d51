package vision

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/synth"
	"gocv.io/x/gocv"
)

// smoothFace draws a made-up face of low texture, as a face whose art is
// smooth or soft looks (few corners for feature matching): the layout every
// face of the tests shares (a dark frame, a title bar, a type bar, a pale
// text box), and art of a smooth gradient between two colours under a few
// big ellipses with soft edges. palette seeds the gradient's colours, art
// the ellipses: two faces of one palette and other art look alike at a
// glance. A site is drawn landscape.
func smoothFace(t testing.TB, path string, site bool, palette, art uint64) {
	t.Helper()
	w, h := 504, 704
	if site {
		w, h = 704, 504
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	pr := rand.New(rand.NewPCG(palette, 1))
	ar := rand.New(rand.NewPCG(art, 2))
	rgb := func(r *rand.Rand) [3]float64 {
		return [3]float64{float64(40 + r.IntN(200)), float64(40 + r.IntN(200)), float64(40 + r.IntN(200))}
	}
	c0, c1 := rgb(pr), rgb(pr)
	type ellipse struct {
		cx, cy, a, b float64
		c            [3]float64
	}
	var es []ellipse
	for i := 0; i < 3; i++ {
		es = append(es, ellipse{float64(ar.IntN(w)), float64(ar.IntN(h)), float64(60 + ar.IntN(140)), float64(60 + ar.IntN(140)), rgb(ar)})
	}
	frame, bar, box := 14, h/10, h*7/10
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var c [3]float64
			switch {
			case x < frame || y < frame || x >= w-frame || y >= h-frame:
				c = [3]float64{20, 20, 24}
			case y < bar:
				c = [3]float64{70, 50, 90}
			case y >= box && y < box+h/16:
				c = [3]float64{90, 70, 110}
			case y >= box:
				c = [3]float64{215, 220, 228}
			default:
				f := (float64(x)/float64(w) + float64(y)/float64(h)) / 2
				for k := range c {
					c[k] = c0[k]*(1-f) + c1[k]*f
				}
				for _, e := range es {
					d := math.Hypot((float64(x)-e.cx)/e.a, (float64(y)-e.cy)/e.b)
					if a := math.Min(math.Max((1.2-d)/0.6, 0), 1) * 0.8; a > 0 {
						for k := range c {
							c[k] = c[k]*(1-a) + e.c[k]*a
						}
					}
				}
			}
			img.SetRGBA(x, y, color.RGBA{uint8(c[0]), uint8(c[1]), uint8(c[2]), 255})
		}
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
}

// smoothCard is a made-up card of a smooth face (smoothFace).
type smoothCard struct {
	slug         string
	site         bool
	palette, art uint64
}

// smoothCatalog draws the cards' faces into dir and gives them as a
// catalog (a card's name is its slug).
func smoothCatalog(t testing.TB, dir string, cards []smoothCard) *models.Catalog {
	t.Helper()
	return drawnCatalog(t, dir, cards, smoothFace)
}

// drawnCatalog draws the cards' faces into dir with draw and gives them as
// a catalog (a card's name is its slug).
func drawnCatalog(t testing.TB, dir string, cards []smoothCard, draw func(t testing.TB, path string, site bool, palette, art uint64)) *models.Catalog {
	t.Helper()
	var out []*models.Card
	for _, c := range cards {
		path := filepath.Join(dir, c.slug+".png")
		draw(t, path, c.site, c.palette, c.art)
		typ := models.Minion
		if c.site {
			typ = models.Site
		}
		out = append(out, &models.Card{Name: c.slug, Slug: c.slug, Type: typ, Image: path})
	}
	return models.NewCatalog(out)
}

// outlineError is how an outline is found off its card: moved shiftMM
// millimetres across and down the top-down image, and scaled by scale
// about its centre (1: the card's size).
type outlineError struct{ shiftMM, scale float64 }

// apply gives the outline q (top-down pixels of pxPerMM) found so.
func (e outlineError) apply(q models.Quad, pxPerMM float64) models.Quad {
	f := e.scale
	if f == 0 {
		f = 1
	}
	var cx, cy float64
	for _, p := range q {
		cx, cy = cx+p.X/4, cy+p.Y/4
	}
	var out models.Quad
	for k, p := range q {
		out[k] = models.Point{X: cx + (p.X-cx)*f + e.shiftMM*pxPerMM, Y: cy + (p.Y-cy)*f + e.shiftMM*pxPerMM}
	}
	return out
}

// smoothCards are eight units and eight sites of smooth faces, of their
// own art; cards 2k and 2k+1 share a palette (they look alike at a
// glance).
func smoothCards() []smoothCard {
	var cs []smoothCard
	for i := 0; i < 16; i++ {
		cs = append(cs, smoothCard{slug: fmt.Sprintf("smooth_%02d", i), site: i >= 8, palette: uint64(100 + i/2), art: uint64(200 + i)})
	}
	return cs
}

// lookScore counts how naming by look did on the fully visible cards of
// some frames.
type lookScore struct {
	full, right, turnedWrong, wrong int // cards of a's catalog: all, named right, named right but turned wrong, named wrong
	missing, missingNamed           int // cards a's catalog lacks: all, named
}

// smoothScenes renders frames of the smooth cards (cat) on a table, reads
// each with a, and names each fully visible card by look in its true
// outline (nameByLook: the outline search is not what is tested here),
// found off its card by off.
func smoothScenes(t *testing.T, cat *models.Catalog, a *Analyzer, off outlineError) lookScore {
	t.Helper()
	r, err := synth.NewRenderer(cat)
	if err != nil {
		t.Fatal(err)
	}
	var s lookScore
	for i := range 4 {
		scene, err := r.Scene(synth.SceneSeed(77, i), synth.SceneOptions{HandChance: -1, JPEGQuality: 85})
		if err != nil {
			t.Fatal(err)
		}
		frame, err := gocv.ImageToMatRGB(scene.Image)
		if err != nil {
			t.Fatal(err)
		}
		cal, err := calibration.FromCorners(scene.Truth.Corners, frame.Cols(), frame.Rows())
		if err != nil {
			t.Fatal(err)
		}
		// The frame's reading leaves its colour top-down image in a.
		_, err = a.Analyze(frame, cal)
		frame.Close()
		if err != nil {
			t.Fatal(err)
		}
		v, err := newView(scene.Truth.Corners, models.DefaultRealm(), 1280, 720, a.opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range scene.Truth.Cards {
			if c.VisibleFraction < 0.999 {
				continue
			}
			var q models.Quad
			for k, p := range c.Quad {
				q[k] = v.fromImg.Apply(p)
			}
			d, ok := a.nameByLook(clockwiseFromTopLeft(off.apply(q, v.pxPerMM)), v, nil)
			_, inCatalog := a.cat.BySlug(c.Slug)
			name := ""
			if ok {
				name = a.index.refs[d.ref].card.Name
			}
			switch {
			case !inCatalog:
				s.missing++
				if ok {
					s.missingNamed++
					t.Logf("scene %d: %s, missing from the catalog, named %s", i, c.Name, name)
				}
			case !ok:
				s.full++
				t.Logf("scene %d: %s not named", i, c.Name)
			case name != c.Name:
				s.full++
				s.wrong++
				t.Logf("scene %d: %s named %s", i, c.Name, name)
			default:
				s.full++
				s.right++
				if int(d.rotation()) != c.Rotation {
					s.turnedWrong++
					t.Logf("scene %d: %s turned %d, want %d", i, c.Name, d.rotation(), c.Rotation)
				}
			}
		}
	}
	return s
}

// TestNamesSmoothFacesByLook: cards whose faces are smooth (few corners for
// feature matching) are named by their look, each turned right.
func TestNamesSmoothFacesByLook(t *testing.T) {
	cat := smoothCatalog(t, t.TempDir(), smoothCards())
	a := newTestAnalyzer(t, cat)
	s := smoothScenes(t, cat, a, outlineError{})
	t.Logf("fully visible cards named right by look: %d of %d", s.right, s.full)
	if s.full < 10 {
		t.Fatalf("the scenes show %d cards fully, want 10 or more", s.full)
	}
	if s.wrong > 0 || s.turnedWrong > 0 {
		t.Errorf("%d cards named wrong, %d named right turned wrong", s.wrong, s.turnedWrong)
	}
	if float64(s.right) < 0.9*float64(s.full) {
		t.Errorf("named right %d of %d fully visible smooth cards, want 90%% or more", s.right, s.full)
	}
	// Outlines found off their cards: the faces are aligned on them
	// (lookIndex.align). An outline 4% large is the blur of a pale border
	// on a dark mat; one 7% small is a face's inner contour, which a
	// token's smaller thumbnail fits too (nameByLook compares such an
	// outline as its card's kind).
	for _, off := range []outlineError{{shiftMM: 3}, {scale: 1.04}, {shiftMM: 1, scale: 0.93}} {
		got := smoothScenes(t, cat, a, off)
		t.Logf("outlines %+v off: named right %d of %d", off, got.right, got.full)
		if got.wrong > 0 || got.turnedWrong > 0 || float64(got.right) < 0.8*float64(got.full) {
			t.Errorf("outlines %+v off: named right %d of %d (%d wrong, %d turned wrong), want 80%% or more and none wrong", off, got.right, got.full, got.wrong, got.turnedWrong)
		}
	}
}

// TestLookKeepsMissingCardUnknown: smooth cards missing from the catalog,
// each of the palette of one that is in it, stay unknown, while the
// catalog's smooth cards beside them are named by look.
func TestLookKeepsMissingCardUnknown(t *testing.T) {
	cat := smoothCatalog(t, t.TempDir(), smoothCards())
	missing := map[string]bool{}
	for i := 1; i < 16; i += 2 {
		missing[fmt.Sprintf("smooth_%02d", i)] = true
	}
	s := smoothScenes(t, cat, newTestAnalyzer(t, catalogWithout(cat, missing)), outlineError{})
	t.Logf("missing from the catalog: %d fully visible, %d named; the others: %d of %d named right", s.missing, s.missingNamed, s.right, s.full)
	if s.missing < 5 {
		t.Fatalf("the scenes show %d cards missing from the catalog fully, want 5 or more", s.missing)
	}
	if s.missingNamed > 0 || s.wrong > 0 {
		t.Errorf("%d cards missing from the catalog named, %d of the catalog named wrong", s.missingNamed, s.wrong)
	}
	if float64(s.right) < 0.8*float64(s.full) {
		t.Errorf("named right %d of %d fully visible smooth cards of the catalog, want 80%% or more", s.right, s.full)
	}
}

// TestIdentifySmoothFaceByLook: Identify names a picture of a smooth card
// (a small, soft crop in another light, either way up) by its look, and
// leaves a smooth card missing from the catalog unknown.
func TestIdentifySmoothFaceByLook(t *testing.T) {
	dir := t.TempDir()
	cat := smoothCatalog(t, dir, smoothCards())
	missing := map[string]bool{"smooth_03": true, "smooth_12": true}
	a := newTestAnalyzer(t, catalogWithout(cat, missing))
	for _, slug := range []string{"smooth_00", "smooth_02", "smooth_03", "smooth_09", "smooth_12", "smooth_14"} {
		for _, turned := range []bool{false, true} {
			c, _ := cat.BySlug(slug)
			face := gocv.IMRead(c.Image, gocv.IMReadColor)
			if face.Empty() {
				t.Fatalf("cannot read %s", c.Image)
			}
			// A webcam's crop: about 2 pixels a millimetre, soft, warmer
			// and darker than the scan.
			pic := gocv.NewMat()
			gocv.Resize(face, &pic, image.Pt(face.Cols()*2/7, face.Rows()*2/7), 0, 0, gocv.InterpolationArea)
			face.Close()
			gocv.GaussianBlur(pic, &pic, image.Pt(0, 0), 1.2, 1.2, gocv.BorderReplicate)
			pic.MultiplyFloat(0.8)
			pic.AddUChar(10)
			if turned {
				gocv.Rotate(pic, &pic, gocv.Rotate180Clockwise)
			}
			o, ok := a.Identify(pic)
			pic.Close()
			want := models.Rotation(0)
			if turned {
				want = 180
			}
			switch {
			case missing[slug] && ok:
				t.Errorf("%s (turned %v), missing from the catalog: named %s", slug, turned, o.NameOr(""))
			case !missing[slug] && (!ok || o.NameOr("") != slug):
				t.Errorf("%s (turned %v): named %q", slug, turned, o.NameOr(""))
			case !missing[slug] && o.Rotation != want:
				t.Errorf("%s (turned %v): rotation %d, want %d", slug, turned, o.Rotation, want)
			}
		}
	}
}
