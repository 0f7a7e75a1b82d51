package calibration

import (
	"fmt"
	"image"
	"math"
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

// TestOrientCornersTurned reads the corners of a realm turned in the image
// plane by a camera turned any way: south is the long side nearer the image
// bottom (a realm turned more than a quarter turn is read with south and
// north swapped), and within quarterTurnBand of a quarter turn it is the
// long side on the image's left, whichever side is a hair lower;
// NorthAtBottom reads every view turned half round.
func TestOrientCornersTurned(t *testing.T) {
	t.Parallel()
	g := models.DefaultRealm()
	w, hh := g.WidthMM(), g.HeightMM()
	// turned is the realm seen top-down, turned deg clockwise on screen
	// about the frame's centre, with its true corners.
	turned := func(deg float64) (homography, models.Quad) {
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
	half := func(q models.Quad) models.Quad { return models.Quad{q[2], q[3], q[0], q[1]} }
	for _, tc := range []struct {
		deg     float64
		swapped bool // the true south is not the side read as south
	}{
		{0, false}, {30, false}, {-60, false}, {80, false}, {-85, false},
		{100, true}, {-120, true}, {180, true},
		// A quarter turn: south on the left.
		{90, false}, {-90, true},
		// Within the band: the left side, not the one a hair lower.
		{88.5, false}, {-88.5, true}, {91.5, false}, {-91.5, true},
	} {
		t.Run(fmt.Sprint(tc.deg), func(t *testing.T) {
			h, truth := turned(tc.deg)
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
				hs := sym.Then(h)
				if got := orientCorners(hs, g, false); cornerError(got, want) > 1e-6 {
					t.Errorf("south at the bottom: got %v, want %v", fmtQuad(got), fmtQuad(want))
				}
				if got := orientCorners(hs, g, true); cornerError(got, half(want)) > 1e-6 {
					t.Errorf("north at the bottom: got %v, want %v", fmtQuad(got), fmtQuad(half(want)))
				}
			}
		})
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
