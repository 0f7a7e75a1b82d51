package pipeline

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/synth"
	"github.com/tablecam/tablecam/vision"
	"gocv.io/x/gocv"
)

// TestWithGeometry checks that a calibration given another cell size maps
// the realm's far corner, now elsewhere in millimetres, to the same image
// point, and the cells to the same image quads.
func TestWithGeometry(t *testing.T) {
	q := models.Quad{{X: 100, Y: 600}, {X: 1100, Y: 620}, {X: 1000, Y: 120}, {X: 220, Y: 110}}
	cal, err := calibration.FromCorners(q, 1280, 720)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []models.RealmGeometry{{CellWidthMM: 120, CellHeightMM: 90}, {CellWidthMM: 100, CellHeightMM: 64}} {
		c := withGeometry(cal, g)
		if c.Geometry != g || c.Corners != cal.Corners {
			t.Fatalf("withGeometry(%v) = geometry %v, corners %v", g, c.Geometry, c.Corners)
		}
		if p := c.RealmToImage(models.Point{X: g.WidthMM(), Y: g.HeightMM()}); math.Hypot(p.X-q[2].X, p.Y-q[2].Y) > 1e-6 {
			t.Errorf("%v: the realm's far corner maps to %v, want %v", g, p, q[2])
		}
		cell := models.Cell{Col: 3, Row: 2}
		if a, b := c.CellQuad(cell), cal.CellQuad(cell); !quadsNear(a, b, 1e-6) {
			t.Errorf("%v: cell %v at %v, want %v", g, cell, a, b)
		}
	}
	for _, g := range []models.RealmGeometry{cal.Geometry, {}} {
		if withGeometry(cal, g) != cal {
			t.Errorf("withGeometry(%v) made a new calibration", g)
		}
	}
}

func quadsNear(a, b models.Quad, tol float64) bool {
	for i := range a {
		if math.Hypot(a[i].X-b[i].X, a[i].Y-b[i].Y) > tol {
			return false
		}
	}
	return true
}

// TestSessionKeepsTheMatsCellSize runs the pipeline with real vision on
// frames of a table on a playmat whose cells are 120×90 mm: told nothing,
// told the size, or told a wrong one, the calibration kept beside the
// journal must end with the mat's cell size, so that a resumed game reads
// by it from its first frame.
func TestSessionKeepsTheMatsCellSize(t *testing.T) {
	cat := sampleCatalog(t)
	mat := models.RealmGeometry{CellWidthMM: 120, CellHeightMM: 90}
	r, err := synth.NewRenderer(cat)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.SetGeometry(mat); err != nil {
		t.Fatal(err)
	}
	scene, err := r.Scene(synth.SceneSeed(5555, 1), synth.SceneOptions{HandChance: -1})
	if err != nil {
		t.Fatal(err)
	}
	img, err := gocv.ImageToMatRGB(scene.Image)
	if err != nil {
		t.Fatal(err)
	}
	defer img.Close()
	frames := t.TempDir()
	for i := range 3 {
		if !gocv.IMWrite(filepath.Join(frames, fmt.Sprintf("%04d.png", i)), img) {
			t.Fatal("cannot write a frame")
		}
	}
	cache := t.TempDir()
	for _, tc := range []struct {
		name   string
		stated models.RealmGeometry
		learns bool
	}{
		{"told nothing", models.RealmGeometry{}, true},
		{"told the size", mat, false},
		{"told the default", models.DefaultRealm(), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			log := &syncBuffer{}
			corners := scene.Truth.Corners
			journal := filepath.Join(t.TempDir(), "game.jsonl")
			cfg := Config{Frames: frames, Catalog: cat, Corners: &corners, Geometry: tc.stated,
				Vision: vision.Options{CacheDir: cache}, Journal: journal, Log: log}
			watch(t, cfg)
			saved, err := calibration.Load(CalibrationPath(journal))
			if err != nil {
				t.Fatal(err)
			}
			g := saved.Geometry
			if math.Abs(g.CellWidthMM/mat.CellWidthMM-1) > 0.02 || math.Abs(g.CellHeightMM/mat.CellHeightMM-1) > 0.02 {
				t.Errorf("the calibration kept beside the journal states %v mm cells, want %v within 2%%\nlog:\n%s", g, mat, log)
			}
			if said := strings.Contains(log.String(), "the cards show realm cells"); said != tc.learns {
				t.Errorf("the log tells of learned cells: %v, want %v\nlog:\n%s", said, tc.learns, log)
			}
		})
	}
}
