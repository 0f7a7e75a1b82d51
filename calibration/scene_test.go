package calibration

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"testing"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/calibration/aruco"
	"github.com/tablecam/tablecam/models"
)

// scene describes a synthetic camera view of a playmat, for tests.
type scene struct {
	seed        uint64
	tiltDeg     float64 // camera tilt away from top-down (towards the south)
	rotDeg      float64 // in-plane rotation
	widthFrac   float64 // realm width / frame width at the near edge
	shiftX      float64 // offset of the realm centre from the frame centre, px
	shiftY      float64
	lineMM      float64 // grid line width
	borderMM    float64 // outer border width
	contrast    float64 // 0..1: how strongly the grid lines stand out
	lightLines  bool    // light lines on the mat (else dark)
	busy        bool    // busy mat art
	cards       int     // how many sites (units are added on top of half of them)
	hand        bool
	glare       bool
	noise       float64 // sensor noise sigma
	noiseSeed   uint64  // varies the sensor noise alone (a new frame of the same table)
	blur        bool
	markers     bool // print ArUco markers at the corners
	northAtBot  bool // the camera looks from the north side
	jpegQuality int
	dots        bool    // the cells' corners printed as dots, with no lines
	crosses     bool    // the cells' corners printed as small crosses (a T along the border, an L at its corners), with no lines
	dashed      bool    // the grid lines printed as dashes, which meet in a cross at each corner
	rowCards    []int   // row lines (0 to models.Rows) along which two tokens lie on every cell side, across the line
	borderless  bool    // the grid printed without its border: only the inner lines, ending where the border would run
	cornerCard  float64 // when > 0, a site lies in cell E1 with its outline's outer edge this many mm inside the realm's corner
}

// planeScale is the mat image's pixels per millimetre.
const planeScale = 2.0

// mat extent in realm millimetres.
const matX0, matY0, matX1, matY1 = -70.0, -60.0, 570.0, 360.0

// planePx maps realm millimetres to mat-image pixels.
func planePx(p models.Point) image.Point {
	return image.Pt(int(math.Round((p.X-matX0)*planeScale)), int(math.Round((matY1-p.Y)*planeScale)))
}

// realmQuadFor places the realm in the frame for a scene.
func realmQuadFor(s scene, fw, fh float64) models.Quad {
	g := models.DefaultRealm()
	near := s.widthFrac * fw
	ratio := 1 - 0.65*math.Sin(s.tiltDeg*math.Pi/180)
	height := near * g.HeightMM() / g.WidthMM() * math.Cos(s.tiltDeg*math.Pi/180) * (1 + ratio) / 2
	far := near * ratio
	// South edge at the bottom.
	q := models.Quad{
		{X: -near / 2, Y: height / 2}, {X: near / 2, Y: height / 2},
		{X: far / 2, Y: -height / 2}, {X: -far / 2, Y: -height / 2},
	}
	if s.northAtBot {
		q = models.Quad{q[2], q[3], q[0], q[1]}
	}
	a := s.rotDeg * math.Pi / 180
	for i, p := range q {
		q[i] = models.Point{
			X: fw/2 + s.shiftX + p.X*math.Cos(a) - p.Y*math.Sin(a),
			Y: fh/2 + s.shiftY + p.X*math.Sin(a) + p.Y*math.Cos(a),
		}
	}
	return q
}

// renderHalf renders the scene and shrinks it to 640×360, a low-resolution
// webcam's frame, with the realm's corners in its pixels (caller closes).
func (s scene) renderHalf(t testing.TB) (gocv.Mat, models.Quad) {
	big, truth := s.render(t)
	defer big.Close()
	frame := gocv.NewMat()
	gocv.Resize(big, &frame, image.Pt(640, 360), 0, 0, gocv.InterpolationArea)
	for i := range truth {
		truth[i] = models.Point{X: truth[i].X / 2, Y: truth[i].Y / 2}
	}
	return frame, truth
}

