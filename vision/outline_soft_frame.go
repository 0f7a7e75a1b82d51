package vision

import (
	"math"
	"slices"

	"github.com/tablecam/tablecam/models"
)

// The soft search (outline_soft.go) finds a card only when the steep band
// about its sides makes a piece of its own. On a far, soft frame that often
// fails though the card shows plainly: cards that touch make one piece,
// the leftovers of a grid line the card lies beside join its piece to the
// lines', and a pale side fading into the mat leaves the piece open. Yet
// each of those cards' four sides steps along most of its length, as the
// side refinement measures it.
//
// So the soft search also looks for the cards' frames themselves: at every
// place of the shrunk image, a card-sized rectangle upright in the image
// (as the grid runs, the way most cards lie) is scored by the weakest of
// its four sides' mean rise across it (|dx| along its upright sides, |dy|
// along the others, over the middle softSideShare of each). Wherever that
// weakest side rises by softFrameStep or more, best first, the rectangle's
// sides are refined as a band's are, and a card is proposed when all four
// step. A card proposed so is kept only when named, by its keypoints or
// its look (as the faint cards of outline_three.go are): a rectangle of a
// card's size that steps on four sides may be a printed panel of the mat,
// a cell's inside, or part of a stack.

// softFrameStep is the least mean rise (as softBandSteps counts it, over a
// top-down pixel) along the weakest side of a card's frame: the lowest of
// the bands' levels, that marks a faint card's sides whole.
var softFrameStep = softBandSteps()[0]

// softFrameTries is the most frames tried a frame (each refined, and its
// outlines named), the strongest first: a far realm shows twenty cards or
// so, and the frames tried are kept a quarter of a card apart, so forty
// reach them all without naming every rectangle the mat's lines make.
const softFrameTries = 40

// softFrameVariants is the most outlines a frame is proposed with (see
// frameVariants), the likeliest first: each is named in turn, and on the
// independent sets c1 and c4 the fourth to ninth named no card the first
// three left, and each costs a look at the faces.
const softFrameVariants = 3

// softFrameSlackPx is how far (shrunk pixels) each side is looked for
// either way of where the card's nominal size puts it, when scored: a
// sleeve, or the step's spread, moves it by a pixel or so.
const softFrameSlackPx = 1

// softFrameCandidate is a card-sized rectangle upright in the shrunk image
// whose weakest side rises by score.
type softFrameCandidate struct {
	cx, cy, w, h int
	score        float64
}

// softFrameCandidates lists the card-sized rectangles upright in the
// shrunk image (w×h; dx and dy its absolute rises along rows and columns,
// row by row) whose weakest side rises by softFrameStep or more, for each
// of the shapes small (at the shrunk scale) lying either way, shape by
// shape and row by row.
func softFrameCandidates(dx, dy []byte, w, h int, small []outlineShape) []softFrameCandidate {
	// Prefix sums down each column of |dx| and along each row of |dy|,
	// so that a side's mean rise is two look-ups.
	col := make([]int32, (h+1)*w)
	for y := range h {
		for x := range w {
			col[(y+1)*w+x] = col[y*w+x] + int32(dx[y*w+x])
		}
	}
	row := make([]int32, h*(w+1))
	for y := range h {
		for x := range w {
			row[y*(w+1)+x+1] = row[y*(w+1)+x] + int32(dy[y*w+x])
		}
	}
	lim := float32(softFrameStep / softShrink) // a rise over a shrunk pixel
	m := softFrameSlackPx
	// upright[y0*w+x] is the sum of |dx| down column x over the middle of
	// an upright side from row y0, the best of the columns within m of x;
	// across[y*w+x0] the sum of |dy| along row y over the middle of a side
	// across from column x0, the best of the rows within m of y. A side's
	// mean rise is its sum over its length (a mean, as float32 divides it,
	// grows with the sum: the best sum is the best mean's).
	upright, across := make([]int32, w*h), make([]int32, w*h)
	sums := make([]int32, w*h)
	var cands []softFrameCandidate
	for _, sh := range small {
		s, l := int(math.Round(sh.short)), int(math.Round(sh.long))
		for _, size := range [][2]int{{s, l}, {l, s}} {
			fw, fh := size[0], size[1]
			if fw+2*m >= w || fh+2*m >= h {
				continue
			}
			// The middle softSideShare of each side.
			inX, inY := int(math.Round(float64(fw)*(1-softSideShare)/2)), int(math.Round(float64(fh)*(1-softSideShare)/2))
			for y0 := 0; y0+fh <= h; y0++ {
				a, b := (y0+inY)*w, (y0+fh-inY)*w
				sumRow := sums[y0*w : y0*w+w]
				top, bottom := col[a:a+w], col[b:b+w]
				for x := range sumRow {
					sumRow[x] = bottom[x] - top[x]
				}
				slidingMax(upright[y0*w:y0*w+w], sumRow, m)
			}
			for y := range h {
				r := row[y*(w+1) : y*(w+1)+w+1]
				sumRow := sums[y*w : y*w+w-fw+1]
				for x0 := range sumRow {
					sumRow[x0] = r[x0+fw-inX] - r[x0+inX]
				}
			}
			for y := range h {
				lo, hi := max(y-m, 0), min(y+m, h-1)
				maxOfRows(across[y*w:y*w+w-fw+1], sums[lo*w:(hi+1)*w], w)
			}
			nUp, nAcross := float32(fh-2*inY), float32(fw-2*inX)
			upLeast, acrossLeast := leastSumReaching(lim, nUp), leastSumReaching(lim, nAcross)
			for y0 := m; y0+fh+m < h; y0++ {
				for x0 := m; x0+fw+m < w; x0++ {
					left := upright[y0*w+x0]
					if left < upLeast {
						continue
					}
					right := upright[y0*w+x0+fw]
					if right < upLeast {
						continue
					}
					top := across[y0*w+x0]
					if top < acrossLeast {
						continue
					}
					bottom := across[(y0+fh)*w+x0]
					if bottom < acrossLeast {
						continue
					}
					weakest := min(float32(min(left, right))/nUp, float32(min(top, bottom))/nAcross)
					cands = append(cands, softFrameCandidate{x0 + fw/2, y0 + fh/2, fw, fh, float64(weakest)})
				}
			}
		}
	}
	return cands
}

