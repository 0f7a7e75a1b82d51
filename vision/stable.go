package vision

import (
	"cmp"
	"image"
	"math"
	"slices"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// stableFrame is the last frame read in full: its top-down image, lightly
// blurred, and the cards found in it. A new frame whose every tile matches it
// has the same cards, so the analyzer need not read them again.
type stableFrame struct {
	view  *view
	blur  gocv.Mat
	cards []models.CardObservation
	// steady counts the frames found unchanged since; rereads the readings
	// made since to name its unnamed cards (see wantsNames).
	steady, rereads int
}

// A card the stable reading left unnamed may be named in the next frames of
// the same scene. The stable reading is the first frame read after the
// scene changed, and a card on the edge of being named (small in the frame,
// with few features) fails in one frame of several, the next ones named it;
// kept as it was read, it would stay unnamed for as long as nothing moves.
// So while the scene stays still and a card is unnamed, every rereadEvery-th
// frame is read in full again, at most rereadTimes times, and the names it
// gives the cards left unnamed are taken (takeNames). Nothing else of the
// stable reading changes, so no card flickers in or out.
const (
	rereadEvery = 2
	rereadTimes = 8
)

// wantsNames counts one more frame found unchanged and reports whether it
// is to be read again to name the stable reading's unnamed cards.
func (s *stableFrame) wantsNames() bool {
	s.steady++
	if s.rereads >= rereadTimes || s.steady%rereadEvery != 0 {
		return false
	}
	for _, c := range s.cards {
		if !c.Identified() {
			s.rereads++
			return true
		}
	}
	return false
}

// takeNames gives each unnamed card of the stable reading the card read in
// its place (see samePlace) by a new reading of the same scene, cards, when
// that card is named. A named card in the place of a stable card of the
// same name is that card, and is taken by no other; the pairs whose centres
// lie nearest are made first.
func (s *stableFrame) takeNames(cards []models.CardObservation) {
	taken := make([]bool, len(cards))
	for i, c := range cards {
		if !c.Identified() {
			taken[i] = true
			continue
		}
		for _, st := range s.cards {
			if st.Identified() && *st.Name == *c.Name && samePlace(st.Quad, c.Quad) {
				taken[i] = true
				break
			}
		}
	}
	type pair struct {
		stable, read int
		d            float64
	}
	var pairs []pair
	for k, st := range s.cards {
		if st.Identified() {
			continue
		}
		for i, c := range cards {
			if !taken[i] && samePlace(st.Quad, c.Quad) {
				pairs = append(pairs, pair{k, i, centreDistance(st.Quad, c.Quad)})
			}
		}
	}
	// The nearest pairs first: each card takes at most one name.
	slices.SortStableFunc(pairs, func(a, b pair) int { return cmp.Compare(a.d, b.d) })
	for _, p := range pairs {
		if !taken[p.read] && !s.cards[p.stable].Identified() {
			s.cards[p.stable] = cards[p.read]
			taken[p.read] = true
		}
	}
}

// samePlace reports whether two card quads (in image pixels) are one card's
// place: their centres within a quarter of the card's short side, their
// areas within a third of each other and their long sides within 15° of
// each other.
func samePlace(a, b models.Quad) bool {
	sa, ta := quadAxes(a)
	sb, tb := quadAxes(b)
	if sa <= 0 || sb <= 0 {
		return false
	}
	if centreDistance(a, b) > 0.25*math.Min(sa, sb) {
		return false
	}
	if r := a.Area() / b.Area(); r < 0.75 || r > 1/0.75 {
		return false
	}
	d := math.Mod(math.Abs(ta-tb), math.Pi)
	return math.Min(d, math.Pi-d) <= 15*math.Pi/180
}

// centreDistance is the distance between two quads' centres.
func centreDistance(a, b models.Quad) float64 {
	p, q := a.Center(), b.Center()
	return math.Hypot(p.X-q.X, p.Y-q.Y)
}

// quadAxes gives a quad's mean short side length and its long sides'
// direction (radians, modulo π).
func quadAxes(q models.Quad) (short, angle float64) {
	a, b := (sideLen(q, 0)+sideLen(q, 2))/2, (sideLen(q, 1)+sideLen(q, 3))/2
	i := 0
	if b > a {
		b, i = a, 1
	}
	p, r := q[i], q[i+1]
	return b, math.Mod(math.Atan2(r.Y-p.Y, r.X-p.X)+math.Pi, math.Pi)
}

// Change detection thresholds: a tile changed when more than tileShare of its
// pixels differ by more than pixelDelta grey levels after the blur.
const (
	tileMM     = 25.0
	pixelDelta = 28
	tileShare  = 0.04
)

func newStableFrame(gray gocv.Mat, v *view, cards []models.CardObservation) *stableFrame {
	s := &stableFrame{view: v, blur: gocv.NewMat(), cards: append([]models.CardObservation(nil), cards...)}
	steadyBlur(gray, &s.blur)
	return s
}

func (s *stableFrame) close() { s.blur.Close() }

// steadyBlur blurs a top-down grey image before it is compared:
// gocv.GaussianBlur(gray, dst, image.Pt(5, 5), 0, 0, gocv.BorderReplicate),
// by the own blur where it can (grey images: the same pixels, see blur).
func steadyBlur(gray gocv.Mat, dst *gocv.Mat) {
	if blur(gray, dst) != nil {
		gocv.GaussianBlur(gray, dst, image.Pt(5, 5), 0, 0, gocv.BorderReplicate)
	}
}

// changed reports whether any tile of the new top-down grey image differs
// from the stable one.
func (s *stableFrame) changed(gray gocv.Mat) bool {
	return len(s.changedTiles(gray)) > 0
}

// changedTiles lists the tiles (in top-down pixels) that differ.
func (s *stableFrame) changedTiles(gray gocv.Mat) []image.Rectangle {
	blur := gocv.NewMat()
	defer blur.Close()
	steadyBlur(gray, &blur)
	diff := gocv.NewMat()
	defer diff.Close()
	gocv.AbsDiff(blur, s.blur, &diff)
	gocv.Threshold(diff, &diff, pixelDelta, 255, gocv.ThresholdBinary)
	tile := int(tileMM * s.view.pxPerMM)
	// Each band of tiles is summed down its columns in one call (255 per
	// changed pixel), and the sums are added up tile by tile here: a call
	// per tile cost more than the counting.
	sums := gocv.NewMat()
	defer sums.Close()
	var out []image.Rectangle
	for y := 0; y < diff.Rows(); y += tile {
		band := diff.Region(image.Rect(0, y, diff.Cols(), min(y+tile, diff.Rows())))
		gocv.Reduce(band, &sums, 0, gocv.ReduceSum, gocv.MatTypeCV32F) // exact: at most 255 times a tile's height
		band.Close()
		columns, err := sums.DataPtrFloat32()
		if err != nil || len(columns) != diff.Cols() {
			// Not expected from OpenCV; count as changed, so the frame is read.
			return []image.Rectangle{image.Rect(0, 0, diff.Cols(), diff.Rows())}
		}
		for x := 0; x < diff.Cols(); x += tile {
			r := image.Rect(x, y, min(x+tile, diff.Cols()), min(y+tile, diff.Rows()))
			n := 0
			for _, c := range columns[r.Min.X:r.Max.X] {
				n += int(c)
			}
			if float64(n/255) > tileShare*float64(r.Dx()*r.Dy()) {
				out = append(out, r)
			}
		}
	}
	return out
}
