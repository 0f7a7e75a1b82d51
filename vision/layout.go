package vision

import (
	"image"
	"math"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// A card missing from the catalog has no face to fit, so nothing tells its
// turn the way a match does. But every card of a kind shares a layout:
// the title bar at the top, the art, the type line and the text box below
// it, printed upright on a unit and across a site. The catalog's faces
// show that layout (their mean, pixel by pixel: the art averages out), so
// an unknown card's turn, and whether a landscape one is a site or a unit
// turned sideways, is read by laying each way it may lie over what the
// camera shows of it and keeping the one that correlates best.
const (
	// layoutPxPerMM is the scale the layouts are compared at: a title bar
	// or a text box's frame is several millimetres across.
	layoutPxPerMM = 1.0
	// layoutMaxFaces bounds the catalog faces read (spread over the
	// catalog) for each kind's layout.
	layoutMaxFaces = 32
	// layoutMinFaces is the fewest faces of a kind whose mean is taken for
	// its layout: one face's art would pass for a layout.
	layoutMinFaces = 3
	// layoutMargin is how much better (in correlation) the best way must
	// fit than the best other for the layout to decide.
	layoutMargin = 0.05
	// layoutFaceMin is the correlation below which no way fits: what shows
	// is no card's face. Face-up cards missing from the catalog correlate
	// at 0.1–0.6 (bundled stills, unseen 4242, half catalog: 4 in 425 below
	// 0.15); the backs of face-down piles beside the realm (altgen frames)
	// mostly below.
	layoutFaceMin = 0.15
)

// cardLayouts are the mean faces of the catalog's units (and other
// standard cards) and sites, upright, standardised (zero mean, unit norm),
// at layoutPxPerMM; nil for a kind with too few faces.
type cardLayouts struct {
	standard, site []float32
	sw, sh         int // a standard card's size (portrait) at layoutPxPerMM; a site's is sh × sw
}

// newCardLayouts reads the catalog's faces and averages them by kind.
func newCardLayouts(cat *models.Catalog, opts Options) *cardLayouts {
	sw := int(math.Round(models.CardShortMM * layoutPxPerMM))
	sh := int(math.Round(models.CardLongMM * layoutPxPerMM))
	l := &cardLayouts{sw: sw, sh: sh}
	byKind := map[models.CardKind][]*models.Card{}
	for _, c := range cat.Cards() {
		if k := kindOf(c); k != models.KindToken && c.Image != "" {
			byKind[k] = append(byKind[k], c)
		}
	}
	l.standard = meanFace(byKind[models.KindStandard], sw, sh, opts)
	l.site = meanFace(byKind[models.KindSite], sh, sw, opts)
	return l
}

// meanFace averages up to layoutMaxFaces of the cards' upright faces,
// spread over the list, at w × h, and standardises the mean; nil when
// fewer than layoutMinFaces could be read.
func meanFace(cards []*models.Card, w, h int, opts Options) []float32 {
	step := max(1, (len(cards)+layoutMaxFaces-1)/layoutMaxFaces)
	sum := make([]float64, w*h)
	n := 0
	small := gocv.NewMat()
	defer small.Close()
	for i := 0; i < len(cards); i += step {
		face, _, err := uprightFace(cards[i], opts)
		if err != nil {
			continue
		}
		gocv.Resize(face, &small, image.Pt(w, h), 0, 0, gocv.InterpolationArea)
		face.Close()
		px := small.ToBytes()
		if len(px) != w*h {
			continue
		}
		for k, v := range px {
			sum[k] += float64(v)
		}
		n++
	}
	if n < layoutMinFaces {
		return nil
	}
	return standardised(sum)
}

// standardised gives v less its mean, divided by its norm (all zeros when
// v is flat).
func standardised(v []float64) []float32 {
	mean := 0.0
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	norm := 0.0
	for _, x := range v {
		norm += (x - mean) * (x - mean)
	}
	out := make([]float32, len(v))
	if norm == 0 {
		return out
	}
	norm = math.Sqrt(norm)
	for i, x := range v {
		out[i] = float32((x - mean) / norm)
	}
	return out
}

// cardTurn is a way an unknown card may lie, and how well the layout of
// its kind fits it.
type cardTurn struct {
	kind models.CardKind
	rot  models.Rotation // clockwise turn of the face in the top-down image
	r    float64         // correlation with the kind's layout
}

// read gives the way an unknown card (its outline q in the top-down grey
// image, at pxPerMM) lies by its layout, with ok false when the layouts
// cannot tell: no layout for its shape (read false too), or two ways fit
// about as well. A
// portrait card is a unit, upright or upside down; a landscape one a site
// either way up or a unit turned either way.
func (l *cardLayouts) read(gray gocv.Mat, q models.Quad, pxPerMM float64) (best cardTurn, ok, read bool) {
	q = clockwiseFromTopLeft(q)
	wide := landscape(q)
	w, h := l.sw, l.sh
	if wide {
		w, h = l.sh, l.sw
	}
	seen, good := seenFace(gray, q, w, h, pxPerMM)
	if !good {
		return cardTurn{}, false, false
	}
	var turns []cardTurn
	if !wide && l.standard != nil {
		turns = append(turns,
			cardTurn{models.KindStandard, 0, correlate(seen, w, h, l.standard, 0)},
			cardTurn{models.KindStandard, 180, correlate(seen, w, h, l.standard, 180)})
	}
	if wide && l.site != nil {
		turns = append(turns,
			cardTurn{models.KindSite, 0, correlate(seen, w, h, l.site, 0)},
			cardTurn{models.KindSite, 180, correlate(seen, w, h, l.site, 180)})
	}
	if wide && l.standard != nil {
		turns = append(turns,
			cardTurn{models.KindStandard, 90, correlate(seen, w, h, l.standard, 90)},
			cardTurn{models.KindStandard, 270, correlate(seen, w, h, l.standard, 270)})
	}
	if len(turns) < 2 {
		return cardTurn{}, false, false
	}
	best, second := turns[0], cardTurn{r: math.Inf(-1)}
	for _, t := range turns[1:] {
		switch {
		case t.r > best.r:
			best, second = t, best
		case t.r > second.r:
			second = t
		}
	}
	return best, best.r-second.r >= layoutMargin, true
}

// seenFace gives what the camera shows inside q (clockwise from the
// top-left, top-down pixels at pxPerMM), w × h at layoutPxPerMM, as seen,
// standardised; ok is false when it is flat or cannot be warped.
func seenFace(gray gocv.Mat, q models.Quad, w, h int, pxPerMM float64) ([]float32, bool) {
	s := pxPerMM / layoutPxPerMM
	fw, fh := float32(float64(w)*s), float32(float64(h)*s)
	src := gocv.NewPoint2fVectorFromPoints([]gocv.Point2f{{X: float32(q[0].X), Y: float32(q[0].Y)}, {X: float32(q[1].X), Y: float32(q[1].Y)}, {X: float32(q[2].X), Y: float32(q[2].Y)}, {X: float32(q[3].X), Y: float32(q[3].Y)}})
	defer src.Close()
	dst := gocv.NewPoint2fVectorFromPoints([]gocv.Point2f{{X: 0, Y: 0}, {X: fw, Y: 0}, {X: fw, Y: fh}, {X: 0, Y: fh}})
	defer dst.Close()
	m := gocv.GetPerspectiveTransform2f(src, dst)
	defer m.Close()
	full, small := gocv.NewMat(), gocv.NewMat()
	defer full.Close()
	defer small.Close()
	gocv.WarpPerspective(gray, &full, m, image.Pt(int(math.Round(float64(fw))), int(math.Round(float64(fh)))))
	if full.Empty() {
		return nil, false
	}
	gocv.Resize(full, &small, image.Pt(w, h), 0, 0, gocv.InterpolationArea)
	px := small.ToBytes()
	if len(px) != w*h {
		return nil, false
	}
	v := make([]float64, len(px))
	flat := true
	for i, b := range px {
		v[i] = float64(b)
		if b != px[0] {
			flat = false
		}
	}
	if flat {
		return nil, false
	}
	return standardised(v), true
}

// correlate gives the correlation of the seen face (w × h, standardised)
// with a layout (standardised, upright: a landscape one for a site) turned
// clockwise by rot: the layout's pixel (x, y) lies where the turn takes it.
func correlate(seen []float32, w, h int, layout []float32, rot models.Rotation) float64 {
	sum := 0.0
	switch rot {
	case 0:
		for i, v := range seen {
			sum += float64(v * layout[i])
		}
	case 180:
		n := len(seen)
		for i, v := range seen {
			sum += float64(v * layout[n-1-i])
		}
	case 90, 270:
		// The layout is upright portrait, h wide and w tall (the seen
		// face is landscape). Turned clockwise a quarter, its pixel (x,
		// y) lies at (w-1-y, x); turned three quarters, at (y, h-1-x).
		lw := h
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				var lx, ly int
				if rot == 90 {
					lx, ly = y, w-1-x
				} else {
					lx, ly = h-1-y, x
				}
				sum += float64(seen[y*w+x] * layout[ly*lw+lx])
			}
		}
	}
	return sum
}

