package vision

import (
	"image"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/synth"
	"gocv.io/x/gocv"
)

// stillFrame loads a bundled still, its truth and its truth calibration
// (caller closes the frame); it skips the test when the stills are absent.
func stillFrame(t testing.TB, name string) (gocv.Mat, *calibration.Calibration, *synth.SceneTruth) {
	t.Helper()
	dir := filepath.Join("..", "samples", "stills")
	truth, err := synth.LoadSceneTruth(filepath.Join(dir, name+".json"))
	if err != nil {
		t.Skipf("no sample stills: %v", err)
	}
	frame := gocv.IMRead(filepath.Join(dir, name+".jpg"), gocv.IMReadColor)
	if frame.Empty() {
		t.Fatalf("cannot read still %s.jpg beside its truth", name)
	}
	cal, err := calibration.FromCorners(truth.Corners, frame.Cols(), frame.Rows())
	if err != nil {
		t.Fatal(err)
	}
	cal.Geometry = truth.Geometry
	return frame, cal, truth
}

// stillTopGray is a bundled still's top-down grey image, warped through its
// truth calibration at the analyzer's default scale, with its view (caller
// closes the image).
func stillTopGray(t testing.TB, name string) (gocv.Mat, *view) {
	t.Helper()
	frame, cal, _ := stillFrame(t, name)
	defer frame.Close()
	v, err := newView(cal.Corners, cal.Geometry, frame.Cols(), frame.Rows(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	top := v.warp(frame)
	defer top.Close()
	return grayOf(top), v
}

// TestFullReadLeavesSteadyFrame checks that a frame read in full (its cards
// read from a grey warp at full resolution) leaves a stable frame that the
// next frames' half-resolution colour warps match: the same frame again is
// steady, not read anew, and a frame in which a card moved is read anew.
func TestFullReadLeavesSteadyFrame(t *testing.T) {
	a, err := NewAnalyzer(devCatalog(t), Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	for _, name := range []string{"0003", "0010", "0042", "0077"} {
		frame, cal, _ := stillFrame(t, name)
		defer frame.Close()
		// A new view: read in full.
		first, err := a.Analyze(frame, cal)
		if err != nil {
			t.Fatal(err)
		}
		stable := a.stable
		if first.Occluded || stable == nil {
			continue // an occluded still leaves no stable frame to compare with
		}
		v, err := newView(cal.Corners, cal.Geometry, frame.Cols(), frame.Rows(), a.opts)
		if err != nil {
			t.Fatal(err)
		}
		direct := gocv.NewMat()
		defer direct.Close()
		top := v.scaled(0.5).warp(frame)
		grayInto(top, &direct)
		top.Close()
		if tiles := stable.changedTiles(direct); len(tiles) > 0 {
			t.Errorf("still %s: the half-resolution warp differs from the stable frame in %d tiles, e.g. %v", name, len(tiles), tiles[0])
		}
		if _, err := a.Analyze(frame, cal); err != nil {
			t.Fatal(err)
		}
		if a.stable != stable {
			t.Errorf("still %s: the same frame again was read anew, not found steady", name)
		}
		// A card's worth of pixels changed must still be seen.
		moved := frame.Clone()
		defer moved.Close()
		c := first.Cards[0].Quad.Center()
		r := moved.Region(image.Rect(int(c.X)-20, int(c.Y)-20, int(c.X)+20, int(c.Y)+20))
		r.SetTo(gocv.NewScalar(255, 255, 255, 0))
		r.Close()
		if _, err := a.Analyze(moved, cal); err != nil {
			t.Fatal(err)
		}
		if a.stable == stable {
			t.Errorf("still %s: a frame with a card's centre painted over was found steady", name)
		}
	}
}

// fullReads counts the frames an analyzer reads in full (the grey full warp).
type fullReads int

func (n *fullReads) lap(stage string) {
	if stage == "grey full warp" {
		*n++
	}
}

// TestSteadyFrameNamesCardsLater checks that a card the stable reading left
// unnamed is read again while the scene stays still, and takes the name the
// new reading gives it, while the other cards stay as they were read; and
// that a card no reading names costs at most rereadTimes more readings.
func TestSteadyFrameNamesCardsLater(t *testing.T) {
	cat := devCatalog(t)
	a, err := NewAnalyzer(cat, Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	var reads fullReads
	a.laps = &reads
	cards := []placement{{slug: "ember_whelp", x: 250, y: 112.5}, {slug: "emberfall_ridge", x: 150, y: 37.5}}
	sc := renderTestScene(t, cat, cards, tiltedCorners, 3)
	defer sc.frame.Close()
	first := analyzeScene(t, a, sc)
	if len(first.Cards) != 2 || !first.Cards[0].Identified() || !first.Cards[1].Identified() {
		t.Fatalf("first reading: %d cards %+v, want both named", len(first.Cards), first.Cards)
	}
	// The first reading failed to name the Whelp (as one frame of several
	// does for a card on the edge of being named).
	whelp := -1
	for i, c := range a.stable.cards {
		if c.NameOr("") == "Ember Whelp" {
			whelp = i
		}
	}
	if whelp < 0 {
		t.Fatal("no Ember Whelp in the stable reading")
	}
	a.stable.cards[whelp].Name, a.stable.cards[whelp].Slug, a.stable.cards[whelp].Type = nil, nil, nil
	a.stable.cards[whelp].Confidence = 0.2
	reads = 0
	for i := 1; i <= rereadEvery; i++ {
		obs := analyzeScene(t, a, sc)
		named := 0
		for _, c := range obs.Cards {
			if c.Identified() {
				named++
			}
		}
		switch {
		case len(obs.Cards) != 2:
			t.Fatalf("steady frame %d: %d cards, want 2", i, len(obs.Cards))
		case i < rereadEvery && (named != 1 || reads != 0):
			t.Errorf("steady frame %d: %d named, %d full readings; want the stable reading as it was (1 named, none read)", i, named, reads)
		case i == rereadEvery && (named != 2 || reads != 1):
			t.Errorf("steady frame %d: %d named, %d full readings; want both named after one reading", i, named, reads)
		}
	}
	// A card no reading names (here: one the stable reading holds that the
	// frame does not show) is read for at most rereadTimes times.
	ghost := a.stable.cards[whelp]
	ghost.Name, ghost.Slug, ghost.Type = nil, nil, nil
	for i := range ghost.Quad {
		ghost.Quad[i].X += 300
	}
	a.stable.cards = append(a.stable.cards, ghost)
	left := rereadTimes - a.stable.rereads
	reads = 0
	for i := 0; i < rereadEvery*(rereadTimes+3); i++ {
		if obs := analyzeScene(t, a, sc); len(obs.Cards) != 3 {
			t.Fatalf("steady frame: %d cards, want the stable reading's 3", len(obs.Cards))
		}
	}
	if int(reads) != left {
		t.Errorf("%d full readings for a card never named, want the %d left of %d", reads, left, rereadTimes)
	}
}

func TestTakeNames(t *testing.T) {
	name := func(s string) *string { return &s }
	// Card quads in image pixels, clockwise from the face's top-left.
	portrait := func(cx, cy float64) models.Quad {
		return models.Quad{{X: cx - 31, Y: cy - 44}, {X: cx + 31, Y: cy - 44}, {X: cx + 31, Y: cy + 44}, {X: cx - 31, Y: cy + 44}}
	}
	landscape := func(cx, cy float64) models.Quad {
		return models.Quad{{X: cx - 44, Y: cy - 31}, {X: cx + 44, Y: cy - 31}, {X: cx + 44, Y: cy + 31}, {X: cx - 44, Y: cy + 31}}
	}
	card := func(n string, q models.Quad) models.CardObservation {
		c := models.CardObservation{Quad: q, Confidence: 0.2}
		if n != "" {
			c.Name, c.Confidence = name(n), 0.8
		}
		return c
	}
	tests := []struct {
		name        string
		stable, now []models.CardObservation
		want        []string // the stable cards' names after ("" unnamed)
	}{
		{"an unnamed card named in its place",
			[]models.CardObservation{card("", portrait(100, 100))},
			[]models.CardObservation{card("Ember Whelp", portrait(104, 98))},
			[]string{"Ember Whelp"}},
		{"a card named elsewhere names nothing",
			[]models.CardObservation{card("", portrait(100, 100))},
			[]models.CardObservation{card("Ember Whelp", portrait(140, 100))},
			[]string{""}},
		{"a card lying across (a site under an upright unit) names nothing",
			[]models.CardObservation{card("", portrait(100, 100))},
			[]models.CardObservation{card("Arid Desert", landscape(100, 100))},
			[]string{""}},
		{"a token's half-size card names nothing",
			[]models.CardObservation{card("", models.Quad{{X: 78, Y: 78}, {X: 122, Y: 78}, {X: 122, Y: 122}, {X: 78, Y: 122}})},
			[]models.CardObservation{card("Ember Whelp", portrait(100, 100))},
			[]string{""}},
		{"the site under a tapped unit keeps its name; the unit takes the other",
			[]models.CardObservation{card("Arid Desert", landscape(100, 100)), card("", landscape(102, 101))},
			[]models.CardObservation{card("Arid Desert", landscape(100, 100)), card("Pit Goblin", landscape(102, 101))},
			[]string{"Arid Desert", "Pit Goblin"}},
		{"the site under a tapped unit, read alone, does not name the unit",
			[]models.CardObservation{card("Arid Desert", landscape(100, 100)), card("", landscape(102, 101))},
			[]models.CardObservation{card("Arid Desert", landscape(101, 100))},
			[]string{"Arid Desert", ""}},
		{"a named card is not renamed",
			[]models.CardObservation{card("Arid Desert", landscape(100, 100))},
			[]models.CardObservation{card("Red Desert", landscape(100, 100))},
			[]string{"Arid Desert"}},
		{"one name names one card: the nearer",
			[]models.CardObservation{card("", portrait(100, 100)), card("", portrait(108, 100))},
			[]models.CardObservation{card("Ember Whelp", portrait(107, 100))},
			[]string{"", "Ember Whelp"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := &stableFrame{cards: tc.stable}
			s.takeNames(tc.now)
			var got []string
			for _, c := range s.cards {
				got = append(got, c.NameOr(""))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("names %q, want %q", got, tc.want)
			}
		})
	}
}
