package calibration

import (
	"errors"
	"fmt"
	"image"
	"math"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/synth"
)

// TestDetectTurnedCamera renders the sample renderer's scenes of cameras
// turned 50–85° either way in the image plane (a camera at a corner or a
// side of the table, a phone held sideways), tilted up to 29°: the
// realm's long side runs down the frame, or nearly. Detect must find the
// realm, its corners in order (south the long side nearer the image
// bottom) within 1% of its width.
func TestDetectTurnedCamera(t *testing.T) {
	t.Parallel()
	r := sampleRenderer(t)
	for _, seed := range []int64{904002721, 904002739, 904002744} {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			found, truth, roll := detectInTurnedScene(t, r, seed, synth.SceneOptions{JPEGQuality: 85, MaxRollDeg: 90}, 45)
			if e := cornerError(found, truth) / realmWidthPx(truth); e > 0.01 {
				t.Errorf("camera turned %.0f°: corners %.2f%% of the realm's width off (found %v, truth %v)", roll, 100*e, fmtQuad(found), fmtQuad(truth))
			}
		})
	}
}

// turnedRealm is the realm seen top-down, turned deg clockwise on screen
// about a 1280×720 frame's centre, with its true corners (A1, E1, E4, A4).
func turnedRealm(g models.RealmGeometry, deg float64) (homography, models.Quad) {
	w, hh := g.WidthMM(), g.HeightMM()
	a := deg * math.Pi / 180
	c, s := math.Cos(a), math.Sin(a)
	const k = 1.2 // px per mm
	// realm mm (x east, y north) → image, north up, then turned.
	h := homography{k * c, k * s, 640 - k*(c*w/2+s*hh/2), k * s, -k * c, 360 - k*(s*w/2-c*hh/2), 0, 0, 1}
	var q models.Quad
	for i, p := range realmCorners(g) {
		q[i] = h.Apply(p)
	}
	return h, q
}

// sideTurn is how far (degrees clockwise on screen) a realm is turned from
// the default view for its south edge to face side s.
var sideTurn = map[Side]float64{Bottom: 0, Left: 90, Top: 180, Right: -90}

// TestOrientCornersTurned reads the corners of a realm turned in the image
// plane by a camera turned any way, for each setting of the image side
// south is on: south is the long side towards that side (a realm turned
// more than a quarter turn from the setting is read with south and north
// swapped), and within quarterTurnBand of a quarter turn it is the long
// side a quarter turn clockwise on screen from the setting (for Bottom the
// side on the image's left), whichever side is a hair nearer. The table's
// turns are from the setting's own view (sideTurn).
func TestOrientCornersTurned(t *testing.T) {
	t.Parallel()
	g := models.DefaultRealm()
	w, hh := g.WidthMM(), g.HeightMM()
	half := func(q models.Quad) models.Quad { return models.Quad{q[2], q[3], q[0], q[1]} }
	for _, side := range []Side{Bottom, Top, Left, Right} {
		for _, tc := range []struct {
			deg     float64 // from the setting's view
			swapped bool    // the true south is not the side read as south
		}{
			{0, false}, {30, false}, {-60, false}, {80, false}, {-85, false},
			{100, true}, {-120, true}, {180, true},
			// Half way between two sides: clearly read either way.
			{44, false}, {45, false}, {46, false}, {-45, false},
			{134, true}, {135, true}, {136, true}, {-135, true},
			// A quarter turn: south a quarter turn clockwise from the setting.
			{90, false}, {-90, true},
			// Within the band: that side, not the one a hair nearer.
			{88.5, false}, {-88.5, true}, {91.5, false}, {-91.5, true},
		} {
			t.Run(fmt.Sprintf("%v/%g", side, tc.deg), func(t *testing.T) {
				h, truth := turnedRealm(g, sideTurn[side]+tc.deg)
				want := truth
				if tc.swapped {
					want = half(truth)
				}
				// Any of the lattice's symmetric readings gives the same corners.
				for _, sym := range []homography{
					{1, 0, 0, 0, 1, 0, 0, 0, 1},
					{-1, 0, w, 0, -1, hh, 0, 0, 1},
					{-1, 0, w, 0, 1, 0, 0, 0, 1},
					{1, 0, 0, 0, -1, hh, 0, 0, 1},
				} {
					if got := orientCorners(sym.Then(h), g, side); cornerError(got, want) > 1e-6 {
						t.Errorf("got %v, want %v", fmtQuad(got), fmtQuad(want))
					}
				}
			})
		}
	}
}