// render draws the scene and returns the frame and the true realm corners.
func (s scene) render(t testing.TB) (gocv.Mat, models.Quad) {
	t.Helper()
	rng := rand.New(rand.NewPCG(s.seed, 7))
	g := models.DefaultRealm()
	pw := int((matX1 - matX0) * planeScale)
	ph := int((matY1 - matY0) * planeScale)
	base := color.RGBA{uint8(40 + rng.IntN(120)), uint8(40 + rng.IntN(120)), uint8(40 + rng.IntN(120)), 255}
	plane := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(float64(base.B), float64(base.G), float64(base.R), 0), ph, pw, gocv.MatTypeCV8UC3)
	defer plane.Close()
	randColor := func() color.RGBA {
		return color.RGBA{uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256)), 255}
	}
	if s.busy {
		for i := 0; i < 120; i++ {
			c := image.Pt(rng.IntN(pw), rng.IntN(ph))
			ax := image.Pt(10+rng.IntN(120), 10+rng.IntN(120))
			gocv.Ellipse(&plane, c, ax, rng.Float64()*180, 0, 360, randColor(), -1)
		}
		for i := 0; i < 60; i++ {
			p1 := image.Pt(rng.IntN(pw), rng.IntN(ph))
			p2 := image.Pt(p1.X+rng.IntN(300)-150, p1.Y+rng.IntN(300)-150)
			gocv.Line(&plane, p1, p2, randColor(), 1+rng.IntN(4))
		}
		gocv.GaussianBlur(plane, &plane, image.Pt(0, 0), 2, 2, gocv.BorderReflect)
	}
	// Grid lines, blended by contrast.
	lines := plane.Clone()
	lc := color.RGBA{20, 20, 20, 255}
	if s.lightLines {
		lc = color.RGBA{235, 230, 215, 255}
	}
	for i := 0; i <= models.Columns; i++ {
		x := float64(i) * g.CellWidthMM
		w := s.lineMM
		if i == 0 || i == models.Columns {
			if s.borderless {
				continue
			}
			w = s.borderMM
		}
		gocv.Line(&lines, planePx(models.Point{X: x, Y: 0}), planePx(models.Point{X: x, Y: g.HeightMM()}), lc, max(1, int(w*planeScale)))
	}
	for j := 0; j <= models.Rows; j++ {
		y := float64(j) * g.CellHeightMM
		w := s.lineMM
		if j == 0 || j == models.Rows {
			if s.borderless {
				continue
			}
			w = s.borderMM
		}
		gocv.Line(&lines, planePx(models.Point{X: 0, Y: y}), planePx(models.Point{X: g.WidthMM(), Y: y}), lc, max(1, int(w*planeScale)))
	}
	if s.dots {
		// No lines: a dot at each of the realm's corners.
		lines.Close()
		lines = plane.Clone()
		for i := 0; i <= models.Columns; i++ {
			for j := 0; j <= models.Rows; j++ {
				c := planePx(models.Point{X: float64(i) * g.CellWidthMM, Y: float64(j) * g.CellHeightMM})
				gocv.Circle(&lines, c, int(1.5*planeScale), lc, -1)
			}
		}
	}
	if s.crosses || s.dashed {
		// No full lines: each corner's arms run toward its neighbours,
		// for a short way (crosses) or all along, broken (dashes).
		lines.Close()
		lines = plane.Clone()
		armMM, gapMM := 7.0, 0.0
		if s.dashed {
			armMM, gapMM = 5.0, 7.0
		}
		w := max(1, int(s.lineMM*planeScale))
		dashes := func(a, b models.Point) {
			l := math.Hypot(b.X-a.X, b.Y-a.Y)
			ux, uy := (b.X-a.X)/l, (b.Y-a.Y)/l
			at := func(t float64) image.Point { return planePx(models.Point{X: a.X + t*ux, Y: a.Y + t*uy}) }
			if gapMM == 0 {
				gocv.Line(&lines, at(0), at(armMM), lc, w)
				return
			}
			// Dashes from both ends, so that each corner gets a whole one.
			n := int(math.Round((l + gapMM) / (armMM + gapMM)))
			period := (l + gapMM) / float64(n)
			for k := 0; k < n; k++ {
				gocv.Line(&lines, at(float64(k)*period), at(float64(k)*period+period-gapMM), lc, w)
			}
		}
		for i := 0; i <= models.Columns; i++ {
			for j := 0; j <= models.Rows; j++ {
				c := models.Point{X: float64(i) * g.CellWidthMM, Y: float64(j) * g.CellHeightMM}
				for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
					ni, nj := i+d[0], j+d[1]
					if ni < 0 || ni > models.Columns || nj < 0 || nj > models.Rows {
						continue
					}
					n := models.Point{X: float64(ni) * g.CellWidthMM, Y: float64(nj) * g.CellHeightMM}
					if s.dashed && (d[0] < 0 || d[1] < 0) {
						continue // each side once
					}
					dashes(c, n)
				}
			}
		}
	}
	gocv.AddWeighted(lines, s.contrast, plane, 1-s.contrast, 0, &plane)
	lines.Close()
	// Cards: sites in cells, some units across borders.
	cells := rng.Perm(models.Columns * models.Rows)
	for k := 0; k < s.cards && k < len(cells); k++ {
		cell := models.CellAt(cells[k])
		cx := (float64(cell.Col)+0.5)*g.CellWidthMM + rng.Float64()*8 - 4
		cy := (float64(cell.Row)+0.5)*g.CellHeightMM + rng.Float64()*6 - 3
		drawCard(&plane, rng, cx, cy, models.CardLongMM, models.CardShortMM, rng.Float64()*6-3)
		if rng.IntN(2) == 0 {
			drawCard(&plane, rng, cx+rng.Float64()*60-30, cy+rng.Float64()*40-20, models.CardShortMM, models.CardLongMM, rng.Float64()*30-15)
		}
	}
	if s.cornerCard > 0 {
		// A site snug in the corner cell E1, its dark outline along the
		// realm's east and south border lines.
		cx := g.WidthMM() - s.cornerCard - models.CardLongMM/2
		cy := s.cornerCard + models.CardShortMM/2
		drawCard(&plane, rng, cx, cy, models.CardLongMM, models.CardShortMM, 0)
	}
	for _, j := range s.rowCards {
		for i := 0; i < models.Columns; i++ {
			for _, dx := range []float64{-0.24, 0.24} {
				cx := (float64(i)+0.5+dx)*g.CellWidthMM + rng.Float64()*2 - 1
				cy := float64(j)*g.CellHeightMM + rng.Float64()*2 - 1
				drawCard(&plane, rng, cx, cy, models.CardLongMM/2, models.CardShortMM/2, rng.Float64()*4-2)
			}
		}
	}
	if s.markers {
		for id, c := range DefaultMarkerLayout().Centers(g) {
			const sizeMM = 40.0
			m, err := aruco.DrawMarker(aruco.Dict4X4_50, id, int(sizeMM*planeScale))
			if err != nil {
				t.Fatal(err)
			}
			bgr := gocv.NewMat()
			gocv.CvtColor(m, &bgr, gocv.ColorGrayToBGR)
			// white quiet zone, then the marker
			tl := planePx(models.Point{X: c.X - sizeMM/2, Y: c.Y + sizeMM/2})
			gocv.Rectangle(&plane, image.Rect(tl.X-16, tl.Y-16, tl.X+bgr.Cols()+16, tl.Y+bgr.Rows()+16), color.RGBA{255, 255, 255, 255}, -1)
			roi := plane.Region(image.Rect(tl.X, tl.Y, tl.X+bgr.Cols(), tl.Y+bgr.Rows()))
			bgr.CopyTo(&roi)
			roi.Close()
			bgr.Close()
			m.Close()
		}
	}
	// Camera.
	const fw, fh = 1280, 720
	truth := realmQuadFor(s, fw, fh)
	toImage, err := fitHomography(realmCorners(g), truth[:])
	if err != nil {
		t.Fatal(err)
	}
	// plane px → realm mm → image.
	planeToRealm := homography{1 / planeScale, 0, matX0, 0, -1 / planeScale, matY1, 0, 0, 1}
	hm := planeToRealm.Then(toImage)
	hmat := gocv.NewMatWithSize(3, 3, gocv.MatTypeCV64F)
	defer hmat.Close()
	for i, v := range hm {
		hmat.SetDoubleAt(i/3, i%3, v)
	}
	frame := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(float64(60+rng.IntN(80)), float64(60+rng.IntN(80)), float64(60+rng.IntN(80)), 0), fh, fw, gocv.MatTypeCV8UC3)
	gocv.WarpPerspectiveWithParams(plane, &frame, hmat, image.Pt(fw, fh), gocv.InterpolationLinear, gocv.BorderTransparent, color.RGBA{})
	if s.hand {
		skin := color.RGBA{205, 150, 120, 255}
		c := image.Pt(int(truth.Center().X)+rng.IntN(200)-100, fh+40)
		gocv.Ellipse(&frame, c, image.Pt(110, 260), rng.Float64()*40-20, 0, 360, skin, -1)
	}
	if s.glare {
		gl := gocv.NewMatWithSize(fh, fw, gocv.MatTypeCV8UC3)
		gocv.Circle(&gl, image.Pt(rng.IntN(fw), rng.IntN(fh)), 60+rng.IntN(80), color.RGBA{255, 255, 255, 255}, -1)
		gocv.GaussianBlur(gl, &gl, image.Pt(0, 0), 25, 25, gocv.BorderReflect)
		gocv.Add(frame, gl, &frame)
		gl.Close()
	}
	if s.blur {
		gocv.GaussianBlur(frame, &frame, image.Pt(0, 0), 1.4, 1.4, gocv.BorderReflect)
	}
	if s.noise > 0 {
		addNoise(t, &frame, rand.New(rand.NewPCG(s.seed, 1000+s.noiseSeed)), s.noise)
	}
	if s.jpegQuality > 0 {
		buf, err := gocv.IMEncodeWithParams(gocv.JPEGFileExt, frame, []int{gocv.IMWriteJpegQuality, s.jpegQuality})
		if err != nil {
			t.Fatal(err)
		}
		dec, err := gocv.IMDecode(buf.GetBytes(), gocv.IMReadColor)
		buf.Close()
		if err != nil {
			t.Fatal(err)
		}
		frame.Close()
		frame = dec
	}
	return frame, truth
}

