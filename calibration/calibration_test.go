package calibration

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
)

func TestParseCorners(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    models.Quad
		wantErr string
	}{
		{in: "10,700 1200,690 1100,40 90,50", want: models.Quad{{X: 10, Y: 700}, {X: 1200, Y: 690}, {X: 1100, Y: 40}, {X: 90, Y: 50}}},
		{in: " 10.5,700; 1200,690.25;1100,40 ;90,50 ", want: models.Quad{{X: 10.5, Y: 700}, {X: 1200, Y: 690.25}, {X: 1100, Y: 40}, {X: 90, Y: 50}}},
		{in: "10, 700 1200 ,690 1100,40 90,50", want: models.Quad{{X: 10, Y: 700}, {X: 1200, Y: 690}, {X: 1100, Y: 40}, {X: 90, Y: 50}}},
		{in: "10,700 1200,690 1100,40", wantErr: "got 3"},
		{in: "", wantErr: "got 0"},
		{in: "10,700 1200,690 1100,40 90", wantErr: "point 4 (A4)"},
		{in: "10,700 x,690 1100,40 90,50", wantErr: "point 2 (E1)"},
		{in: "10,700 1200,690 NaN,40 90,50", wantErr: "point 3 (E4)"},
	}
	for _, tt := range tests {
		got, err := ParseCorners(tt.in)
		if tt.wantErr != "" {
			if err == nil || !errors.Is(err, ErrBadCorners) || !contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseCorners(%q) error = %v, want one with %q wrapping ErrBadCorners", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseCorners(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

func TestFromCornersValidation(t *testing.T) {
	t.Parallel()
	good := models.Quad{{X: 100, Y: 650}, {X: 1180, Y: 640}, {X: 1050, Y: 80}, {X: 220, Y: 90}}
	tests := []struct {
		name    string
		q       models.Quad
		w, h    int
		wantErr string
	}{
		{"good", good, 1280, 720, ""},
		{"turned 180° (north at bottom)", models.Quad{good[2], good[3], good[0], good[1]}, 1280, 720, ""},
		{"mirrored", models.Quad{good[1], good[0], good[3], good[2]}, 1280, 720, "wrong way"},
		{"self-crossing", models.Quad{good[0], good[2], good[1], good[3]}, 1280, 720, "convex"},
		{"concave", models.Quad{good[0], good[1], {X: 640, Y: 500}, good[3]}, 1280, 720, "convex"},
		{"two corners together", models.Quad{good[0], good[0], good[2], good[3]}, 1280, 720, "apart"},
		{"far outside", models.Quad{good[0], good[1], {X: 3000, Y: 80}, good[3]}, 1280, 720, "far outside"},
		{"tiny", models.Quad{{X: 100, Y: 120}, {X: 130, Y: 120}, {X: 130, Y: 100}, {X: 100, Y: 100}}, 1280, 720, "enclose only"},
		{"no image size", good, 0, 720, "image size"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := FromCorners(tt.q, tt.w, tt.h)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if c.Method != MethodManual || c.Corners != tt.q {
					t.Errorf("got %+v", c)
				}
				return
			}
			if err == nil || !errors.Is(err, ErrBadCorners) || !contains(err.Error(), tt.wantErr) {
				t.Errorf("error = %v, want one with %q wrapping ErrBadCorners", err, tt.wantErr)
			}
		})
	}
}

