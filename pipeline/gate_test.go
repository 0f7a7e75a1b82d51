package pipeline

import (
	"context"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// addSensorNoise adds to every channel of an 8-bit colour image a camera's
// read noise (normal, σ 4 grey levels; what falls below 0 is clipped, as
// OpenCV's RandN into 8-bit pixels does). The noise comes from rng, not
// OpenCV's generator: that one is kept per OS thread, and a goroutine may
// run on any, so a test's frames would change from run to run.
func addSensorNoise(t *testing.T, m *gocv.Mat, rng *rand.Rand) {
	t.Helper()
	noise := gocv.NewMatWithSize(m.Rows(), m.Cols(), m.Type())
	defer noise.Close()
	px, err := noise.DataPtrUint8()
	if err != nil {
		t.Fatal(err)
	}
	for i := range px {
		px[i] = uint8(math.Round(max(4*rng.NormFloat64(), 0)))
	}
	gocv.Add(*m, noise, m)
}

// tableFrame draws a textured mat with the realm at the given corners, plus
// sensor noise drawn from rng.
func tableFrame(t *testing.T, rng *rand.Rand, card image.Rectangle, hand bool) gocv.Mat {
	m := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(90, 110, 100, 0), 720, 1280, gocv.MatTypeCV8UC3)
	for x := 200; x <= 1080; x += 176 {
		gocv.Line(&m, image.Pt(x, 120), image.Pt(x, 600), color.RGBA{230, 230, 230, 0}, 3)
	}
	for y := 120; y <= 600; y += 120 {
		gocv.Line(&m, image.Pt(200, y), image.Pt(1080, y), color.RGBA{230, 230, 230, 0}, 3)
	}
	if !card.Empty() {
		gocv.Rectangle(&m, card, color.RGBA{20, 60, 200, 0}, -1)
		gocv.Rectangle(&m, card.Inset(20), color.RGBA{200, 200, 40, 0}, -1)
	}
	if hand {
		// A forearm from the bottom edge of the picture to the middle of the realm.
		gocv.Rectangle(&m, image.Rect(620, 420, 760, 720), color.RGBA{150, 170, 220, 0}, -1)
		gocv.Circle(&m, image.Pt(690, 420), 80, color.RGBA{150, 170, 220, 0}, -1)
	}
	addSensorNoise(t, &m, rng)
	return m
}

func TestChangeGate(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2)) // the frames' sensor noise
	cal, err := calibration.FromCorners(models.Quad{{X: 200, Y: 600}, {X: 1080, Y: 600}, {X: 1080, Y: 120}, {X: 200, Y: 120}}, 1280, 720)
	if err != nil {
		t.Fatal(err)
	}
	g := newChangeGate(cal)
	defer g.Close()
	site := image.Rect(560, 380, 720, 490)
	ref := tableFrame(t, rng, site, false)
	defer ref.Close()
	if g.still(ref) {
		t.Fatal("still before any reference")
	}
	g.setReference()
	tests := []struct {
		name string
		card image.Rectangle
		hand bool
		want gateVerdict
	}{
		{"same board, new sensor noise", site, false, still},
		{"card tapped", image.Rect(585, 355, 695, 515), false, changed},
		{"card gone", image.Rectangle{}, false, changed},
		{"arm reaching in from the edge", site, true, hand},
		{"card nudged 10 px", site.Add(image.Pt(10, 0)), false, changed},
	}
	for _, tc := range tests {
		f := tableFrame(t, rng, tc.card, tc.hand)
		if got := g.judge(f); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
		f.Close()
	}
	// However still the table, vision reads a frame in full now and then.
	for i := 0; i < gateMaxSkip; i++ {
		g.skipped++
	}
	f := tableFrame(t, rng, site, false)
	defer f.Close()
	if g.still(f) {
		t.Errorf("still after %d skipped frames", gateMaxSkip)
	}
}

// emptyAnalyzer reads no cards: for tests about the frames themselves.
type emptyAnalyzer struct{}

func (emptyAnalyzer) Analyze(gocv.Mat, *calibration.Calibration) (models.FrameObservation, error) {
	return models.FrameObservation{Cards: []models.CardObservation{}}, nil
}

func TestCameraMovedIsRecalibrated(t *testing.T) {
	still := gocv.IMRead("../samples/stills/0008.jpg", gocv.IMReadColor)
	if still.Empty() {
		t.Skip("no sample stills")
	}
	defer still.Close()
	// The camera is knocked 60 px to the left and 30 px up after one second.
	dir := knockedCameraFrames(t, still, -60, -30, 30, 90)
	log := &syncBuffer{}
	cfg := Config{Frames: dir, Camera: -1, Catalog: sampleCatalog(t), Analyzer: emptyAnalyzer{},
		Journal: filepath.Join(t.TempDir(), "j.jsonl"), Log: log}
	s, err := Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for range s.Updates() {
	}
	if err := s.Wait(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "realm found again") {
		t.Fatalf("the move was not noticed:\n%s", log.String())
	}
	before, err := calibration.Detect(still, calibration.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	after := s.cal.Corners
	s.mu.Unlock()
	for i := range after {
		dx, dy := after[i].X-before.Corners[i].X, after[i].Y-before.Corners[i].Y
		// Within 1% of the realm's width, as calibration promises.
		if math.Abs(dx+60) > 9 || math.Abs(dy+30) > 9 {
			t.Errorf("corner %d moved by (%.1f, %.1f), want about (-60, -30)", i, dx, dy)
		}
	}
}
