package pipeline

import (
	"math"
	"strconv"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/tracker"
)

// coverWatch checks the cards the tracker holds hidden under others. A
// card put on another seldom covers it whole: a strip of the card beneath
// still shows beside it. The watch keeps, for each unit vision reads, what
// it looked like in the change gate's small grey picture of the realm; once
// the unit is hidden, the part of it that no card covers now is compared
// with that print on each clear frame. Still alike, the card is there; quite
// different, it was taken away from under the other. A card covered whole
// gives no sight and stays hidden, since nothing shows that it left.
type coverWatch struct {
	cal    *calibration.Calibration
	width  int // of the small picture
	height float64
	prints map[string]cardPrint
}

// cardPrint is a unit as the small picture last showed it, clear of hands
// and of every other card.
type cardPrint struct {
	pixels []int32 // indices into the small picture
	grey   []uint8
	area   int     // pixels inside the card's outline, shown or not
	mean   float64 // the whole picture's mean grey, for changes of light
	// cx, cy is the outline's centre, in small-picture pixels: what a card
	// turns about as it is tapped or untapped.
	cx, cy float64
	tapped bool // as the card lay
	// inner is the outline less a margin of coverTurnInsetPx: the pixels
	// along a card's sides, blurred with what lay beside it, say little of
	// it turned.
	inner smallQuad
}

// coverTurnInsetPx is the margin, in small-picture pixels, along a card's
// outline that is left out when its print is compared turned.
const coverTurnInsetPx = 2.0

// Cover tuning. A hidden card is judged only when at least coverMinShown of
// its outline shows (and coverMinPixels pixels); it is gone when the part
// that shows differs from its print by more than coverGoneDelta grey levels
// (the median over its pixels), and there when by less than coverThereDelta.
// Outlines of the cards seen now are grown by coverMarginMM, so that their
// edges and shadows do not count as the card beneath.
const (
	coverMinShown   = 0.08
	coverMinPixels  = 40
	coverGoneDelta  = 35
	coverThereDelta = 15
	coverMarginMM   = 3.0
	// coverMinConfidence is the identification confidence a card needs for
	// its print to be taken: a doubtful read may have a doubtful outline.
	// It is the tracker's MinConfidence by default: a card read well
	// enough to be named is watched when vision loses it.
	coverMinConfidence = 0.5
	// An outline whose area is off by more than coverAreaSlack of its
	// card's (cardAreaMM2) is not the card's.
	coverAreaSlack = 0.3
)

func newCoverWatch(cal *calibration.Calibration, smallWidth int) *coverWatch {
	g := cal.Geometry
	if g.CellWidthMM <= 0 || g.CellHeightMM <= 0 {
		g = models.DefaultRealm()
	}
	return &coverWatch{cal: cal, width: smallWidth, height: g.HeightMM(), prints: map[string]cardPrint{}}
}

func printKey(cell models.Cell, card string, owner models.Player) string {
	return cell.String() + "|" + models.NormalizeName(card) + "|" + strconv.Itoa(int(owner))
}

// smallQuad is a quad in small-picture pixels.
type smallQuad [4][2]float64

// toSmall maps a quad in image pixels to the small picture, grown by
// grow pixels about its centre.
func (w *coverWatch) toSmall(q models.Quad, grow float64) smallQuad {
	var s smallQuad
	var cx, cy float64
	for i, p := range q {
		r := w.cal.ImageToRealm(p)
		s[i] = [2]float64{(r.X + gateMarginMM) / gateMM, (w.height + gateMarginMM - r.Y) / gateMM}
		cx += s[i][0] / 4
		cy += s[i][1] / 4
	}
	if grow > 0 {
		for i := range s {
			dx, dy := s[i][0]-cx, s[i][1]-cy
			if d := math.Hypot(dx, dy); d > 0 {
				s[i][0] += dx / d * grow * math.Sqrt2
				s[i][1] += dy / d * grow * math.Sqrt2
			}
		}
	}
	return s
}