func TestMappingRoundTrip(t *testing.T) {
	t.Parallel()
	c, err := FromCorners(models.Quad{{X: 120, Y: 660}, {X: 1150, Y: 610}, {X: 1010, Y: 110}, {X: 240, Y: 140}}, 1280, 720)
	if err != nil {
		t.Fatal(err)
	}
	g := c.Geometry
	// Corners map exactly.
	for i, p := range realmCorners(g) {
		if q := c.RealmToImage(p); math.Hypot(q.X-c.Corners[i].X, q.Y-c.Corners[i].Y) > 1e-6 {
			t.Errorf("corner %s maps to %v, want %v", cornerNames[i], q, c.Corners[i])
		}
	}
	for _, p := range []models.Point{{X: 0, Y: 0}, {X: 250, Y: 150}, {X: 499, Y: 1}, {X: -30, Y: 320}} {
		back := c.ImageToRealm(c.RealmToImage(p))
		if math.Hypot(back.X-p.X, back.Y-p.Y) > 1e-6 {
			t.Errorf("round trip of %v gave %v", p, back)
		}
	}
	// Cells: the centre of each cell's quad is in that cell.
	for _, cell := range models.AllCells() {
		q := c.CellQuad(cell)
		got, ok := c.CellAt(models.Quad(q).Center())
		if !ok || got != cell {
			t.Errorf("CellAt(centre of %v) = %v, %v", cell, got, ok)
		}
	}
	if _, ok := c.CellAt(models.Point{X: 5, Y: 5}); ok {
		t.Error("a point off the realm is in a cell")
	}
	// Rectified coordinates.
	if got := c.RealmToRectified(models.Point{X: 0, Y: 300}); got != (models.Point{}) {
		t.Errorf("A4 corner rectifies to %v, want the top-left (0,0)", got)
	}
	if got := c.RectifiedSize(); got.X != 1000 || got.Y != 600 {
		t.Errorf("RectifiedSize = %v, want 1000x600", got)
	}
}

// TestRectify warps a synthetic scene and checks that the grid lines land on
// the rectified image's cell boundaries.
func TestRectify(t *testing.T) {
	t.Parallel()
	s := scene{seed: 5, tiltDeg: 20, rotDeg: 6, widthFrac: 0.7, lineMM: 2, borderMM: 3, contrast: 1, lightLines: false, cards: 0}
	frame, truth := s.render(t)
	defer frame.Close()
	c, err := FromCorners(truth, frame.Cols(), frame.Rows())
	if err != nil {
		t.Fatal(err)
	}
	rect := c.Rectify(frame)
	defer rect.Close()
	if rect.Cols() != 1000 || rect.Rows() != 600 {
		t.Fatalf("rectified %dx%d, want 1000x600", rect.Cols(), rect.Rows())
	}
	gray := gocv.NewMat()
	defer gray.Close()
	gocv.CvtColor(rect, &gray, gocv.ColorBGRToGray)
	// Grid lines are dark (20), fully opaque: the line between columns B and
	// C (200 mm, 400 px) must be darker than the middle of cell B (300 px),
	// in the middle of each row of cells.
	for _, row := range []int{75, 225, 375, 525} {
		line := gray.GetUCharAt(row, 400)
		cell := gray.GetUCharAt(row, 300)
		if int(line)+30 > int(cell) {
			t.Errorf("row %d: grid line at x=400 has grey %d, cell middle %d: the line is not where it should be", row, line, cell)
		}
	}
}

func TestNorthAtBottom(t *testing.T) {
	t.Parallel()
	s := scene{seed: 9, tiltDeg: 15, rotDeg: -4, widthFrac: 0.75, lineMM: 1.5, borderMM: 3, contrast: 0.8, lightLines: true, cards: 8, noise: 3, northAtBot: true}
	frame, truth := s.render(t)
	defer frame.Close()
	c, err := Detect(frame, Options{South: Top})
	if err != nil {
		t.Fatal(err)
	}
	if e := cornerError(c.Corners, truth) / realmWidthPx(truth); e > 0.01 {
		t.Errorf("corners %v, want %v (A1 at the image top right)", fmtQuad(c.Corners), fmtQuad(truth))
	}
	if c.South != Top || c.Corners[0].Y > c.Corners[3].Y {
		t.Errorf("A1 %v should be above A4 %v with the north player at the bottom", c.Corners[0], c.Corners[3])
	}
}

