package calibration

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"testing"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
)

// stripedClothScene draws a top-down 1280×720 frame of a mat painted in
// soft clouds of orange, pink and green, lying turned 6° on a tablecloth
// of narrow stripes (purple, black and white, 8 px each) that run 2° off
// the mat's rows, from edge to edge of the frame. The mat's grid is drawn
// in solid thin lines a little darker than the mat, and cards lie in
// three cells. The stripes' edges are nearly all of the frame's long
// straight lines of the rows' direction, and run longer than any row
// line. It gives the frame and the true lattice.
func stripedClothScene(t *testing.T, g models.RealmGeometry) (gocv.Mat, homography) {
	t.Helper()
	rng := rand.New(rand.NewPCG(19, 19))
	frame := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(0, 0, 0, 0), 720, 1280, gocv.MatTypeCV8UC3)
	dir := -8 * math.Pi / 180
	ux, uy := math.Cos(dir), math.Sin(dir)
	stripes := []color.RGBA{{R: 120, G: 40, B: 200}, {R: 25, G: 20, B: 30}, {R: 235, G: 235, B: 230}}
	for k := -60; k <= 60; k++ {
		ox, oy := 640-8*float64(k)*uy, 360+8*float64(k)*ux
		a := image.Pt(int(ox-1600*ux), int(oy-1600*uy))
		b := image.Pt(int(ox+1600*ux), int(oy+1600*uy))
		gocv.Line(&frame, a, b, stripes[(k+60)%3], 8)
	}
	h, px := matOnTable(t, &frame, g, 0.85, -6*math.Pi/180, 620, 350, color.RGBA{R: 225, G: 170, B: 120})
	paintClouds(t, &frame, px, g, rng, []color.RGBA{{R: 240, G: 200, B: 150}, {R: 200, G: 140, B: 100}, {R: 150, G: 170, B: 110}, {R: 230, G: 160, B: 170}})
	for _, gl := range innerLines(g) {
		gocv.Line(&frame, px(gl.p0.X, gl.p0.Y), px(gl.p1.X, gl.p1.Y), color.RGBA{R: 190, G: 140, B: 100}, 2)
	}
	cardsAt(&frame, px, rng, [][2]float64{{50, 262}, {450, 187}, {150, 37}})
	return softened(t, frame, 19), h
}

// paintClouds paints soft clouds of the palette's colours over the mat
// (its realm and a margin, as matOnTable lays it, px putting realm
// millimetres in the frame): a mat's art.
func paintClouds(t *testing.T, frame *gocv.Mat, px func(x, y float64) image.Point, g models.RealmGeometry, rng *rand.Rand, palette []color.RGBA) {
	t.Helper()
	w, hgt := frame.Cols(), frame.Rows()
	clouds := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(0, 0, 0, 0), hgt, w, gocv.MatTypeCV8UC3)
	defer clouds.Close()
	fillRealmRect(&clouds, px, -60, -50, g.WidthMM()+60, g.HeightMM()+50, palette[0])
	for i := 0; i < 40; i++ {
		c := px(-40+rng.Float64()*(g.WidthMM()+80), -30+rng.Float64()*(g.HeightMM()+60))
		gocv.Circle(&clouds, c, 20+rng.IntN(40), palette[i%len(palette)], -1)
	}
	gocv.GaussianBlur(clouds, &clouds, image.Pt(0, 0), 18, 18, gocv.BorderReflect101)
	inMat := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(0, 0, 0, 0), hgt, w, gocv.MatTypeCV8U)
	defer inMat.Close()
	fillRealmRect(&inMat, px, -60, -50, g.WidthMM()+60, g.HeightMM()+50, color.RGBA{R: 255, G: 255, B: 255})
	clouds.CopyToWithMask(frame, inMat)
}

// TestGridOnStripedCloth: on stripedClothScene every search of the whole
// frame proposes lattices on the stripes, or none (the mat's clouds hide
// its cloth colour from the search over the cloth), and none finds a
// realm; with the table smoothed away round the mat (see onmat.go), the
// realm must be found.
func TestGridOnStripedCloth(t *testing.T) {
	t.Parallel()
	g := models.DefaultRealm()
	frame, truth := stripedClothScene(t, g)
	defer frame.Close()
	detectsWithin(t, frame, truth, g, 0.005)
}

// TestMatRegion: the mat's region (see matRegion) holds the realm of
// stripedClothScene and none of the table at the frame's corners, and its
// pixels outside are smoothed (see offMatSmoothed); a frame the mat fills
// has no table round it, and no region.
func TestMatRegion(t *testing.T) {
	t.Parallel()
	g := models.DefaultRealm()
	striped, truth := stripedClothScene(t, g)
	defer striped.Close()
	filled := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(120, 170, 225, 0), 720, 1280, gocv.MatTypeCV8UC3)
	h, px := matOnTable(t, &filled, g, 1.2, 3*math.Pi/180, 640, 360, color.RGBA{R: 225, G: 170, B: 120})
	for _, gl := range innerLines(g) {
		gocv.Line(&filled, px(gl.p0.X, gl.p0.Y), px(gl.p1.X, gl.p1.Y), color.RGBA{R: 190, G: 140, B: 100}, 2)
	}
	defer filled.Close()
	for _, tc := range []struct {
		name  string
		frame gocv.Mat
		truth homography
		want  bool
	}{
		{"mat on a striped cloth", striped, truth, true},
		{"mat filling the frame", filled, h, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gray, scale := workingGray(tc.frame)
			defer gray.Close()
			region, ok := matRegion(tc.frame, scale, gray.Cols(), gray.Rows())
			if ok != tc.want {
				t.Fatalf("region found %v, want %v", ok, tc.want)
			}
			if !ok {
				return
			}
			defer region.Close()
			holds := regionHolds(region)
			for _, p := range quadOfLattice(tc.truth, g) {
				if !holds(p) {
					t.Errorf("realm corner %v is off the mat's region", p)
				}
			}
			for _, p := range []models.Point{{X: 20, Y: 20}, {X: 1260, Y: 20}, {X: 20, Y: 700}, {X: 1260, Y: 700}} {
				if holds(p) {
					t.Errorf("table point %v is on the mat's region", p)
				}
			}
			smoothed := offMatSmoothed(gray, region)
			defer smoothed.Close()
			if n := stripeEdges(t, smoothed, region); n > 0 {
				t.Errorf("%d edge pixels off the mat's region once smoothed, want none", n)
			}
		})
	}
}

// stripeEdges counts the Canny edge pixels of gray outside region, a
// margin off its edge.
func stripeEdges(t *testing.T, gray, region gocv.Mat) int {
	t.Helper()
	edges := gocv.NewMat()
	defer edges.Close()
	gocv.Canny(gray, &edges, cannyLow, cannyHigh)
	wide := gocv.NewMat()
	defer wide.Close()
	k := gocv.GetStructuringElement(gocv.MorphRect, image.Pt(41, 41))
	defer k.Close()
	gocv.Dilate(region, &wide, k)
	off := gocv.NewMat()
	defer off.Close()
	gocv.BitwiseNot(wide, &off)
	outside := gocv.NewMat()
	defer outside.Close()
	gocv.BitwiseAnd(edges, off, &outside)
	return gocv.CountNonZero(outside)
}