// turned gives an unknown card as its layout reads it (see
// cardLayouts.read): its turn, and for a landscape card whether it is a
// site or a unit turned sideways. When the layouts cannot tell, it is left
// as found: turned by the half of the realm it lies in, and a landscape
// one taken for a unit when it lies across another card. A token keeps
// that guess: its layout is another's.
//
// inPlay is false for a card off the grid that shows no card's face (no
// way of lying fits the layouts by layoutFaceMin): a face-down pile
// beside the realm, a deck or a discard pile, is no card in play, and a
// judge wants the realm's cards, not the piles' backs.
func (a *Analyzer) turned(gray gocv.Mat, v *view, u unknownCard) (_ unknownCard, inPlay bool) {
	if u.kind == models.KindToken {
		return u, true
	}
	if a.layouts == nil {
		a.layouts = cardLayoutsFor(a.cat, a.opts, a.index) // newCardLayouts's, cached (layout_cache.go)
	}
	t, ok, read := a.layouts.read(gray, u.quad, v.pxPerMM)
	if _, onGrid := v.cellAt(u.quad.Center()); read && !onGrid && t.r < layoutFaceMin {
		return u, false
	}
	if !ok {
		return u, true
	}
	u.kind, u.rot, u.turned = t.kind, t.rot, true
	u.tapped = t.rot.Tapped()
	return u, true
}
