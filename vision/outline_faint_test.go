package vision

import (
	"testing"

	"github.com/tablecam/tablecam/models"
)

// TestLookAgainNoisyFaintCards reads a frame in which eight faint cards lie
// in two rows of four cells, each 20 grey levels above the mat's grey with
// a short near-black mark along its top-left (as in
// TestLookAgainFaintCardShortMark), blurred (σ 2 px), with the camera's
// noise on all (σ 8 levels): at the second look's thresholds the noise
// pushes the faint sides' edges off their lines, and no straight side
// shows at full resolution. At half resolution the sides are straight
// runs (halfSegments): lookAgainHalf finds most of the cards. Their faces
// are blank, and no face names them: none is reported (an outline found so
// and named by no face may be a misplaced one, its short sides on print
// inside cards).
func TestLookAgainNoisyFaintCards(t *testing.T) {
	cards := twoRowsOfCards()
	img, cal := faintCardsFrame(t, cards, 20, 58, 8)
	defer img.Close()
	a := newTestAnalyzer(t, devCatalog(t))
	obs, err := a.Analyze(img, cal)
	if err != nil {
		t.Fatal(err)
	}
	if n := faintCardsFound(obs, cards, func(models.CardObservation) {}); n > 0 {
		t.Errorf("%d of the %d blank faint cards reported; want none", n, len(cards))
	}
	// The second look at half resolution, again on the frame just read.
	v, err := newView(cal.Corners, a.scale.geometry(cal.Geometry), img.Cols(), img.Rows(), a.opts)
	if err != nil {
		t.Fatal(err)
	}
	var half models.FrameObservation
	for _, c := range a.outlines.lookAgainHalf(a.images.gray, v, nil, nil, nil, nil) {
		half.Cards = append(half.Cards, c.unknown().observation(v))
	}
	if found := faintCardsFound(half, cards, func(models.CardObservation) {}); found < 6 || len(half.Cards) != found {
		t.Errorf("the second look at half resolution found %d of the %d faint cards and %d other outlines; want at least 6 and nothing else", found, len(cards), len(half.Cards)-found)
	}
}
