package vision

import (
	"image"
	"image/color"
	"math"
	"math/rand"
	"testing"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// TestLookAgainFaintCard reads a frame of a plain mat on which lies one card
// whose face differs from the mat by a little in grey (a colour that turns
// to about the mat's grey) and a soft camera blurs: only its dark name band
// leaves edges at the frame's thresholds, one of its sides among them, and
// no closed outline nor four sides show. The second, more sensitive look
// around that unexplained side (lookAgain) finds the card; without it,
// nothing is reported.
func TestLookAgainFaintCard(t *testing.T) {
	// A standard card (63×88 mm) in cell B2, its face 30 grey levels above
	// the mat.
	card := image.Rect(377, 347, 503, 523)
	obs := readFaintCards(t, []image.Rectangle{card}, 30, 0, 0)
	want := models.Point{X: float64(card.Min.X+card.Max.X) / 2, Y: float64(card.Min.Y+card.Max.Y) / 2}
	found := false
	for _, c := range obs.Cards {
		at := c.Quad.Center()
		t.Logf("%s at %.0f,%.0f", c.NameOr("(unknown)"), at.X, at.Y)
		if math.Hypot(at.X-want.X, at.Y-want.Y) < 8 {
			found = true
			if c.Name != nil {
				t.Errorf("the faint card was named %s", *c.Name)
			}
		}
	}
	if !found {
		t.Errorf("the faint card at %.0f,%.0f was not found (%d cards reported)", want.X, want.Y, len(obs.Cards))
	}
}

// TestLookAgainFaintCardShortMark reads a frame of a plain mat on which
// lies one faint card (25 grey levels above the mat, blurred σ 2 px) whose
// only dark print at its edge is a mark along its top-left, 29 mm of its
// 63 mm top side (a cost gem, a short name band): that short straight edge
// is all the frame's thresholds leave of it, and the second look around
// it finds the card.
func TestLookAgainFaintCardShortMark(t *testing.T) {
	card := image.Rect(377, 347, 503, 523)
	obs := readFaintCards(t, []image.Rectangle{card}, 25, 58, 0)
	want := models.Point{X: float64(card.Min.X+card.Max.X) / 2, Y: float64(card.Min.Y+card.Max.Y) / 2}
	for _, c := range obs.Cards {
		if at := c.Quad.Center(); math.Hypot(at.X-want.X, at.Y-want.Y) < 8 {
			return
		}
	}
	t.Errorf("the faint card at %.0f,%.0f was not found (%d cards reported)", want.X, want.Y, len(obs.Cards))
}

// TestLookAgainFaintCards reads a frame in which four cards lie in a row of
// cells, each 25 grey levels above the mat's grey with a near-black name
// band, and a soft camera blurs them (σ 2 px): only the name bands leave
// edges at the frame's thresholds. The second look must find all four:
// at half the frame's thresholds the faint sides leave too few edges (none
// found), and with an eighth of the image to look at again, the windows
// about one card only fit (one found).
func TestLookAgainFaintCards(t *testing.T) {
	var cards []image.Rectangle
	for col := 0; col < 4; col++ {
		// A standard card (63×88 mm) in each of cells A4–D4.
		x0, y0 := 140+col*200+37, 71
		cards = append(cards, image.Rect(x0, y0, x0+126, y0+176))
	}
	obs := readFaintCards(t, cards, 25, 0, 0)
	found := faintCardsFound(obs, cards, func(c models.CardObservation) {
		if c.Name != nil {
			t.Errorf("the faint card at %.0f,%.0f was named %s", c.Quad.Center().X, c.Quad.Center().Y, *c.Name)
		}
	})
	if found != len(cards) {
		t.Errorf("%d of the %d faint cards found (%d cards reported)", found, len(cards), len(obs.Cards))
	}
}

// twoRowsOfCards gives the top-down places of eight standard cards
// (63×88 mm), one in each of cells A4–D4 and A2–D2.
func twoRowsOfCards() []image.Rectangle {
	var cards []image.Rectangle
	for row := 0; row < 2; row++ {
		for col := 0; col < 4; col++ {
			x0, y0 := 140+col*200+37, 71+row*400
			cards = append(cards, image.Rect(x0, y0, x0+126, y0+176))
		}
	}
	return cards
}

// TestLookAgainFaintCardsTwoRows reads a frame in which eight faint cards
// (as in TestLookAgainFaintCards) lie in two rows of four cells: the
// second look must find all eight, the windows about them half the
// top-down image.
func TestLookAgainFaintCardsTwoRows(t *testing.T) {
	cards := twoRowsOfCards()
	obs := readFaintCards(t, cards, 25, 0, 0)
	found := faintCardsFound(obs, cards, func(models.CardObservation) {})
	if found != len(cards) {
		t.Errorf("%d of the %d faint cards found (%d cards reported)", found, len(cards), len(obs.Cards))
	}
}

// faintCardsFound counts the cards (frame pixels) that obs reports a card
// centred within 8 px of, and hands each such card reported to check.
func faintCardsFound(obs models.FrameObservation, cards []image.Rectangle, check func(models.CardObservation)) int {
	found := 0
	for _, card := range cards {
		want := models.Point{X: float64(card.Min.X+card.Max.X) / 2, Y: float64(card.Min.Y+card.Max.Y) / 2}
		for _, c := range obs.Cards {
			if at := c.Quad.Center(); math.Hypot(at.X-want.X, at.Y-want.Y) < 8 {
				found++
				check(c)
				break
			}
		}
	}
	return found
}

// readFaintCards reads, with an analyzer of the dev catalog, a 1280×720
// frame of a plain grey mat (the realm, 500×300 mm, seen from straight
// above at 2 px/mm) on which lie cards (frame pixels) whose faces are
// lighter than the mat by lighter grey levels, each with a near-black name
// band along its top 10 mm (band frame pixels wide from its left side,
// when not 0; else across the face), and a soft camera blurs all (σ 2 px),
// and then adds noise (grey, normal, σ noise levels; none when 0).
func readFaintCards(t *testing.T, cards []image.Rectangle, lighter uint8, band int, noise float64) models.FrameObservation {
	t.Helper()
	img, cal := faintCardsFrame(t, cards, lighter, band, noise)
	defer img.Close()
	obs, err := newTestAnalyzer(t, devCatalog(t)).Analyze(img, cal)
	if err != nil {
		t.Fatal(err)
	}
	return obs
}

// faintCardsFrame draws the frame readFaintCards reads (the caller closes
// it), and gives its calibration.
func faintCardsFrame(t *testing.T, cards []image.Rectangle, lighter uint8, band int, noise float64) (gocv.Mat, *calibration.Calibration) {
	t.Helper()
	const w, h, mat = 1280, 720, 130
	corners := models.Quad{{X: 140, Y: 660}, {X: 1140, Y: 660}, {X: 1140, Y: 60}, {X: 140, Y: 60}}
	img := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(mat, mat, mat, 0), h, w, gocv.MatTypeCV8UC3)
	face := mat + lighter
	for _, card := range cards {
		gocv.Rectangle(&img, card, color.RGBA{face, face, face, 0}, -1)
		right := card.Max.X
		if band > 0 {
			right = card.Min.X + band
		}
		gocv.Rectangle(&img, image.Rect(card.Min.X, card.Min.Y, right, card.Min.Y+20), color.RGBA{10, 10, 10, 0}, -1)
	}
	gocv.GaussianBlur(img, &img, image.Pt(0, 0), 2, 2, gocv.BorderReplicate)
	if noise > 0 {
		pix, err := img.DataPtrUint8()
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewSource(1))
		for i := 0; i+2 < len(pix); i += 3 {
			n := rng.NormFloat64() * noise
			for c := i; c < i+3; c++ {
				pix[c] = uint8(math.Round(math.Max(0, math.Min(255, float64(pix[c])+n))))
			}
		}
	}
	cal, err := calibration.FromCorners(corners, w, h)
	if err != nil {
		t.Fatal(err)
	}
	return img, cal
}

