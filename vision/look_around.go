package vision

import (
	"math"
	"sort"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// Naming a card whose outline was found off its place. The search for
// cards stacked on others (outline_stack.go) builds an outline from what
// edges it finds around a cluster of keypoints; on a face with little art
// (a poster face: flat shapes, a gradient) it may find the card's outline
// a centimetre off, or the card's long side across instead of down, and
// the card's look, read in that outline, names no face (a poster site
// 11 mm off correlated 0.33 with its own face, 0.91 in its place). So an
// outline whose look names nothing is searched around: card-sized places
// in both turns, shifted up to aroundMM from the outline's centre along its
// sides by aroundStepMM, are ranked by how well they show the layout every
// face of their kind shares (its border and name band: lookLevel's
// layoutScore, which favours no face), and the best aroundTries of them,
// at least aroundApartMM apart, are named by their look as any outline is
// (nameByLook: the same score and lead over every other name, and the
// colours of what shows); only the best place is also aligned (the look's
// search for a better fit, most of a try's cost), the others are named as
// they are. A card the catalog lacks correlates with no face
// wherever it is placed, and stays unknown.
const (
	aroundMM      = 12.0
	aroundStepMM  = 4.0
	aroundTries   = 3
	aroundApartMM = 6.0
)

// aroundPlace is a card-sized place searched about an outline and how well
// it shows its kind's layout.
type aroundPlace struct {
	quad  models.Quad
	score float64
}

// nameAround names the card whose outline quad (top-down pixels, clockwise
// from its top-left) nameByLook named nothing in, by its look at the places
// about the outline that show a card's layout best; onTop are the cards
// found so far, which a place named must not lie on (its centre in one of
// them: that card is named already). ok is false when no place is named.
// Given the frame's keypoints (keys), a near look they bear out names a
// place too (see lookNearScore).
func (a *Analyzer) nameAround(quad models.Quad, v *view, onTop []models.Quad, keys *features) (detection, bool) {
	colour := a.images.small
	if colour.Empty() || v.size.X <= 0 || a.index.looks == nil {
		return detection{}, false
	}
	scale := float64(colour.Cols()) / float64(v.size.X)
	alignFrom := lookAlignFrom
	for _, p := range a.index.looks.placesAround(colour, scale, quad, v.pxPerMM) {
		if centreInAny(p.quad, onTop) {
			continue
		}
		d, ok := a.nameByLookBorneFrom(p.quad, v, onTop, alignFrom, keys)
		alignFrom = math.Inf(1)
		if ok && !centreInAny(d.quad, onTop) {
			return d, true
		}
	}
	return detection{}, false
}

// centreInAny reports whether q's centre lies inside any of quads.
func centreInAny(q models.Quad, quads []models.Quad) bool {
	c := q.Center()
	for _, o := range quads {
		if inside(c, o) {
			return true
		}
	}
	return false
}

// placesAround gives the aroundTries card-sized places about an outline
// (see aroundMM) that show their kind's layout best, best first, each at
// least aroundApartMM from those before it; none when the outline is
// degenerate or no kind of a card's size is compared by look. The square
// about the outline that holds all the places is warped once, at the
// thumbnails' scale and along the outline's sides, and each place is read
// out of it: aroundStepMM is two thumbnail pixels (a warp for each place
// took ten times as long).
func (x *lookIndex) placesAround(colour gocv.Mat, scale float64, quad models.Quad, pxPerMM float64) []aroundPlace {
	c := quad.Center()
	ux, uy := quad[1].X-quad[0].X, quad[1].Y-quad[0].Y
	l := math.Hypot(ux, uy)
	if l < 1 || pxPerMM <= 0 {
		return nil
	}
	ux, uy = ux/l, uy/l
	vx, vy := -uy, ux // a quarter turn on, down the outline (clockwise in the image)
	var kinds []*lookKind
	for ki := range x.kinds {
		if fw, fh := faceSizeMM(x.kinds[ki].kind); math.Max(fw, fh) == models.CardLongMM {
			kinds = append(kinds, &x.kinds[ki])
		}
	}
	if len(kinds) == 0 {
		return nil
	}
	steps := int(math.Round(aroundMM / aroundStepMM))
	stepPx := int(math.Round(aroundStepMM * lookPxPerMM))
	long := 0
	for _, k := range kinds {
		long = max(long, k.w, k.h)
	}
	n := long + 2*steps*stepPx
	toPx := pxPerMM / lookPxPerMM // top-down pixels per thumbnail pixel
	half := float64(n) / 2 * toPx
	var win [4]models.Point
	for i, s := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
		win[i] = models.Point{X: c.X + half*(s[0]*ux+s[1]*vx), Y: c.Y + half*(s[0]*uy+s[1]*vy)}
	}
	px, ok := warpLook(colour, scale, win, n, n)
	if !ok {
		return nil
	}
	var places []aroundPlace
	vecs := make([][]float32, len(kinds))
	for ki, k := range kinds {
		vecs[ki] = make([]float32, 3*k.levels[0].w*k.levels[0].h)
	}
	for _, across := range [2]float64{models.CardLongMM, models.CardShortMM} {
		down := models.CardLongMM + models.CardShortMM - across
		hw, hh := across*pxPerMM/2, down*pxPerMM/2
		for j := -steps; j <= steps; j++ {
			for i := -steps; i <= steps; i++ {
				best, found := math.Inf(-1), false
				for ki, k := range kinds {
					// The face upright fits the place as it is, or turned a quarter.
					rw, rh, turned := k.w, k.h, false
					if fw, _ := faceSizeMM(k.kind); fw != across {
						rw, rh, turned = k.h, k.w, true
					}
					x0, y0 := (n-rw)/2+i*stepPx, (n-rh)/2+j*stepPx
					if x0 < 0 || y0 < 0 || x0+rw > n || y0+rh > n {
						continue
					}
					lv := &k.levels[0]
					insideLook(vecs[ki], px, n, x0, y0, lv.w, lv.h, turned)
					// Upright and turned a half: the layout scores both at once.
					up, half := lv.layoutScores(vecs[ki])
					best, found = max(best, up, half), true
				}
				if !found {
					continue
				}
				dx, dy := float64(i*stepPx)*toPx, float64(j*stepPx)*toPx
				cx, cy := c.X+dx*ux+dy*vx, c.Y+dx*uy+dy*vy
				var q models.Quad
				for k, s := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
					q[k] = models.Point{X: cx + s[0]*hw*ux + s[1]*hh*vx, Y: cy + s[0]*hw*uy + s[1]*hh*vy}
				}
				places = append(places, aroundPlace{quad: q, score: best})
			}
		}
	}
	return placesApart(places, aroundTries, aroundApartMM*pxPerMM)
}