// TestSideOfTurned checks SideOf, the side a user would name, on realms
// turned every way, and that Detect's reading given it is never turned:
// the side it names is always within 45° of the true south, far from the
// quarter-turn band where the reading is settled by convention.
func TestSideOfTurned(t *testing.T) {
	t.Parallel()
	g := models.DefaultRealm()
	for _, tc := range []struct {
		deg  float64
		want Side
	}{
		{0, Bottom}, {30, Bottom}, {-30, Bottom}, {44, Bottom}, {-44, Bottom},
		{46, Left}, {90, Left}, {134, Left},
		{136, Top}, {180, Top}, {-180, Top}, {-136, Top},
		{-134, Right}, {-90, Right}, {-46, Right},
	} {
		t.Run(fmt.Sprint(tc.deg), func(t *testing.T) {
			if got := SideOf(mustTurned(g, tc.deg)); got != tc.want {
				t.Errorf("SideOf = %v, want %v", got, tc.want)
			}
		})
	}
	for deg := -180.0; deg < 180; deg += 0.5 {
		h, truth := turnedRealm(g, deg)
		if got := orientCorners(h, g, SideOf(truth)); cornerError(got, truth) > 1e-6 {
			t.Errorf("turned %g°: south on the %v: read %v, want %v", deg, SideOf(truth), fmtQuad(got), fmtQuad(truth))
		}
	}
}

func mustTurned(g models.RealmGeometry, deg float64) models.Quad {
	_, q := turnedRealm(g, deg)
	return q
}

// TestParseSide reads sides by name, and refuses other words naming them.
func TestParseSide(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   string
		want Side
		ok   bool
	}{
		{"bottom", Bottom, true}, {"top", Top, true}, {"Left", Left, true}, {" RIGHT ", Right, true},
		{"up", Bottom, false}, {"", Bottom, false}, {"north", Bottom, false},
	} {
		got, err := ParseSide(tt.in)
		if (err == nil) != tt.ok || (tt.ok && got != tt.want) {
			t.Errorf("ParseSide(%q) = %v, %v; want %v, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
		if !tt.ok && (!errors.Is(err, ErrBadSide) || !strings.Contains(err.Error(), fmt.Sprintf("%q", tt.in))) {
			t.Errorf("ParseSide(%q) error %v should name the word and wrap ErrBadSide", tt.in, err)
		}
	}
}

// TestDetectTurnedFaintGrid renders the sample renderer's scenes of cameras
// turned 70–92° in the image plane over faint grids on busy art, where no
// lattice on edges is believed and the realm is read off the lines'
// profiles: the realm must be found (any orientation; see orientCorners)
// within 1% of its width. The profile search read only lattices lying
// across the frame: it found no realm in one (70°), and in the others took
// a lattice across the frame over card edges and the realm's columns, a
// wrong realm, although the turned realm's lines are far more clearly
// drawn.
func TestDetectTurnedFaintGrid(t *testing.T) {
	t.Parallel()
	r := sampleRenderer(t)
	for _, tc := range []struct {
		seed    int64
		maxRoll float64
		quality int
	}{{901002739, 180, 90}, {904002726, 90, 85}, {901002734, 180, 90}} {
		t.Run(fmt.Sprint(tc.seed), func(t *testing.T) {
			found, truth, roll := detectInTurnedScene(t, r, tc.seed, synth.SceneOptions{JPEGQuality: tc.quality, MaxRollDeg: tc.maxRoll}, 60)
			if e := cornerError(orientLike(found, truth), truth) / realmWidthPx(truth); e > 0.01 {
				t.Errorf("camera turned %.0f°: corners %.2f%% of the realm's width off (found %v, truth %v)", roll, 100*e, fmtQuad(found), fmtQuad(truth))
			}
		})
	}
}

// detectInTurnedScene renders the scene of seed, which must show the camera
// turned at least minRoll degrees in the image plane, and gives the realm
// corners Detect finds there (failing the test when it finds none), the
// truth's and the camera's turn.
func detectInTurnedScene(t *testing.T, r *synth.Renderer, seed int64, opts synth.SceneOptions, minRoll float64) (found, truth models.Quad, roll float64) {
	t.Helper()
	sc, err := r.Scene(seed, opts)
	if err != nil {
		t.Fatal(err)
	}
	roll = sc.Truth.RollDeg
	if math.Abs(roll) < minRoll {
		t.Fatalf("the camera turned %.1f°: the scene no longer tests a turned camera", roll)
	}
	frame, err := gocv.ImageToMatRGB(image.Image(sc.Image))
	if err != nil {
		t.Fatal(err)
	}
	defer frame.Close()
	c, err := Detect(frame, Options{Geometry: sc.Truth.Geometry})
	if err != nil {
		t.Fatalf("camera turned %.0f°: no realm (%v)", roll, err)
	}
	return c.Corners, sc.Truth.Corners, roll
}