func TestMarkers(t *testing.T) {
	t.Parallel()
	for _, s := range []scene{
		{seed: 21, tiltDeg: 25, rotDeg: 8, widthFrac: 0.6, lineMM: 1, borderMM: 1, contrast: 0.3, busy: true, cards: 12, noise: 3, markers: true, jpegQuality: 85},
		{seed: 22, tiltDeg: 10, rotDeg: -6, widthFrac: 0.5, lineMM: 1, borderMM: 1, contrast: 0.5, cards: 5, noise: 2, markers: true, northAtBot: true},
	} {
		frame, truth := s.render(t)
		c, err := Detect(frame, Options{Markers: true, South: southOf(s.northAtBot)})
		frame.Close()
		if err != nil {
			t.Fatalf("seed %d: %v", s.seed, err)
		}
		if c.Method != MethodMarkers {
			t.Errorf("seed %d: method %q, want markers", s.seed, c.Method)
		}
		// Markers give the corners to about a pixel.
		if e := cornerError(c.Corners, truth); e > 3 {
			t.Errorf("seed %d: corners %v, want %v (off by %.1f px)", s.seed, fmtQuad(c.Corners), fmtQuad(truth), e)
		}
	}
	// Without markers, requiring them fails with ErrNotFound.
	frame, _ := scene{seed: 23, widthFrac: 0.7, lineMM: 2, borderMM: 2, contrast: 1}.render(t)
	defer frame.Close()
	if _, err := Detect(frame, Options{Markers: true}); !errors.Is(err, ErrNotFound) {
		t.Errorf("Detect without markers = %v, want ErrNotFound", err)
	}
}

func TestDetectNothing(t *testing.T) {
	t.Parallel()
	blank := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(80, 90, 100, 0), 720, 1280, gocv.MatTypeCV8UC3)
	defer blank.Close()
	addNoise(t, &blank, rand.New(rand.NewPCG(5, 7)), 4)
	if c, err := Detect(blank, Options{}); !errors.Is(err, ErrNotFound) {
		t.Errorf("Detect(blank) = %+v, %v; want ErrNotFound", c, err)
	}
	if _, err := Detect(gocv.NewMat(), Options{}); err == nil {
		t.Error("Detect(empty mat) gave no error")
	}
}

// TestAnotherGeometry: a calibration for a mat of other cells, made with
// WithGeometry or by setting Geometry on a copy, maps the realm's far
// corner (elsewhere in millimetres) to the same image corner: the cached
// transforms follow the geometry, not only the corners.
func TestAnotherGeometry(t *testing.T) {
	t.Parallel()
	q := models.Quad{{X: 100, Y: 600}, {X: 1100, Y: 620}, {X: 1000, Y: 120}, {X: 220, Y: 110}}
	cal, err := FromCorners(q, 1280, 720)
	if err != nil {
		t.Fatal(err)
	}
	g := models.RealmGeometry{CellWidthMM: 120, CellHeightMM: 90}
	with, err := cal.WithGeometry(g)
	if err != nil {
		t.Fatal(err)
	}
	copied := *cal
	copied.Geometry = g
	for name, c := range map[string]*Calibration{"WithGeometry": with, "a copy": &copied} {
		p := c.RealmToImage(models.Point{X: g.WidthMM(), Y: g.HeightMM()})
		if math.Hypot(p.X-q[2].X, p.Y-q[2].Y) > 1e-6 {
			t.Errorf("%s: the far corner of a %v realm maps to %v, want %v", name, g, p, q[2])
		}
	}
	if cal.Geometry != models.DefaultRealm() {
		t.Errorf("WithGeometry changed the calibration it was called on: %v", cal.Geometry)
	}
	if _, err := cal.WithGeometry(models.RealmGeometry{}); !errors.Is(err, ErrBadGeometry) {
		t.Errorf("WithGeometry of no size: %v, want ErrBadGeometry", err)
	}
}