func (q smallQuad) bounds(w, h int) (x0, y0, x1, y1 int) {
	fx0, fy0, fx1, fy1 := q[0][0], q[0][1], q[0][0], q[0][1]
	for _, p := range q[1:] {
		fx0, fx1 = math.Min(fx0, p[0]), math.Max(fx1, p[0])
		fy0, fy1 = math.Min(fy0, p[1]), math.Max(fy1, p[1])
	}
	x0, y0 = max(0, int(math.Floor(fx0))), max(0, int(math.Floor(fy0)))
	x1, y1 = min(w-1, int(math.Ceil(fx1))), min(h-1, int(math.Ceil(fy1)))
	return x0, y0, x1, y1
}

// contains reports whether the pixel centre (x, y) lies inside the convex quad.
func (q smallQuad) contains(x, y float64) bool {
	sign := 0.0
	for i := range q {
		a, b := q[i], q[(i+1)%4]
		c := (b[0]-a[0])*(y-a[1]) - (b[1]-a[1])*(x-a[0])
		if c == 0 {
			continue
		}
		if sign == 0 {
			sign = c
		} else if c*sign < 0 {
			return false
		}
	}
	return true
}

func insideAny(qs []smallQuad, except int, x, y float64) bool {
	for j, o := range qs {
		if j != except && o.contains(x, y) {
			return true
		}
	}
	return false
}

func meanGrey(pix []uint8) float64 {
	if len(pix) == 0 {
		return 0
	}
	sum := 0
	for _, v := range pix {
		sum += int(v)
	}
	return float64(sum) / float64(len(pix))
}

// onTop gives the outlines, grown by coverMarginMM, of the cards of a frame
// that may lie on a unit: every card but sites, which lie under units. index
// gives each card's place among them (-1 for a site).
func (w *coverWatch) onTop(obs models.FrameObservation) (outlines []smallQuad, index []int) {
	index = make([]int, len(obs.Cards))
	for i, c := range obs.Cards {
		index[i] = -1
		if c.Type != nil && models.CardType(*c.Type) == models.Site || c.Type == nil && c.Kind == models.KindSite {
			continue
		}
		index[i] = len(outlines)
		outlines = append(outlines, w.toSmall(c.Quad, coverMarginMM/gateMM))
	}
	return outlines, index
}

// cardAreaMM2 is the area of a card of the given kind: 63 × 88 mm, or
// 44 × 63 mm for a token.
func cardAreaMM2(k models.CardKind) float64 {
	if k == models.KindToken {
		return models.TokenShortMM * models.TokenLongMM
	}
	return models.CardShortMM * models.CardLongMM
}

// remember takes the prints of the units and sites of a frame vision read
// clear of hands; pix is the frame's small picture. (A site's print leaves
// out the units on it.)
func (w *coverWatch) remember(obs models.FrameObservation, pix []uint8) {
	if len(pix) == 0 || w.width <= 0 {
		return
	}
	h := len(pix) / w.width
	outlines, index := w.onTop(obs)
	mean := meanGrey(pix)
	for i, c := range obs.Cards {
		if !c.Identified() || c.Cell == nil || c.Type == nil || c.Confidence < coverMinConfidence {
			continue
		}
		if models.CardType(*c.Type) == models.Magic {
			continue
		}
		q := w.toSmall(c.Quad, 0)
		x0, y0, x1, y1 := q.bounds(w.width, h)
		p := cardPrint{mean: mean, tapped: c.Tapped}
		for _, c := range q {
			p.cx += c[0] / 4
			p.cy += c[1] / 4
		}
		for i, c := range q {
			dx, dy := c[0]-p.cx, c[1]-p.cy
			if d := math.Hypot(dx, dy); d > 0 {
				p.inner[i] = [2]float64{c[0] - dx/d*coverTurnInsetPx*math.Sqrt2, c[1] - dy/d*coverTurnInsetPx*math.Sqrt2}
			}
		}
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				fx, fy := float64(x)+0.5, float64(y)+0.5
				if !q.contains(fx, fy) {
					continue
				}
				p.area++
				// Where another card overlaps, either may be on top.
				if insideAny(outlines, index[i], fx, fy) {
					continue
				}
				p.pixels = append(p.pixels, int32(y*w.width+x))
				p.grey = append(p.grey, pix[y*w.width+x])
			}
		}
		if full := cardAreaMM2(c.Kind) / (gateMM * gateMM); math.Abs(float64(p.area)-full) > coverAreaSlack*full {
			continue
		}
		w.prints[printKey(*c.Cell, *c.Name, c.Owner)] = p
	}
}

