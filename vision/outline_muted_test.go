package vision

import (
	"image"
	"image/color"
	"math"
	"math/rand"
	"path/filepath"
	"testing"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// mutedGrey is the grey of TestMutedCardsOnGreyMat's mat and of its faces'
// borders.
const mutedGrey = 120

// mutedShare is how much of a face's contrast its muted copy keeps.
var mutedShare = 0.1

// The mat's texture as the independent renderer draws its felt: a mottle
// of mutedMottle levels either way over about mutedMottlePx pixels, and a
// weave of mutedWeave levels over about 1.5 pixels; then the camera's
// noise (σ mutedNoise levels) and its JPEG (quality mutedJPEG).
const (
	mutedMottle   = 10
	mutedMottlePx = 48
	mutedWeave    = 7
	mutedNoise    = 4.0
	mutedJPEG     = 75
)

// mutedCatalog makes a catalog of muted faces from the first sites and
// units of the dev catalog: each face less its border's colour, times
// mutedShare, about mutedGrey (the border the mat's grey, the rest within
// a few tens of levels of it).
func mutedCatalog(t *testing.T) *models.Catalog {
	t.Helper()
	dir := t.TempDir()
	var out []*models.Card
	sites, units := 0, 0
	for _, c := range devCatalog(t).Cards() {
		site := kindOf(c) == models.KindSite
		if kindOf(c) == models.KindToken || (site && sites == 5) || (!site && units == 6) {
			continue
		}
		face := gocv.IMRead(c.Image, gocv.IMReadColor)
		if face.Empty() {
			t.Fatalf("cannot read %s", c.Image)
		}
		// The border (a pixel near the corner) becomes the mat's grey.
		b := face.GetVecbAt(6, 6)
		border := [3]float64{float64(b[0]), float64(b[1]), float64(b[2])}
		px, err := face.DataPtrUint8()
		if err != nil {
			t.Fatal(err)
		}
		for i := range px {
			px[i] = uint8(math.Round(mutedGrey + mutedShare*(float64(px[i])-border[i%3])))
		}
		path := filepath.Join(dir, c.Slug+".png")
		if !gocv.IMWrite(path, face) {
			t.Fatalf("cannot write %s", path)
		}
		face.Close()
		cc := *c
		cc.Image = path
		out = append(out, &cc)
		if site {
			sites++
		} else {
			units++
		}
	}
	return models.NewCatalog(out)
}

// mutedCard is a face of mutedCatalog placed on TestMutedCardsOnGreyMat's
// mat: its centre (realm millimetres from A1, y north), turned clockwise
// by deg.
type mutedCard struct {
	slug      string
	x, y, deg float64
}

// mutedFrame draws the cards on a mat of mutedGrey with darker grid lines,
// each with a soft drop shadow (offset 1.2 mm east and 1.5 mm south,
// darkening by a third), seen straight from above at 2 pixels a
// millimetre, blurred a little and with the camera's noise (σ 2 levels).
func mutedFrame(t *testing.T, cat *models.Catalog, cards []mutedCard) (gocv.Mat, *calibration.Calibration) {
	t.Helper()
	const w, h, s, x0, y0 = 1280, 720, 2.0, 140.0, 660.0
	corners := models.Quad{{X: x0, Y: y0}, {X: x0 + 500*s, Y: y0}, {X: x0 + 500*s, Y: y0 - 300*s}, {X: x0, Y: y0 - 300*s}}
	// The mat: mutedGrey, mottled and woven.
	rng := rand.New(rand.NewSource(3))
	img := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(mutedGrey, mutedGrey, mutedGrey, 0), h, w, gocv.MatTypeCV8UC3)
	ip, err := img.DataPtrUint8()
	if err != nil {
		t.Fatal(err)
	}
	for _, tx := range []struct{ px, amp float64 }{{mutedMottlePx, mutedMottle}, {1.5, mutedWeave}} {
		cw, ch := int(float64(w)/tx.px)+2, int(float64(h)/tx.px)+2
		coarse := gocv.NewMatWithSize(ch, cw, gocv.MatTypeCV32F)
		for y := 0; y < ch; y++ {
			for x := 0; x < cw; x++ {
				coarse.SetFloatAt(y, x, float32((rng.Float64()*2-1)*tx.amp))
			}
		}
		big := gocv.NewMat()
		gocv.Resize(coarse, &big, image.Pt(w, h), 0, 0, gocv.InterpolationCubic)
		bp, err := big.DataPtrFloat32()
		if err != nil {
			t.Fatal(err)
		}
		for i, d := range bp {
			for c := 0; c < 3; c++ {
				ip[3*i+c] = uint8(math.Max(0, math.Min(255, math.Round(float64(ip[3*i+c])+float64(d)))))
			}
		}
		coarse.Close()
		big.Close()
	}
	for c := 0; c <= models.Columns; c++ {
		x := int(x0 + float64(c)*100*s)
		gocv.Line(&img, image.Pt(x, int(y0)), image.Pt(x, int(y0-300*s)), color.RGBA{95, 95, 95, 0}, 2)
	}
	for r := 0; r <= models.Rows; r++ {
		y := int(y0 - float64(r)*75*s)
		gocv.Line(&img, image.Pt(int(x0), y), image.Pt(int(x0+500*s), y), color.RGBA{95, 95, 95, 0}, 2)
	}
	for _, mc := range cards {
		card, ok := cat.BySlug(mc.slug)
		if !ok {
			t.Fatalf("no card %q", mc.slug)
		}
		face := gocv.IMRead(card.Image, gocv.IMReadColor)
		kind := kindOf(card)
		if kind == models.KindSite && face.Rows() > face.Cols() {
			gocv.Rotate(face, &face, gocv.Rotate90Clockwise)
		}
		fw, fh := faceSizeMM(kind)
		th := mc.deg * math.Pi / 180
		cos, sin := math.Cos(th), math.Sin(th)
		at := func(cx, cy float64, k float64) gocv.Mat { // face pixels → frame, scaled about the centre by k
			sx, sy := k*fw*s/float64(face.Cols()), k*fh*s/float64(face.Rows())
			aff := gocv.NewMatWithSize(2, 3, gocv.MatTypeCV64F)
			aff.SetDoubleAt(0, 0, cos*sx)
			aff.SetDoubleAt(0, 1, -sin*sy)
			aff.SetDoubleAt(0, 2, -cos*k*fw*s/2+sin*k*fh*s/2+cx)
			aff.SetDoubleAt(1, 0, sin*sx)
			aff.SetDoubleAt(1, 1, cos*sy)
			aff.SetDoubleAt(1, 2, -sin*k*fw*s/2-cos*k*fh*s/2+cy)
			return aff
		}
		cx, cy := x0+mc.x*s, y0-mc.y*s
		white := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(255, 0, 0, 0), face.Rows(), face.Cols(), gocv.MatTypeCV8U)
		// The shadow.
		shadow, aff := gocv.NewMat(), at(cx+1.2*s, cy+1.5*s, 1)
		gocv.WarpAffineWithParams(white, &shadow, aff, image.Pt(w, h), gocv.InterpolationLinear, gocv.BorderConstant, color.RGBA{})
		gocv.GaussianBlur(shadow, &shadow, image.Pt(0, 0), 3, 3, gocv.BorderConstant)
		sp, _ := shadow.DataPtrUint8()
		for i, v := range sp {
			for c := 0; c < 3; c++ {
				ip[3*i+c] = uint8(float64(ip[3*i+c]) * (1 - 0.35*float64(v)/255))
			}
		}
		aff.Close()
		shadow.Close()
		// The face.
		aff = at(cx, cy, 1)
		pasteWarped(face, &img, aff, 0)
		for _, m := range []gocv.Mat{face, aff, white} {
			m.Close()
		}
	}
	gocv.GaussianBlur(img, &img, image.Pt(0, 0), 1.5, 1.5, gocv.BorderReplicate)
	pix, err := img.DataPtrUint8()
	if err != nil {
		t.Fatal(err)
	}
	for i := range pix {
		pix[i] = uint8(math.Round(math.Max(0, math.Min(255, float64(pix[i])+mutedNoise*rng.NormFloat64()))))
	}
	buf, err := gocv.IMEncodeWithParams(gocv.JPEGFileExt, img, []int{gocv.IMWriteJpegQuality, mutedJPEG})
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Close()
	img.Close()
	if img, err = gocv.IMDecode(buf.GetBytes(), gocv.IMReadColor); err != nil {
		t.Fatal(err)
	}
	cal, err := calibration.FromCorners(corners, w, h)
	if err != nil {
		t.Fatal(err)
	}
	return img, cal
}

