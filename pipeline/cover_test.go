package pipeline

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/tracker"
	"gocv.io/x/gocv"
)

// coverScene draws the realm of TestChangeGate with a site and, about the
// centre of cell C2, cards given as their size in millimetres (a landscape
// card is a tapped one) and their shift north, from the bottom up, under a light of the given strength, with
// sensor noise drawn from rng.
func coverScene(t *testing.T, rng *rand.Rand, light float64, cards ...coverCard) gocv.Mat {
	t.Helper()
	m := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(90, 110, 100, 0), 720, 1280, gocv.MatTypeCV8UC3)
	site := mmRect(250, 112.5, 88, 63)
	gocv.Rectangle(&m, site, color.RGBA{60, 120, 40, 0}, -1)
	for _, c := range cards {
		r := mmRect(250, 112.5+c.north, c.w, c.h)
		gocv.Rectangle(&m, r, color.RGBA{235, 225, 200, 0}, -1)
		// Some print on the face: a name bar and stripes of art.
		for y := r.Min.Y + 6; y < r.Max.Y-6; y += 14 {
			gocv.Rectangle(&m, image.Rect(r.Min.X+8, y, r.Max.X-8, y+6), c.ink, -1)
		}
	}
	addSensorNoise(t, &m, rng)
	m.MultiplyFloat(float32(light))
	return m
}

type coverCard struct {
	w, h  float64
	ink   color.RGBA
	north float64         // shift from the cell's centre, in mm
	kind  models.CardKind // "" for a standard card
}

// The realm of TestChangeGate: 500 × 300 mm from (200, 600) to (1080, 120).
func mmToImage(x, y float64) image.Point {
	return image.Pt(int(200+x*880/500), int(600-y*480/300))
}

func mmRect(cx, cy, w, h float64) image.Rectangle {
	a, b := mmToImage(cx-w/2, cy-h/2), mmToImage(cx+w/2, cy+h/2)
	return image.Rect(a.X, b.Y, b.X, a.Y)
}

func quadOf(r image.Rectangle) models.Quad {
	return models.Quad{{X: float64(r.Min.X), Y: float64(r.Max.Y)}, {X: float64(r.Max.X), Y: float64(r.Max.Y)},
		{X: float64(r.Max.X), Y: float64(r.Min.Y)}, {X: float64(r.Min.X), Y: float64(r.Min.Y)}}
}

func unitSeen(name string, owner models.Player, c coverCard) models.CardObservation {
	return models.CardObservation{Cell: models.CellPtr(models.MustCell("C2")), Name: models.StrPtr(name),
		Type: models.StrPtr("Minion"), Kind: c.kind, Token: c.kind == models.KindToken, Owner: owner,
		Quad: quadOf(mmRect(250, 112.5+c.north, c.w, c.h)), Confidence: 0.9}
}

// newTestCoverWatch gives a change gate and a cover watch over the realm of
// TestChangeGate (the gate is closed when the test ends).
func newTestCoverWatch(t *testing.T) (*changeGate, *coverWatch) {
	t.Helper()
	cal, err := calibration.FromCorners(models.Quad{{X: 200, Y: 600}, {X: 1080, Y: 600}, {X: 1080, Y: 120}, {X: 200, Y: 120}}, 1280, 720)
	if err != nil {
		t.Fatal(err)
	}
	g := newChangeGate(cal)
	t.Cleanup(g.Close)
	return g, newCoverWatch(cal, g.size.X)
}

