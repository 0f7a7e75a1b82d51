package vision

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"testing"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/synth"
	"gocv.io/x/gocv"
)

// placement puts one catalog face on a test table.
type placement struct {
	slug   string
	x, y   float64         // centre, realm millimetres from A1 (y north)
	rot    models.Rotation // clockwise turn of the upright face
	jitter float64         // extra turn, degrees
	image  string          // face image to draw instead of the catalog's (a card not in the catalog)
	kind   models.CardKind // with image: the card's shape
}

// testScene is a camera frame of a made-up table and where the realm is in it.
type testScene struct {
	frame   gocv.Mat
	corners models.Quad
}

const scenePxPerMM = 3.0

// renderTestScene draws the faces on a busy mat with a grid, and photographs
// it with a tilted camera into a 1280×720 frame, JPEG-compressed.
func renderTestScene(t testing.TB, cat *models.Catalog, cards []placement, corners models.Quad, seed uint64) testScene {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 11))
	return renderSceneOn(t, cat, cards, corners, func(mat *gocv.Mat, w, h int) {
		// A busy mat: smooth colour noise, blobs, the grid.
		small := gocv.NewMatWithSize(h/90, w/90, gocv.MatTypeCV8UC3)
		defer small.Close()
		// The noise comes from rng, not OpenCV's generator: that one is kept
		// per OS thread, and a goroutine may run on any, so the scene would
		// change from run to run.
		noise, err := small.DataPtrUint8()
		if err != nil {
			t.Fatal(err)
		}
		for i := range noise {
			noise[i] = uint8(40 + rng.IntN([3]int{160, 140, 120}[i%3]))
		}
		gocv.Resize(small, mat, image.Pt(w, h), 0, 0, gocv.InterpolationCubic)
		for i := 0; i < 60; i++ {
			c := color.RGBA{uint8(rng.IntN(255)), uint8(rng.IntN(255)), uint8(rng.IntN(255)), 0}
			gocv.Circle(mat, image.Pt(rng.IntN(w), rng.IntN(h)), 10+rng.IntN(60), c, -1)
		}
		drawSceneGrid(mat, color.RGBA{230, 230, 230, 0}, 4)
	})
}

// sceneMarginMM is how far the table a test scene draws reaches beyond the
// realm on every side.
const sceneMarginMM = 120.0

// sceneToPx gives the pixel of a test scene's table (at scenePxPerMM) of a
// realm position (millimetres from A1, y north).
func sceneToPx(x, y float64) (float64, float64) {
	return (x + sceneMarginMM) * scenePxPerMM, (models.DefaultRealm().HeightMM() + sceneMarginMM - y) * scenePxPerMM
}

// drawSceneGrid draws the realm's grid lines on a test scene's table.
func drawSceneGrid(mat *gocv.Mat, c color.RGBA, thickness int) {
	geo := models.DefaultRealm()
	for col := 0; col <= models.Columns; col++ {
		x0, y0 := sceneToPx(float64(col)*geo.CellWidthMM, 0)
		x1, y1 := sceneToPx(float64(col)*geo.CellWidthMM, geo.HeightMM())
		gocv.Line(mat, image.Pt(int(x0), int(y0)), image.Pt(int(x1), int(y1)), c, thickness)
	}
	for r := 0; r <= models.Rows; r++ {
		x0, y0 := sceneToPx(0, float64(r)*geo.CellHeightMM)
		x1, y1 := sceneToPx(geo.WidthMM(), float64(r)*geo.CellHeightMM)
		gocv.Line(mat, image.Pt(int(x0), int(y0)), image.Pt(int(x1), int(y1)), c, thickness)
	}
}