// insideLook reads the inside of the face-sized part of an n pixels wide
// thumbnail (BGR, row by row) whose top-left is (x0, y0) into v as the
// thumbnail's level vector reads it (lookLevel.vector, pixel for pixel:
// w × h inside pixels, channel after channel): the face upright, or, when
// turned, the part holds it a quarter turn anticlockwise (h + 2·lookBorder
// wide), and is read turned a quarter clockwise.
func insideLook(v []float32, px []byte, n, x0, y0, w, h int, turned bool) {
	m := w * h
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			// The part's pixel showing the face's inside pixel (x, y).
			sx, sy := x0+lookBorder+x, y0+lookBorder+y
			if turned {
				sx, sy = x0+lookBorder+y, y0+lookBorder+w-1-x
			}
			p := px[3*(sy*n+sx):]
			o := y*w + x
			v[o], v[m+o], v[2*m+o] = float32(p[0]), float32(p[1]), float32(p[2])
		}
	}
}

// placesApart gives the n places that show their layout best, best first,
// each at least apart (pixels) from the centres of those before it.
func placesApart(places []aroundPlace, n int, apart float64) []aroundPlace {
	sort.SliceStable(places, func(i, j int) bool { return places[i].score > places[j].score })
	var out []aroundPlace
	for _, p := range places {
		pc, near := p.quad.Center(), false
		for _, o := range out {
			oc := o.quad.Center()
			if math.Hypot(pc.X-oc.X, pc.Y-oc.Y) < apart {
				near = true
				break
			}
		}
		if !near {
			out = append(out, p)
			if len(out) == n {
				break
			}
		}
	}
	return out
}