func TestCoverWatchSeesACardTakenFromUnderAnother(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2)) // the frames' sensor noise
	g, w := newTestCoverWatch(t)
	under := coverCard{w: 63, h: 88, ink: color.RGBA{40, 40, 160, 0}}  // upright, south's Goblin
	tapped := coverCard{w: 88, h: 63, ink: color.RGBA{160, 40, 40, 0}} // north's Frog, tapped, on top of it
	upright := coverCard{w: 66, h: 91, ink: color.RGBA{160, 40, 40, 0}}
	goblin := tracker.HiddenCard{Cell: models.MustCell("C2"), Card: "Pit Goblin", Owner: models.South}

	first := coverScene(t, rng, 1, under)
	defer first.Close()
	g.look(first)
	w.remember(models.FrameObservation{Cards: []models.CardObservation{unitSeen("Pit Goblin", models.South, under)}}, g.picture())
	// As the tapped card comes down on it, vision reads the Goblin once
	// more, doubtfully, with an outline that takes in some of the site:
	// that read must not replace its print.
	doubtful := unitSeen("Pit Goblin", models.South, under)
	doubtful.Confidence = 0.4
	doubtful.Quad = quadOf(mmRect(262, 105, 63, 88))
	covering := coverScene(t, rng, 1, under, tapped)
	defer covering.Close()
	g.look(covering)
	w.remember(models.FrameObservation{Cards: []models.CardObservation{doubtful, unitSeen("Bog Frog", models.North, tapped)}}, g.picture())

	tests := []struct {
		name  string
		scene []coverCard
		light float64
		top   coverCard
		want  []tracker.HiddenSight
	}{
		{"a tapped card on it: its ends still show", []coverCard{under, tapped}, 1, tapped,
			[]tracker.HiddenSight{{HiddenCard: goblin, Shows: true}}},
		{"the same under a brighter light", []coverCard{under, tapped}, 1.15, tapped,
			[]tracker.HiddenSight{{HiddenCard: goblin, Shows: true}}},
		{"taken from under it: the site shows there", []coverCard{tapped}, 1, tapped,
			[]tracker.HiddenSight{{HiddenCard: goblin, Gone: true}}},
		{"covered whole: nothing to tell", []coverCard{under, upright}, 1, upright, nil},
		{"taken from under a card that covered it whole: nothing to tell", []coverCard{upright}, 1, upright, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := coverScene(t, rng, tc.light, tc.scene...)
			defer f.Close()
			g.look(f)
			// Vision also reads the site under the cards, from the parts of it
			// that show: its outline takes in the ends of the Goblin, but a
			// site lies under every unit.
			site := models.CardObservation{Cell: models.CellPtr(models.MustCell("C2")), Name: models.StrPtr("Red Desert"),
				Type: models.StrPtr("Site"), Kind: models.KindSite, Owner: models.South, Quad: quadOf(mmRect(250, 112.5, 70, 95)), Confidence: 0.5}
			obs := models.FrameObservation{Cards: []models.CardObservation{site, unitSeen("Bog Frog", models.North, tc.top)}}
			got := w.sights([]tracker.HiddenCard{goblin}, obs, g.picture())
			if len(got) != len(tc.want) || len(got) > 0 && got[0] != tc.want[0] {
				t.Errorf("sights %+v, want %+v", got, tc.want)
			}
		})
	}
}