// TestMutedCardsOnGreyMat reads a frame of muted cards (faces all within
// about 20 levels of the mat's grey, their borders at it, mutedCatalog)
// lying in their cells on a felt of that grey, mottled and woven as the
// independent renderer draws it, through the camera's noise and JPEG: a
// site in each of two cells about the cell's centre, and units in two
// others, turned a few degrees, with their soft drop shadows. No edge
// finder's thresholds see three of them; the muted search
// (outline_muted.go) finds each from its sides' steps, and its look names
// it. Every card is to be found and named, and none named wrongly. The
// unit across the realm's south edge has its cell's unit place taken
// unless the frame's edge, beyond which the warp fills in black, is left
// out of the search.
func TestMutedCardsOnGreyMat(t *testing.T) {
	cat := mutedCatalog(t)
	var sites, units []string
	for _, c := range cat.Cards() {
		if kindOf(c) == models.KindSite {
			sites = append(sites, c.Slug)
		} else {
			units = append(units, c.Slug)
		}
	}
	cards := []mutedCard{
		{slug: sites[0], x: 152, y: 36, deg: 2},
		{slug: sites[1], x: 349, y: 189, deg: -3},
		{slug: units[0], x: 60, y: 190, deg: -2},
		{slug: units[1], x: 440, y: 30, deg: 4},
	}
	img, cal := mutedFrame(t, cat, cards)
	defer img.Close()
	obs, err := newTestAnalyzer(t, cat).Analyze(img, cal)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cards {
		want := models.Point{X: 140 + 2*c.x, Y: 660 - 2*c.y}
		found := false
		for _, o := range obs.Cards {
			if ctr := o.Quad.Center(); math.Hypot(ctr.X-want.X, ctr.Y-want.Y) < 10 {
				found = true
				if o.Name == nil {
					t.Errorf("%s found (%.0f) but not named", c.slug, ctr)
				} else if *o.Slug != c.slug {
					t.Errorf("%s named %s", c.slug, *o.Slug)
				}
			}
		}
		if !found {
			t.Errorf("%s (at %.0f mm, %.0f mm) not found", c.slug, c.x, c.y)
		}
	}
	if len(obs.Cards) != len(cards) {
		t.Errorf("%d cards reported; want %d", len(obs.Cards), len(cards))
	}
}

// TestFlatFaces: the muted search runs only for a catalog holding a flat
// face; mutedCatalog's faces are all flat, the dev catalog's none.
func TestFlatFaces(t *testing.T) {
	for _, c := range []struct {
		name string
		cat  *models.Catalog
		want bool
	}{{"dev", devCatalog(t), false}, {"muted", mutedCatalog(t), true}} {
		a := newTestAnalyzer(t, c.cat)
		n := 0
		for _, r := range a.index.refs {
			if flatFace(r.Look) == c.want {
				n++
			}
		}
		if n != len(a.index.refs) || n == 0 {
			t.Errorf("%s catalog: %d of %d faces flat=%v", c.name, n, len(a.index.refs), c.want)
		}
	}
}
