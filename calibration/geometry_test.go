package calibration

import (
	"image"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/synth"
)

// sampleRenderer gives the scene renderer of the bundled sample catalog;
// the test is skipped when the catalog is absent.
func sampleRenderer(t *testing.T) *synth.Renderer {
	t.Helper()
	cat, err := models.LoadCatalog(filepath.Join("..", "samples", "catalog", "cards.json"))
	if err != nil {
		t.Skipf("no sample catalog: %v", err)
	}
	r, err := synth.NewRenderer(cat)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// oddMatScene renders the sample renderer's scene of seed on a mat whose
// realm cells are g (cards of the standard size, so that on a tight mat
// they cover much of the grid's lines), as the JPEG a camera would give,
// and its true corners (the caller closes the frame).
func oddMatScene(t *testing.T, g models.RealmGeometry, seed int64) (gocv.Mat, models.Quad) {
	t.Helper()
	r := sampleRenderer(t)
	if err := r.SetGeometry(g); err != nil {
		t.Fatal(err)
	}
	sc, err := r.Scene(seed, synth.SceneOptions{JPEGQuality: 85})
	if err != nil {
		t.Fatal(err)
	}
	frame, err := gocv.ImageToMatRGB(image.Image(sc.Image))
	if err != nil {
		t.Fatal(err)
	}
	return frame, sc.Truth.Corners
}

// TestDetectTightMat reads scenes on a mat of 88×66 mm cells, into which
// cards fit so tightly that they cover much of the grid's lines: the edges
// find the realm, and the line profiles, reading what the cards leave of
// the lines, only a lattice they do not believe themselves. That lattice
// must not outvote the edges' realm (as a second grid as clear as the first
// would): Detect must find the realm, whether it is told the cell size or
// not (the default cells have the same shape).
func TestDetectTightMat(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("renders scenes")
	}
	tight := models.RealmGeometry{CellWidthMM: 88, CellHeightMM: 66}
	for _, seed := range []int64{5555016671} {
		frame, truth := oddMatScene(t, tight, seed)
		for _, g := range []models.RealmGeometry{tight, {}} {
			c, err := Detect(frame, Options{Geometry: g})
			if err != nil {
				t.Errorf("seed %d, cells %v: no realm: %v", seed, g, err)
				continue
			}
			if e := cornerError(c.Corners, truth) / realmWidthPx(truth); e > 0.01 {
				t.Errorf("seed %d, cells %v: corner error %.1f%% of the realm's width (found %v, want %v)", seed, g, 100*e, fmtQuad(c.Corners), fmtQuad(truth))
			}
		}
		frame.Close()
	}
}