// renderSceneOn draws the table (w×h pixels, at scenePxPerMM) with paint,
// the faces on it, and photographs it as renderTestScene does.
func renderSceneOn(t testing.TB, cat *models.Catalog, cards []placement, corners models.Quad, paint func(mat *gocv.Mat, w, h int)) testScene {
	t.Helper()
	const margin = sceneMarginMM
	geo := models.DefaultRealm()
	s := scenePxPerMM
	w, h := int((geo.WidthMM()+2*margin)*s), int((geo.HeightMM()+2*margin)*s)
	mat := gocv.NewMat()
	paint(&mat, w, h)
	toPx := sceneToPx

	for _, p := range cards {
		path, kind := p.image, p.kind
		if path == "" {
			card, ok := cat.BySlug(p.slug)
			if !ok {
				t.Fatalf("no card %q in the catalog", p.slug)
			}
			path, kind = card.Image, kindOf(card)
		}
		face := gocv.IMRead(path, gocv.IMReadColor)
		if face.Empty() {
			t.Fatalf("cannot read %s", path)
		}
		if kind == models.KindSite && face.Rows() > face.Cols() {
			gocv.Rotate(face, &face, gocv.Rotate90Clockwise)
		}
		fw, fh := faceSizeMM(kind)
		if kind == models.KindToken && face.Cols() > face.Rows() {
			fw, fh = fh, fw // a token face drawn landscape (a token site)
		}
		// Face pixel (u,v) → mat pixel: scale to mm, centre, turn clockwise, place.
		th := (float64(p.rot) + p.jitter) * math.Pi / 180
		cx, cy := toPx(p.x, p.y)
		sx, sy := fw*s/float64(face.Cols()), fh*s/float64(face.Rows())
		cos, sin := math.Cos(th), math.Sin(th)
		aff := gocv.NewMatWithSize(2, 3, gocv.MatTypeCV64F)
		// x' = cos·(sx·u − fw·s/2) − sin·(sy·v − fh·s/2) + cx ; y' = sin·(…) + cos·(…) + cy
		aff.SetDoubleAt(0, 0, cos*sx)
		aff.SetDoubleAt(0, 1, -sin*sy)
		aff.SetDoubleAt(0, 2, -cos*fw*s/2+sin*fh*s/2+cx)
		aff.SetDoubleAt(1, 0, sin*sx)
		aff.SetDoubleAt(1, 1, cos*sy)
		aff.SetDoubleAt(1, 2, -sin*fw*s/2-cos*fh*s/2+cy)
		pasteWarped(face, &mat, aff, 0)
		face.Close()
		aff.Close()
	}

	// The camera: realm corners at the given image positions.
	mmToImg, err := models.NewHomography(
		[4]models.Point{{X: 0, Y: 0}, {X: geo.WidthMM(), Y: 0}, {X: geo.WidthMM(), Y: geo.HeightMM()}, {X: 0, Y: geo.HeightMM()}},
		[4]models.Point(corners))
	if err != nil {
		t.Fatal(err)
	}
	pxToMM := homography{1 / s, 0, -margin, 0, -1 / s, geo.HeightMM() + margin, 0, 0, 1}
	hm := homographyMat(pxToMM.Then(mmToImg))
	defer hm.Close()
	frame := gocv.NewMat()
	gocv.WarpPerspectiveWithParams(mat, &frame, hm, image.Pt(1280, 720), gocv.InterpolationArea, gocv.BorderConstant, color.RGBA{70, 60, 50, 0})
	mat.Close()
	gocv.GaussianBlur(frame, &frame, image.Pt(3, 3), 0.6, 0.6, gocv.BorderReplicate)
	buf, err := gocv.IMEncodeWithParams(gocv.JPEGFileExt, frame, []int{gocv.IMWriteJpegQuality, 85})
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Close()
	frame.Close()
	frame, err = gocv.IMDecode(buf.GetBytes(), gocv.IMReadColor)
	if err != nil {
		t.Fatal(err)
	}
	return testScene{frame: frame, corners: corners}
}

// tiltedCorners is a camera looking at the realm from the south, tilted.
var tiltedCorners = models.Quad{{X: 150, Y: 640}, {X: 1130, Y: 650}, {X: 1010, Y: 130}, {X: 270, Y: 120}}

