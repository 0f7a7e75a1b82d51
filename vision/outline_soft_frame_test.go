package vision

import (
	"image"
	"image/color"
	"math/rand/v2"
	"testing"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
)

// TestSoftTouchingCards: cameras out of focus, grainy, see units on a pale
// mat with darker grid lines, in pairs a millimetre apart either side of a
// line, and sites lying a millimetre off a line. Each pair's steep bands
// make one piece with the line's, and a site's joins the line's, so the
// soft search's pieces part few cards, though every card's four sides step
// plainly: their frames are looked for as such (outline_soft_frame.go).
//   - far: the realm at about 0.6 px/mm. Without the frames, 2 of the 8
//     cards are found; with, 5.
//   - nearer, the realm at about 0.86 px/mm, which the top-down image at
//     1.2 px/mm enlarges 1.4 times only, less than the soft search's
//     softEnlargement, yet the frame is as soft as a far one: the soft
//     search runs on a frame sharpened for being soft in both directions
//     however little it is enlarged. Without, 3 of the 8 cards are found;
//     with, 6.
//   - far, blurred over 2.4 camera pixels, about five top-down ones: too
//     few of its steps rise steeply enough over eight pixels to measure its
//     sharpness at full size, and it counted as sharp (full Canny
//     thresholds, not sharpened); measured at half size, it is soft.
//     Without, 1 card is found; with, 3.
//
// Each card is to be found where it lies, named rightly when named, and
// nothing reported where no card lies.
func TestSoftTouchingCards(t *testing.T) {
	cat := devCatalog(t)
	sites, units := sitesAndUnits(cat)
	if len(sites) < 2 || len(units) < 6 {
		t.Skip("the catalog has too few sites or units")
	}
	var place []placement
	for i, p := range [...]struct{ x, y float64 }{{100, 187.5}, {300, 187.5}, {200, 37.5}} {
		place = append(place,
			placement{slug: units[2*i].Slug, x: p.x - 32, y: p.y},
			placement{slug: units[2*i+1].Slug, x: p.x + 32, y: p.y, rot: 180})
	}
	place = append(place,
		placement{slug: sites[0].Slug, x: 50, y: 75 + 1 + models.CardShortMM/2},
		placement{slug: sites[1].Slug, x: 450, y: 225 - 1 - models.CardShortMM/2})
	a := newTestAnalyzer(t, cat)
	for _, tc := range []struct {
		name string
		// shrink is the realm's size in the frame against tiltedCorners',
		// blur the camera's (σ, camera pixels).
		shrink, blur float64
		// The least enlargement and the most wanted (see enlargement).
		minSpread, maxSpread float64
		want                 int
	}{
		{"far", 0.35, 1.8, softEnlargement, 2.5, 5},
		{"enlarged less", 0.5, 2.7, 1.3, softEnlargement, 5},
		{"far, very soft", 0.35, 2.4, softEnlargement, 2.5, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			corners := shrunkCorners(tc.shrink)
			// A pale cloth with darker printed lines.
			sc := renderSceneOn(t, cat, place, corners, func(mat *gocv.Mat, w, h int) {
				*mat = gocv.NewMatWithSizeFromScalar(gocv.NewScalar(170, 190, 205, 0), h, w, gocv.MatTypeCV8UC3)
				drawSceneGrid(mat, color.RGBA{120, 130, 140, 0}, 4)
			})
			defer sc.frame.Close()
			gocv.GaussianBlur(sc.frame, &sc.frame, image.Pt(0, 0), tc.blur, tc.blur, gocv.BorderReplicate)
			grainy(t, &sc.frame, rand.New(rand.NewPCG(7, 3)), 12, 60)
			obs := analyzeScene(t, a, sc)
			if spread := lowReadScale / cameraScale(corners, models.DefaultRealm()); spread < tc.minSpread || spread >= tc.maxSpread || a.reader == nil || a.reader.opts.pxPerMM() != lowReadScale {
				t.Fatalf("the frame is enlarged %.2f times, not %g to %g at %g px/mm: not the camera the test is about", spread, tc.minSpread, tc.maxSpread, lowReadScale)
			}
			found, named := foundWhereLaid(t, cat, obs, place, corners, 15)
			t.Logf("found %d of %d cards where they lie, %d named", found, len(place), named)
			if found < tc.want {
				t.Errorf("found %d of %d cards where they lie; want %d or more", found, len(place), tc.want)
			}
		})
	}
}

