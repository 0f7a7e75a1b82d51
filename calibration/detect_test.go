package calibration

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/tablecam/tablecam/models"
)

// variedScenes are synthetic views across the range the product must handle.
func variedScenes(n int, seed uint64) []scene {
	rng := rand.New(rand.NewPCG(seed, 1))
	out := make([]scene, n)
	for i := range out {
		out[i] = scene{
			seed:        seed*1000 + uint64(i),
			tiltDeg:     rng.Float64() * 30,
			rotDeg:      rng.Float64()*20 - 10,
			widthFrac:   0.5 + rng.Float64()*0.4,
			lineMM:      0.6 + rng.Float64()*2.5,
			borderMM:    1 + rng.Float64()*5,
			contrast:    0.25 + rng.Float64()*0.75,
			lightLines:  rng.IntN(2) == 0,
			busy:        rng.IntN(3) > 0,
			cards:       rng.IntN(21),
			hand:        rng.IntN(5) == 0,
			glare:       rng.IntN(2) == 0,
			noise:       2 + rng.Float64()*6,
			blur:        rng.IntN(2) == 0,
			jpegQuality: 70 + rng.IntN(25),
		}
		// Keep the realm inside the frame.
		out[i].shiftX = (rng.Float64() - 0.5) * 1280 * (0.95 - out[i].widthFrac) * 0.9
		out[i].shiftY = (rng.Float64() - 0.5) * 60
	}
	return out
}

func TestDetectSynthetic(t *testing.T) {
	scenes := variedScenes(24, 1)
	found, within2 := 0, 0
	for i, s := range scenes {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			frame, truth := s.render(t)
			defer frame.Close()
			c, err := Detect(frame, Options{})
			if err != nil {
				if !errors.Is(err, ErrNotFound) {
					t.Errorf("scene %d: error does not wrap ErrNotFound: %v", i, err)
				}
				t.Logf("scene %+v: %v", s, err)
				return
			}
			e := cornerError(c.Corners, truth) / realmWidthPx(truth)
			if e <= 0.02 {
				within2++
			}
			if e > 0.01 {
				t.Logf("scene %+v: corner error %.2f%% of the realm width (found %v, want %v, score %.2f)", s, 100*e, fmtQuad(c.Corners), fmtQuad(truth), c.Score)
				return
			}
			found++
		})
	}
	t.Logf("found within 1%%: %d/%d, within 2%%: %d/%d", found, len(scenes), within2, len(scenes))
	// These synthetic scenes are harsher than the sample stills (faint lines
	// on very busy art); the floor guards against regressions.
	if found < len(scenes)*70/100 || within2 < len(scenes)*85/100 {
		t.Errorf("found within 1%%: %d/%d (want ≥ 70%%), within 2%%: %d/%d (want ≥ 85%%)", found, len(scenes), within2, len(scenes))
	}
}

// TestCrossCheck hands the profile search's cross-check wrong lattices on
// a bundled still, as the edge pass might find them: one with half the
// true column spacing (its rows are right, and their long lines carry its
// ridge score) must give way to the true grid; one shifted by a whole
// column is left to the edge pass's judgement of aliases.
func TestCrossCheck(t *testing.T) {
	dir := filepath.Dir(sampleStills(t)[0])
	g := models.DefaultRealm()
	truth, frame := readStill(t, dir, "0001")
	defer frame.Close()
	want, err := fitHomography(realmCorners(g), truth.Corners[:])
	if err != nil {
		t.Fatal(err)
	}
	gray := grayFor(frame)
	defer gray.Close()
	rm, err := newRidgeMap(gray)
	if err != nil {
		t.Fatal(err)
	}
	tolerance := 0.01 * realmWidthPx(truth.Corners)
	tests := []struct {
		name    string
		edge    homography
		replace bool
	}{
		{"half the column spacing", homography{0.5, 0, 0, 0, 1, 0, 0, 0, 1}.Then(want), true},
		{"half the column spacing, two columns east", homography{0.5, 0, 2 * g.CellWidthMM, 0, 1, 0, 0, 0, 1}.Then(want), true},
		{"one column east", homography{1, 0, g.CellWidthMM, 0, 1, 0, 0, 0, 1}.Then(want), false},
	}
	for _, tc := range tests {
		if rs := rm.ridgeScore(tc.edge, g); rs >= crossCheckBelow {
			t.Fatalf("%s: ridge score %.3f, not below %.1f: the check would not run", tc.name, rs, crossCheckBelow)
		}
		got := crossCheck(gray, rm, nil, g, gridFit{h: tc.edge, score: 0.5})
		if tc.replace {
			if e := cornerError(orientLike(quadOf(got.h, g), truth.Corners), truth.Corners); e > tolerance {
				t.Errorf("%s: the cross-checked lattice is %.1f px off the true grid", tc.name, e)
			}
		} else if got.h != tc.edge {
			t.Errorf("%s: replaced by %v", tc.name, fmtQuad(quadOf(got.h, g)))
		}
	}
}

// orientLike reorders q's corners (the realm's symmetries: turned half
// round, mirrored along either axis) to match ref's best.
func orientLike(q, ref models.Quad) models.Quad {
	best := q
	for _, o := range []models.Quad{{q[2], q[3], q[0], q[1]}, {q[1], q[0], q[3], q[2]}, {q[3], q[2], q[1], q[0]}} {
		if cornerError(o, ref) < cornerError(best, ref) {
			best = o
		}
	}
	return best
}