// devCatalog finds a catalog with faces for the tests.
func devCatalog(t testing.TB) *models.Catalog {
	t.Helper()
	for _, dir := range []string{filepath.Join("..", "samples", "catalog"), "/tmp/devcat"} {
		if cat, err := models.LoadCatalog(dir); err == nil {
			return cat
		}
	}
	t.Skip("no sample catalog")
	return nil
}

// facedSlugs is the slugs of full's cards that have a face, sorted.
func facedSlugs(full *models.Catalog) []string {
	var slugs []string
	for _, c := range full.Cards() {
		if c.Image != "" {
			slugs = append(slugs, c.Slug)
		}
	}
	sort.Strings(slugs)
	return slugs
}

// catalogWithout returns full without the cards whose slugs are in missing.
func catalogWithout(full *models.Catalog, missing map[string]bool) *models.Catalog {
	var cards []*models.Card
	for _, c := range full.Cards() {
		if !missing[c.Slug] {
			cards = append(cards, c)
		}
	}
	return models.NewCatalog(cards)
}

// analyzeRendered renders scene seed with r and reads it with a at its true
// corners and cell size.
func analyzeRendered(t testing.TB, a *Analyzer, r *synth.Renderer, seed int64, opts synth.SceneOptions) (*synth.Scene, models.FrameObservation) {
	t.Helper()
	scene, frame, _, obs := renderAndAnalyze(t, a, r, seed, opts)
	frame.Close()
	return scene, obs
}

// renderAndAnalyze is analyzeRendered that also returns the frame (the
// caller closes it) and the calibration it was read with.
func renderAndAnalyze(t testing.TB, a *Analyzer, r *synth.Renderer, seed int64, opts synth.SceneOptions) (*synth.Scene, gocv.Mat, *calibration.Calibration, models.FrameObservation) {
	t.Helper()
	scene, err := r.Scene(seed, opts)
	if err != nil {
		t.Fatal(err)
	}
	frame, cal, obs := analyzeSynthScene(t, a, scene)
	return scene, frame, cal, obs
}

// analyzeSynthScene reads a rendered scene's image with a, calibrated by
// its true corners and cell size; it gives the frame (the caller closes
// it) and the calibration it was read with.
func analyzeSynthScene(t testing.TB, a *Analyzer, scene *synth.Scene) (gocv.Mat, *calibration.Calibration, models.FrameObservation) {
	t.Helper()
	frame, err := gocv.ImageToMatRGB(scene.Image)
	if err != nil {
		t.Fatal(err)
	}
	cal, err := calibration.FromCorners(scene.Truth.Corners, frame.Cols(), frame.Rows())
	if err != nil {
		frame.Close()
		t.Fatal(err)
	}
	cal.Geometry = scene.Truth.Geometry
	obs, err := a.Analyze(frame, cal)
	if err != nil {
		frame.Close()
		t.Fatal(err)
	}
	return frame, cal, obs
}

// pasteWarped draws face onto dst through the affine map aff (2×3, CV64F):
// the face's pixels, blurred by sigma when it is not 0, replace dst's where
// the face lands.
func pasteWarped(face gocv.Mat, dst *gocv.Mat, aff gocv.Mat, sigma float64) {
	size := image.Pt(dst.Cols(), dst.Rows())
	warped, mask := gocv.NewMat(), gocv.NewMat()
	defer warped.Close()
	defer mask.Close()
	gocv.WarpAffineWithParams(face, &warped, aff, size, gocv.InterpolationArea, gocv.BorderConstant, color.RGBA{})
	white := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(255, 0, 0, 0), face.Rows(), face.Cols(), gocv.MatTypeCV8U)
	defer white.Close()
	gocv.WarpAffineWithParams(white, &mask, aff, size, gocv.InterpolationNearestNeighbor, gocv.BorderConstant, color.RGBA{})
	if sigma > 0 {
		gocv.GaussianBlur(warped, &warped, image.Pt(0, 0), sigma, 0, gocv.BorderReplicate)
	}
	warped.CopyToWithMask(dst, mask)
}