// addNoise adds Gaussian sensor noise of the given sigma to every channel of
// an 8-bit frame. The noise comes from rng, not OpenCV's generator: that one is
// kept per OS thread, and a goroutine may run on any, so the frame would change
// from run to run.
func addNoise(t testing.TB, frame *gocv.Mat, rng *rand.Rand, sigma float64) {
	t.Helper()
	if frame.Type() != gocv.MatTypeCV8UC3 || !frame.IsContinuous() {
		t.Fatalf("addNoise: want a continuous 8-bit BGR frame, got type %v", frame.Type())
	}
	px, err := frame.DataPtrUint8()
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range px {
		px[i] = uint8(min(255, max(0, math.Round(float64(v)+rng.NormFloat64()*sigma))))
	}
}

// drawCard draws a w×h mm card centred at (cx, cy) mm, turned by deg, with a
// dark border and busy art.
func drawCard(plane *gocv.Mat, rng *rand.Rand, cx, cy, w, h, deg float64) {
	a := deg * math.Pi / 180
	corner := func(dx, dy float64) image.Point {
		return planePx(models.Point{X: cx + dx*math.Cos(a) - dy*math.Sin(a), Y: cy + dx*math.Sin(a) + dy*math.Cos(a)})
	}
	outline := []image.Point{corner(-w/2, -h/2), corner(w/2, -h/2), corner(w/2, h/2), corner(-w/2, h/2)}
	pv := gocv.NewPointsVectorFromPoints([][]image.Point{outline})
	gocv.FillPoly(plane, pv, color.RGBA{25, 22, 20, 255})
	pv.Close()
	inner := []image.Point{corner(-w/2+3, -h/2+3), corner(w/2-3, -h/2+3), corner(w/2-3, h/2-3), corner(-w/2+3, h/2-3)}
	pv = gocv.NewPointsVectorFromPoints([][]image.Point{inner})
	gocv.FillPoly(plane, pv, color.RGBA{uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256)), 255})
	pv.Close()
	for i := 0; i < 8; i++ {
		p := corner(rng.Float64()*(w-12)-(w-12)/2, rng.Float64()*(h-12)-(h-12)/2)
		gocv.Circle(plane, p, 3+rng.IntN(15), color.RGBA{uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256)), 255}, -1)
	}
}

// cornerError is the largest distance between found and true corners.
func cornerError(a, b models.Quad) float64 {
	var e float64
	for i := range a {
		e = math.Max(e, math.Hypot(a[i].X-b[i].X, a[i].Y-b[i].Y))
	}
	return e
}

// realmWidthPx is the length of the realm's south edge in the image.
func realmWidthPx(q models.Quad) float64 { return math.Hypot(q[1].X-q[0].X, q[1].Y-q[0].Y) }