// unread gives the cards of inSight (see tracker.InSight) that obs does not
// read under their name in their cell, one for each copy missing.
func unread(inSight []tracker.HiddenCard, obs models.FrameObservation) []tracker.HiddenCard {
	read := map[string]int{}
	for _, c := range obs.Cards {
		if c.Identified() && c.Cell != nil {
			read[printKey(*c.Cell, *c.Name, c.Owner)]++
		}
	}
	var out []tracker.HiddenCard
	for _, hc := range inSight {
		k := printKey(hc.Cell, hc.Card, hc.Owner)
		if read[k] > 0 {
			read[k]--
			continue
		}
		out = append(out, hc)
	}
	return out
}

// sights says, for each card given (hidden under another, or in sight but
// not read on this frame) that shows enough of itself on this clear frame,
// whether that part still looks as the card did.
func (w *coverWatch) sights(hidden []tracker.HiddenCard, obs models.FrameObservation, pix []uint8) []tracker.HiddenSight {
	if len(hidden) == 0 || len(pix) == 0 || w.width <= 0 {
		return nil
	}
	h := len(pix) / w.width
	outlines, _ := w.onTop(obs)
	now := meanGrey(pix)
	var out []tracker.HiddenSight
	for _, hc := range hidden {
		p, ok := w.prints[printKey(hc.Cell, hc.Card, hc.Owner)]
		if !ok || p.area == 0 {
			continue
		}
		scale := 1.0
		if p.mean > 0 {
			scale = now / p.mean
		}
		diff, ok := w.printDiff(p, pix, h, outlines, scale, 0)
		if !ok {
			continue
		}
		if diff >= coverThereDelta {
			// Its place looks otherwise: the card may have turned (tapped
			// or untapped, a quarter turn about its centre either way).
			turned := false
			for _, dir := range []float64{1, -1} {
				if d, ok := w.printDiff(p, pix, h, outlines, scale, dir); ok && d < coverThereDelta {
					turned = true
				}
			}
			if turned {
				out = append(out, tracker.HiddenSight{HiddenCard: hc, Shows: true, Tapped: !p.tapped})
				continue
			}
		}
		switch {
		case diff > coverGoneDelta:
			out = append(out, tracker.HiddenSight{HiddenCard: hc, Gone: true})
		case diff < coverThereDelta:
			out = append(out, tracker.HiddenSight{HiddenCard: hc, Shows: true, Tapped: p.tapped})
		}
	}
	return out
}

// printDiff gives the median difference, in grey levels, between the
// print p and the small picture pix (h rows), over the print's pixels that
// no outline (the cards read on the frame) covers now; ok is false when too
// little of it shows to tell (coverMinShown, coverMinPixels). The print's
// grey levels are scaled by scale, for a change of light. turn is 0 for
// the card as it lay, or ±1 for it turned a quarter turn about its centre
// one way or the other: each print pixel (but those along its outline, see
// cardPrint.inner) is then compared with the picture where the turn takes
// it. (The median: a shadow or a frayed edge along
// the card on top moves some pixels, not most.)
func (w *coverWatch) printDiff(p cardPrint, pix []uint8, h int, outlines []smallQuad, scale, turn float64) (int, bool) {
	var hist [256]int
	n := 0
	for k, i := range p.pixels {
		x, y := float64(int(i)%w.width)+0.5, float64(int(i)/w.width)+0.5
		if turn != 0 {
			if !p.inner.contains(x, y) {
				continue
			}
			x, y = p.cx-turn*(y-p.cy), p.cy+turn*(x-p.cx)
		}
		ix, iy := int(math.Floor(x)), int(math.Floor(y))
		if ix < 0 || iy < 0 || ix >= w.width || iy >= h || insideAny(outlines, -1, x, y) {
			continue
		}
		n++
		d := int(math.Abs(float64(pix[iy*w.width+ix])-scale*float64(p.grey[k])) + 0.5)
		hist[min(d, 255)]++
	}
	if n < coverMinPixels || float64(n) < coverMinShown*float64(p.area) {
		return 0, false
	}
	diff, count := 0, 0
	for ; diff < 255; diff++ {
		if count += hist[diff]; 2*count >= n {
			break
		}
	}
	return diff, true
}
