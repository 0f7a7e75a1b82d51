package vision

import (
	"image"
	"math"
	"testing"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// paintSoftCard lays face ri, upright, in the middle of the colour
// top-down image a.images.small of view v (half the view's resolution),
// on a plain dark mat, out of focus (a Gaussian blur of blur pixels, odd;
// 0: sharp) and under a lamp's glare: white light mixed in (glare: its
// share) over the card's upper half, fading to none at its lower edge. It
// gives the card's outline in top-down pixels.
func paintSoftCard(t *testing.T, a *Analyzer, v *view, ri, blur int, glare float64) models.Quad {
	t.Helper()
	ref := &a.index.refs[ri]
	face := gocv.IMRead(ref.card.Image, gocv.IMReadColor)
	if face.Empty() {
		t.Fatalf("cannot read %s", ref.card.Image)
	}
	defer face.Close()
	if ref.Kind == models.KindSite && face.Cols() < face.Rows() {
		gocv.Rotate(face, &face, gocv.Rotate90Clockwise)
	}
	w, h := float64(ref.W), float64(ref.H)
	x0, y0 := float64(v.size.X)/2-w/2, float64(v.size.Y)/2-h/2
	small := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(40, 34, 30, 0), v.size.Y/2, v.size.X/2, gocv.MatTypeCV8UC3)
	sw, sh := int(math.Round(w/2)), int(math.Round(h/2))
	thumb := gocv.NewMat()
	defer thumb.Close()
	gocv.Resize(face, &thumb, image.Pt(sw, sh), 0, 0, gocv.InterpolationArea)
	at := image.Rect(int(x0/2), int(y0/2), int(x0/2)+sw, int(y0/2)+sh)
	roi := small.Region(at)
	thumb.CopyTo(&roi)
	if blur > 0 {
		gocv.GaussianBlur(roi, &roi, image.Pt(blur, blur), 0, 0, gocv.BorderReplicate)
	}
	for y := 0; y < sh; y++ {
		k := glare * math.Min(1, 2*(1-float64(y)/float64(sh)))
		for x := 0; x < sw; x++ {
			for c := 0; c < 3; c++ {
				p := float64(roi.GetVecbAt(y, x)[c])
				roi.SetUCharAt(y, 3*x+c, uint8(math.Min(255, p+k*(255-p))))
			}
		}
	}
	roi.Close()
	a.images.small.Close()
	a.images.small = small
	return models.Quad{{X: x0, Y: y0}, {X: x0 + w, Y: y0}, {X: x0 + w, Y: y0 + h}, {X: x0, Y: y0 + h}}
}

// TestNearLookBorneByKeypoints: a card under a lamp's glare (and out of
// focus) whose look falls short of lookMinScore, still leading every other
// name by lookMargin, is named when its keypoints agree with its face
// clearly more than with the others (nameByLookBorne), and not when they
// agree with no face. A card missing from the catalog is never named so,
// however alike its palette twin looks: its keypoints bear out its own
// face, which the catalog lacks.
func TestNearLookBorneByKeypoints(t *testing.T) {
	dir := t.TempDir()
	full := textCatalog(t, dir, smoothCards())
	withAll := newTestAnalyzer(t, full)
	missing := map[string]bool{}
	for i, c := range smoothCards() {
		if i%4 == 1 {
			missing[c.slug] = true
		}
	}
	a := newTestAnalyzer(t, catalogWithout(full, missing))
	v := sidesTestView(t)
	var near, nearNamed, unborneNamed, missingNear, missingNamed int
	for _, c := range smoothCards() {
		shown := refOf(t, withAll, c.slug)
		for _, blur := range []int{0, 7} {
			for glare := 0.62; glare < 0.9; glare += 0.04 {
				if missing[c.slug] {
					q := paintSoftCard(t, withAll, v, shown, blur, glare)
					a.images.small.Close()
					a.images.small = withAll.images.small.Clone()
					d, _ := lookDetection(&withAll.index.refs[shown], shown, [4]models.Point(q), 0.5)
					borne := softKeypoints(withAll, d, shown, 3)
					if _, ok := a.index.nameByLookAt(a.images.small, 0.5, q, v.pxPerMM, lookAlignFrom, lookNearScore); ok {
						missingNear++
					}
					if got, ok := a.nameByLookBorne(q, v, nil, &borne); ok {
						missingNamed++
						t.Errorf("%s, missing from the catalog, blur %d, glare %.2f: named %s", c.slug, blur, glare, a.index.refs[got.ref].card.Name)
					}
					continue
				}
				ri := refOf(t, a, c.slug)
				q := paintSoftCard(t, a, v, ri, blur, glare)
				if _, ok := a.nameByLook(q, v, nil); ok {
					continue // a clear look: named as before
				}
				if _, ok := a.index.nameByLookAt(a.images.small, 0.5, q, v.pxPerMM, lookAlignFrom, lookNearScore); !ok {
					continue // no near look either
				}
				near++
				d, _ := lookDetection(&a.index.refs[ri], ri, [4]models.Point(q), 0.5)
				borne := softKeypoints(a, d, ri, 3)
				got, ok := a.nameByLookBorne(q, v, nil, &borne)
				switch {
				case !ok:
					t.Logf("%s, blur %d, glare %.2f: near look not named", c.slug, blur, glare)
				case a.index.refs[got.ref].card.Name != c.slug:
					t.Errorf("%s, blur %d, glare %.2f: named %s", c.slug, blur, glare, a.index.refs[got.ref].card.Name)
				default:
					nearNamed++
				}
				unborne := softKeypoints(a, d, ri, len(a.index.refs[ri].Feat.Points)+1)
				if got, ok := a.nameByLookBorne(q, v, nil, &unborne); ok {
					unborneNamed++
					t.Errorf("%s, blur %d, glare %.2f: named %s by a near look no keypoint bears out", c.slug, blur, glare, a.index.refs[got.ref].card.Name)
				}
			}
		}
	}
	t.Logf("near looks %d, named %d, named without keypoints %d; missing cards' near looks %d, named %d", near, nearNamed, unborneNamed, missingNear, missingNamed)
	if near < 10 {
		t.Fatalf("%d near looks, want 10 or more to test", near)
	}
	if float64(nearNamed) < 0.9*float64(near) {
		t.Errorf("named %d of %d near looks borne out by their keypoints, want 90%% or more", nearNamed, near)
	}
}