// TestVerySoftStepsMeasured: an image whose steps are all blurred over
// far more than the eight pixels the sharpness measure reaches shows too
// few steps to measure at full size; measured at half size, it must come
// out soft (the softStep floor), not sharp.
func TestVerySoftStepsMeasured(t *testing.T) {
	// Stripes of 80 grey levels: blurred by σ = 5 px, a step rises over
	// eight pixels by 46, under the 50 a step counted needs.
	img := gocv.NewMatWithSize(300, 400, gocv.MatTypeCV8UC1)
	defer img.Close()
	for y := range 300 {
		for x := range 400 {
			v := uint8(80)
			if (x/40+y/40)%2 == 1 {
				v = 160
			}
			img.SetUCharAt(y, x, v)
		}
	}
	gocv.GaussianBlur(img, &img, image.Point{}, 5, 5, gocv.BorderReplicate)
	v, err := newView(tiltedCorners, models.DefaultRealm(), 1280, 720, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, _, ok := viewSharpness(img, v, nil)
	if !ok || s.unmeasured || s.softer() > softStep || s.sharper() > softStep {
		t.Errorf("stripes blurred by σ = 5 px: sharpness %+v, want both axes measured, at most %g", s, softStep)
	}
	// blurRatio and blurSigma undo each other.
	for _, sigma := range []float64{0.5, 1, 2, 3, 5} {
		if got := blurSigma(blurRatio(sigma)); got < sigma-0.01 || got > sigma+0.01 {
			t.Errorf("blurSigma(blurRatio(%g)) = %g", sigma, got)
		}
	}
}

// TestSoftFrameCandidates draws a card's frame in the rises of a shrunk
// image (|dx| along its upright sides, |dy| along the others) and checks
// that a frame is proposed there exactly when its weakest side rises by
// softFrameStep or more (the sides' sums compared, not their means), with
// that side's mean rise as its score, a side a pixel off its place still
// read.
func TestSoftFrameCandidates(t *testing.T) {
	const w, h, x0, y0, fw, fh = 120, 100, 40, 30, 30, 42
	lim := float32(softFrameStep / softShrink)
	for _, tc := range []struct {
		name     string
		left     float32 // the left side's rise; the others rise by 60
		leftAt   int     // the left side's column
		want     bool
		wantRise float64
	}{
		{"all sides steep", 60, x0, true, 60},
		{"weakest side just steep enough", lim, x0, true, float64(lim)},
		{"weakest side just too faint", lim - 1, x0, false, 0},
		{"a side a pixel off", 60, x0 - 1, true, 60},
		{"a side two pixels off", 60, x0 - 2, false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dx, dy := make([]byte, w*h), make([]byte, w*h)
			for y := y0; y < y0+fh; y++ {
				dx[y*w+tc.leftAt] = byte(tc.left)
				dx[y*w+x0+fw] = 60
			}
			for x := x0; x < x0+fw; x++ {
				dy[y0*w+x] = 60
				dy[(y0+fh)*w+x] = 60
			}
			cands := softFrameCandidates(dx, dy, w, h, []outlineShape{{short: fw, long: fh}})
			got := false
			for _, c := range cands {
				if c.w != fw || c.h != fh {
					t.Errorf("a %d×%d frame proposed at (%d, %d): only %d×%d ones lie there", c.w, c.h, c.cx, c.cy, fw, fh)
				}
				if c.cx == x0+fw/2 && c.cy == y0+fh/2 {
					got = true
					if c.score != tc.wantRise {
						t.Errorf("the frame's weakest rise is %v, want %v", c.score, tc.wantRise)
					}
				}
			}
			if got != tc.want {
				t.Errorf("frame at its place proposed: %v, want %v (%d proposed)", got, tc.want, len(cands))
			}
		})
	}
}

// TestLeastSumReaching checks the least sum of rises whose mean reaches a
// level against the means of the sums either side of it.
func TestLeastSumReaching(t *testing.T) {
	for _, tc := range []struct{ lim, n float32 }{{40, 33}, {40, 24}, {40, 1}, {0.1, 7}, {60, 17}} {
		got := leastSumReaching(tc.lim, tc.n)
		if float32(got)/tc.n < tc.lim || (got > 0 && float32(got-1)/tc.n >= tc.lim) {
			t.Errorf("lim %v over %v pixels: least sum %d (mean %v, one less %v)", tc.lim, tc.n, got, float32(got)/tc.n, float32(got-1)/tc.n)
		}
	}
}