// A token is half a card: its print is taken, and its part that shows
// beside the card on it is watched, as a card's (a token killed from under a
// unit that moved onto it used to stay on the board for good).
func TestCoverWatchSeesATokenTakenFromUnderACard(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	g, w := newTestCoverWatch(t)
	token := coverCard{w: 44, h: 63, ink: color.RGBA{40, 40, 160, 0}, kind: models.KindToken}
	// A tapped card put on it, north of its centre: the token's south third shows.
	onTop := coverCard{w: 88, h: 63, ink: color.RGBA{160, 40, 40, 0}, north: 30}
	soldier := tracker.HiddenCard{Cell: models.MustCell("C2"), Card: "Foot Soldier", Owner: models.North}

	first := coverScene(t, rng, 1, token)
	defer first.Close()
	g.look(first)
	w.remember(models.FrameObservation{Cards: []models.CardObservation{unitSeen("Foot Soldier", models.North, token)}}, g.picture())
	for _, tc := range []struct {
		name  string
		scene []coverCard
		want  []tracker.HiddenSight
	}{
		{"still under the card", []coverCard{token, onTop}, []tracker.HiddenSight{{HiddenCard: soldier, Shows: true}}},
		{"taken away", []coverCard{onTop}, []tracker.HiddenSight{{HiddenCard: soldier, Gone: true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := coverScene(t, rng, 1, tc.scene...)
			defer f.Close()
			g.look(f)
			obs := models.FrameObservation{Cards: []models.CardObservation{unitSeen("Gale Sprite", models.South, onTop)}}
			if got := w.sights([]tracker.HiddenCard{soldier}, obs, g.picture()); len(got) != len(tc.want) || len(got) > 0 && got[0] != tc.want[0] {
				t.Errorf("sights %+v, want %+v", got, tc.want)
			}
		})
	}
}

// A card in sight that vision does not read on a frame is watched as a
// hidden one is: its place still looking as it did says it is still there
// (vision lost it), the mat or the site showing there says it left; a card
// seen now over part of it leaves the rest to be watched (whether it went
// under a card that came is the tracker's to tell). A site's print leaves
// out the units on it. A print is taken of a card
// read with the confidence the tracker needs to take its name (0.5).
func TestCoverWatchSeesACardVisionLost(t *testing.T) {
	goblinCard := coverCard{w: 63, h: 88, ink: color.RGBA{40, 40, 160, 0}}
	// A card over the Goblin's northern half and more.
	over := coverCard{w: 63, h: 88, ink: color.RGBA{160, 40, 40, 0}, north: 40}
	site := models.CardObservation{Cell: models.CellPtr(models.MustCell("C2")), Name: models.StrPtr("Red Desert"),
		Type: models.StrPtr("Site"), Kind: models.KindSite, Owner: models.South, Quad: quadOf(mmRect(250, 112.5, 88, 63)), Confidence: 0.9}
	goblinSeen, frogSeen := unitSeen("Pit Goblin", models.South, goblinCard), unitSeen("Bog Frog", models.North, over)
	goblin := tracker.HiddenCard{Cell: models.MustCell("C2"), Card: "Pit Goblin", Owner: models.South}
	desert := tracker.HiddenCard{Cell: models.MustCell("C2"), Card: "Red Desert", Owner: models.South}
	alone, underFrog := []coverCard{goblinCard}, []coverCard{goblinCard, over}
	for i, tc := range []struct {
		name  string
		then  []coverCard // when the prints were taken, all read
		conf  float64     // the Goblin's confidence then (0.9 if 0)
		scene []coverCard
		read  []models.CardObservation
		want  []tracker.HiddenSight
	}{
		{"both read: nothing to look at", alone, 0, alone, []models.CardObservation{site, goblinSeen}, nil},
		{"the unit lost, still there", alone, 0, alone, []models.CardObservation{site},
			[]tracker.HiddenSight{{HiddenCard: goblin, Shows: true}}},
		{"the unit taken away: the site shows there", alone, 0, nil, []models.CardObservation{site},
			[]tracker.HiddenSight{{HiddenCard: goblin, Gone: true}}},
		{"the unit lost as a card came down over most of it: what shows is alike", alone, 0, underFrog,
			[]models.CardObservation{site, frogSeen}, []tracker.HiddenSight{{HiddenCard: goblin, Shows: true}}},
		{"the unit lost under a card that lay over it already, still there", underFrog, 0, underFrog,
			[]models.CardObservation{site, frogSeen}, []tracker.HiddenSight{{HiddenCard: goblin, Shows: true}}},
		{"a unit read with just the confidence the tracker needs, lost, still there", alone, 0.55, alone,
			[]models.CardObservation{site}, []tracker.HiddenSight{{HiddenCard: goblin, Shows: true}}},
		{"the site lost, still there under the unit", alone, 0, alone,
			[]models.CardObservation{goblinSeen}, []tracker.HiddenSight{{HiddenCard: desert, Shows: true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(5, uint64(i)))
			g, w := newTestCoverWatch(t)
			then := coverScene(t, rng, 1, tc.then...)
			defer then.Close()
			g.look(then)
			goblinThen := goblinSeen
			if tc.conf > 0 {
				goblinThen.Confidence = tc.conf
			}
			seen := []models.CardObservation{site, goblinThen}
			if len(tc.then) > 1 {
				seen = append(seen, frogSeen)
			}
			w.remember(models.FrameObservation{Cards: seen}, g.picture())
			f := coverScene(t, rng, 1, tc.scene...)
			defer f.Close()
			g.look(f)
			obs := models.FrameObservation{Cards: tc.read}
			got := w.sights(unread([]tracker.HiddenCard{desert, goblin}, obs), obs, g.picture())
			if len(got) != len(tc.want) || len(got) > 0 && got[0] != tc.want[0] {
				t.Errorf("sights %+v, want %+v", got, tc.want)
			}
		})
	}
}

// turnScene draws the realm of TestChangeGate with a site in cell C2 and,
// centred on it, a unit whose face has print enough to tell which way it
// lies (none when lies is nil), tapped (a quarter turn clockwise) or not;
// with cover, an unread card lies over the unit's eastern part.
func turnScene(t *testing.T, rng *rand.Rand, lies *bool, cover bool) gocv.Mat {
	t.Helper()
	m := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(90, 110, 100, 0), 720, 1280, gocv.MatTypeCV8UC3)
	gocv.Rectangle(&m, mmRect(250, 112.5, 88, 63), color.RGBA{60, 120, 40, 0}, -1)
	if lies != nil {
		r := mmRect(250, 112.5, 90, 90)
		for py := r.Min.Y; py < r.Max.Y; py++ {
			for px := r.Min.X; px < r.Max.X; px++ {
				// The pixel in mm from the card's centre, then on the card's
				// face: u across it, v up it, as it lies untapped.
				dx, dy := float64(px-200)*500/880-250, float64(600-py)*300/480-112.5
				u, v := dx, dy
				if *lies {
					u, v = -dy, dx
				}
				if math.Abs(u) > 31.5 || math.Abs(v) > 44 {
					continue
				}
				grey := uint8(220) // the face: a name bar, a disc, a band
				switch {
				case v < -34:
					grey = 40
				case math.Hypot(u+12, v-18) < 10:
					grey = 70
				case u > 12 && v > -20 && v < 10:
					grey = 130
				}
				m.SetUCharAt(py, 3*px, grey)
				m.SetUCharAt(py, 3*px+1, grey)
				m.SetUCharAt(py, 3*px+2, grey)
			}
		}
	}
	if cover {
		gocv.Rectangle(&m, mmRect(250+45, 112.5, 63, 88), color.RGBA{160, 40, 40, 0}, -1)
	}
	addSensorNoise(t, &m, rng)
	return m
}

