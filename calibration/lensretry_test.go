package calibration

import (
	"math"
	"path/filepath"
	"testing"
)

// TestDetectStronglyBentGrid: a wide-angle lens (k 0.1 in half
// diagonals, the model of lens) bows the grid's lines of a sample still by
// ten pixels and more, so that no straight lattice fits them; the realm is
// still found (on the frame undistorted by a strong lens), where the lens
// puts it.
func TestDetectStronglyBentGrid(t *testing.T) {
	t.Parallel()
	detectBentStills(t, "0004", "0008")
}

// TestDetectThroughStrongLens: under the same lens a straight lattice is
// found on these stills, but the corners read along its bowed border
// lines miss by 1.7% and 2.6% of the realm's width; read again on the
// frame undistorted by the lens the lattice's lines gave, they are right.
func TestDetectThroughStrongLens(t *testing.T) {
	t.Parallel()
	detectBentStills(t, "0027", "0030")
}

// detectBentStills bends the bundled stills names by a lens of k 0.1 and
// checks that Detect finds their realms within 1% of the realm's width.
func detectBentStills(t *testing.T, names ...string) {
	for _, name := range names {
		t.Run(name, func(t *testing.T) { checkStillThroughLens(t, name, 0.1, 0) })
	}
}

// checkStillThroughLens bends the bundled still name by a lens of k, then,
// when quality is above 0, passes it through JPEG at that quality, and
// checks that Detect finds its realm within 1% of the realm's width.
func checkStillThroughLens(t *testing.T, name string, k float64, quality int) {
	t.Helper()
	dir := filepath.Dir(sampleStills(t)[0])
	truth, frame := readStill(t, dir, name)
	defer frame.Close()
	hd := math.Hypot(float64(frame.Cols()), float64(frame.Rows())) / 2
	bent, bentTruth := barrel(t, frame, k, hd, truth.Corners)
	if quality > 0 {
		raw := bent
		bent = jpegRoundTrip(t, raw, quality)
		raw.Close()
	}
	defer bent.Close()
	c, err := Detect(bent, Options{South: southOf(truth.NorthAtBottom)})
	if err != nil {
		t.Fatal(err)
	}
	if e := cornerError(c.Corners, bentTruth) / realmWidthPx(bentTruth); e > 0.01 {
		t.Errorf("corner error %.2f%% of the realm's width, want ≤ 1%% (found %v, truth %v)", 100*e, c.Corners, bentTruth)
	}
}

// TestDetectProfilesThroughLens: under a wide-angle lens (k 0.06) an arm
// hides the realm's north row and the west column lies mostly under
// cards; the edges trust no lattice, and the line profiles, fitting
// straight lines to bowed ones, find a lattice a cell east of the realm,
// whose east border runs over the table beyond the mat and on which no
// lens is read. Searched again through a strong lens, the realm is found
// where it is, and its lines bend as the lens bends them: it replaces the
// lattice a cell off.
func TestDetectProfilesThroughLens(t *testing.T) {
	t.Parallel()
	checkStillThroughLens(t, "0083", 0.06, 90)
}