// TestMatEdge: a segment beyond the grid that runs along the edge it lies
// beyond is the mat's edge or a border printed on it; one running out from
// the grid is a card's side.
func TestMatEdge(t *testing.T) {
	v := sidesTestView(t)
	px := v.pxPerMM
	x0, y0 := v.marginMM*px, v.marginMM*px
	x1, y1 := x0+v.geo.WidthMM()*px, y0+v.geo.HeightMM()*px
	mx := (x0 + x1) / 2
	seg := func(ax, ay, bx, by float64) segment {
		return sideSegment(models.Point{X: ax, Y: ay}, models.Point{X: bx, Y: by})
	}
	for _, c := range []struct {
		name string
		s    segment
		want bool
	}{
		{"along the grid's bottom, below it", seg(mx-80*px, y1+40*px, mx+80*px, y1+40*px), true},
		{"along the grid's top, above it", seg(mx-80*px, y0-40*px, mx+80*px, y0-40*px), true},
		{"along the grid's right side, beside it", seg(x1+40*px, y0+50*px, x1+40*px, y0+150*px), true},
		{"out from the grid's bottom, below it", seg(mx, y1+20*px, mx+2*px, y1+80*px), false},
		{"out from the grid's left side, beside it", seg(x0-80*px, y0+100*px, x0-20*px, y0+101*px), false},
		{"across the grid, within it", seg(mx-80*px, y0+100*px, mx+80*px, y0+100*px), false},
		{"slanted, below the grid", seg(mx, y1+20*px, mx+40*px, y1+60*px), false},
	} {
		if got := matEdge(c.s, v); got != c.want {
			t.Errorf("%s: matEdge = %v, want %v", c.name, got, c.want)
		}
	}
}