// A unit tapped or untapped while vision cannot read it (under a hand pass,
// as a card put on it half hides it) still shows its look where it lay,
// turned a quarter turn about its centre: the sight says it is there, and
// how it lies now. Its place showing neither look says it left.
func TestCoverWatchSeesACardTurned(t *testing.T) {
	tapped, untapped := true, false
	sprite := tracker.HiddenCard{Cell: models.MustCell("C2"), Card: "Gale Sprite", Owner: models.South}
	for i, tc := range []struct {
		name  string
		then  bool // how it lay when its print was taken
		now   *bool
		cover bool
		want  []tracker.HiddenSight
	}{
		{"tapped, untapped under a card put over it", true, &untapped, true,
			[]tracker.HiddenSight{{HiddenCard: sprite, Shows: true, Tapped: false}}},
		{"untapped, tapped", false, &tapped, false,
			[]tracker.HiddenSight{{HiddenCard: sprite, Shows: true, Tapped: true}}},
		{"tapped, still tapped", true, &tapped, true,
			[]tracker.HiddenSight{{HiddenCard: sprite, Shows: true, Tapped: true}}},
		{"tapped, taken away", true, nil, false,
			[]tracker.HiddenSight{{HiddenCard: sprite, Gone: true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, uint64(i)))
			g, w := newTestCoverWatch(t)
			then := turnScene(t, rng, &tc.then, false)
			defer then.Close()
			g.look(then)
			size := coverCard{w: 63, h: 88}
			if tc.then {
				size = coverCard{w: 88, h: 63}
			}
			seen := unitSeen("Gale Sprite", models.South, size)
			seen.Tapped = tc.then
			w.remember(models.FrameObservation{Cards: []models.CardObservation{seen}}, g.picture())
			f := turnScene(t, rng, tc.now, tc.cover)
			defer f.Close()
			g.look(f)
			got := w.sights([]tracker.HiddenCard{sprite}, models.FrameObservation{}, g.picture())
			if len(got) != len(tc.want) || len(got) > 0 && got[0] != tc.want[0] {
				t.Errorf("sights %+v, want %+v", got, tc.want)
			}
		})
	}
}