// softFrames proposes the cards whose frames the rises show (see above),
// in the shrunk image: dx and dy are the absolute rises along rows and
// columns (w×h, row by row), img the blurred shrunk image the sides are
// refined on, work the camera pixel's spread over a shrunk pixel, shapes
// the card shapes at full scale and small at the shrunk one. What neither
// known nor found covers, nor touches (softApartMM, apart at full scale),
// is appended to out (full-scale top-down pixels), each card as the
// outlines it may have (frameVariants).
func softFrames(out [][]models.Quad, dx, dy []byte, w, h int, img greyImage, work float64, shapes, small []outlineShape, known []models.Quad, found []unknownCard, apart float64) [][]models.Quad {
	if len(dx) < w*h || len(dy) < w*h || w < 3 || h < 3 {
		return out
	}
	cands := softFrameCandidates(dx, dy, w, h, small)
	// Standard cards before tokens: a card's art or text box may score as
	// a token's frame.
	slices.SortFunc(cands, func(a, b softFrameCandidate) int {
		as, bs := a.w*a.h, b.w*b.h
		switch {
		case as > bs:
			return -1
		case as < bs:
			return 1
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return 0
	})
	var tried []softFrameCandidate
	for _, c := range cands {
		if len(tried) >= softFrameTries {
			break
		}
		near := false
		for _, t := range tried {
			if t.w == c.w && math.Abs(float64(t.cx-c.cx)) <= float64(min(c.w, c.h))/4 && math.Abs(float64(t.cy-c.cy)) <= float64(min(c.w, c.h))/4 {
				near = true
				break
			}
		}
		if near {
			continue
		}
		tried = append(tried, c)
		r, sides, ok := turnedFrame(img, c, work)
		if !ok {
			continue
		}
		var quads []models.Quad
		variants := frameVariants(r, sides)
		for _, q := range variants[:min(len(variants), softFrameVariants)] {
			u, ok := cardOutline(q.filled(1/softShrink), shapes, known, found)
			if ok && !touchesCards(u.quad, apart, known, found) {
				quads = append(quads, u.quad)
			}
		}
		if len(quads) > 0 {
			out = append(out, quads)
		}
	}
	return out
}

// leastSumReaching is the least sum of rises over n pixels whose mean, as
// float32 divides it, reaches lim (math.MaxInt32 when none does).
func leastSumReaching(lim, n float32) int32 {
	reaches := func(sum int32) bool { return float32(sum)/n >= lim }
	lo, hi := int32(0), int32(math.MaxInt32)
	if !reaches(hi) {
		return hi
	}
	for lo < hi { // the least sum reaching lies in [lo, hi]
		mid := lo + (hi-lo)/2
		if reaches(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// slidingMax sets dst[x] to the largest of src within m of x (as far as
// src reaches); dst and src have one length.
func slidingMax(dst, src []int32, m int) {
	n := len(src)
	dst = dst[:n]
	if m == 1 && n >= 2 { // the slack used: one pass
		dst[0] = max(src[0], src[1])
		for x := 1; x < n-1; x++ {
			dst[x] = max(src[x-1], src[x], src[x+1])
		}
		dst[n-1] = max(src[n-2], src[n-1])
		return
	}
	copy(dst, src)
	for d := 1; d <= m && d < n; d++ {
		maxInto(dst[d:], src)
		maxInto(dst, src[d:])
	}
}

// maxOfRows sets each dst[x] to the largest of rows' (rows of stride w,
// one after another) at x.
func maxOfRows(dst, rows []int32, w int) {
	if len(rows) == 3*w { // the slack used: one pass
		a, b, c := rows[:len(dst)], rows[w:w+len(dst)], rows[2*w:2*w+len(dst)]
		for x := range dst {
			dst[x] = max(a[x], b[x], c[x])
		}
		return
	}
	copy(dst, rows)
	for r := w; r < len(rows); r += w {
		maxInto(dst, rows[r:])
	}
}

// maxInto sets each dst[i] to the larger of it and src[i], over dst's
// length (src is at least as long).
func maxInto(dst, src []int32) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = max(dst[i], v)
	}
}

// softFrameTurns are the turns (degrees) a frame is tried at: a card lies
// a few degrees off the grid's lines, and the upright frame scored finds
// it, but its sides, refined only by moving them, would stay upright and
// the quad would be off by a few pixels at its corners, too much for its
// look to name it.
var softFrameTurns = [...]float64{-9, -4.5, 0, 4.5, 9}

// turnedFrame refines the frame candidate c at each of softFrameTurns (see
// refineSoftSides) and gives the one whose sides step most in all (the
// sum of their mean rises), with the rectangle it was refined from.
func turnedFrame(img greyImage, c softFrameCandidate, work float64) (from, refined softRect, ok bool) {
	best := 0.0
	for _, deg := range softFrameTurns {
		sin, cos := math.Sincos(deg * math.Pi / 180)
		r := softRect{cx: float64(c.cx), cy: float64(c.cy), ux: cos, uy: sin, vx: -sin, vy: cos, halfU: float64(c.w) / 2, halfV: float64(c.h) / 2}
		sides, found := refineSoftSides(img, r, work, softSideStep/softShrink)
		if !found {
			continue
		}
		if s := sidesRise(img, sides); s > best {
			best, from, refined, ok = s, r, sides, true
		}
	}
	return from, refined, ok
}

// sidesRise is the sum of the mean rises (absolute) across a rectangle's
// four sides, over the middle softSideShare of each.
func sidesRise(img greyImage, r softRect) float64 {
	sum := 0.0
	// Each side: its outward normal, its direction, its distance from the
	// centre and its half length.
	for _, s := range [4][6]float64{
		{r.ux, r.uy, r.vx, r.vy, r.halfU, r.halfV},
		{-r.ux, -r.uy, r.vx, r.vy, r.halfU, r.halfV},
		{r.vx, r.vy, r.ux, r.uy, r.halfV, r.halfU},
		{-r.vx, -r.vy, r.ux, r.uy, r.halfV, r.halfU},
	} {
		if rise, _, ok := sideStep(img, r.cx, r.cy, s[0], s[1], s[2], s[3], s[4], softSideShare*s[5], 0); ok {
			sum += math.Abs(rise)
		}
	}
	return sum
}

// frameVariants are the rectangles a frame candidate r (upright at the
// card's nominal size, turned as refined) may stand for, once its sides are
// refined (refined), the likeliest first. Along each axis whose refined
// sides lie as far apart as the card's (within sizeTolerance), they are
// the card's, or a little off it and the card is centred on them; along an axis
// where they lie closer, one of them is a step inside the card (a pale
// card's border fades into the mat, and its face's frame steps instead),
// and the card lies either way of it at its nominal length, or centred on
// the refined one.
func frameVariants(r, refined softRect) []softRect {
	type span struct{ at, half float64 } // along an axis, from r's centre
	axis := func(ux, uy, half, rhalf float64) []span {
		at := (refined.cx-r.cx)*ux + (refined.cy-r.cy)*uy
		if math.Abs(rhalf/half-1) <= sizeTolerance {
			return []span{{at, rhalf}, {at, half}}
		}
		return []span{{at, half}, {at + rhalf - half, half}, {at - rhalf + half, half}}
	}
	var out []softRect
	for _, u := range axis(refined.ux, refined.uy, r.halfU, refined.halfU) {
		for _, v := range axis(refined.vx, refined.vy, r.halfV, refined.halfV) {
			q := refined
			q.cx = r.cx + u.at*refined.ux + v.at*refined.vx
			q.cy = r.cy + u.at*refined.uy + v.at*refined.vy
			q.halfU, q.halfV = u.half, v.half
			out = append(out, q)
		}
	}
	return out
}
