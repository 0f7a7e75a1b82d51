package calibration

import (
	"image"
	"math"
	"sort"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
)

// A mat whose grid is drawn in thin, faint lines shows them only where the
// cloth shows: cards lying over most of a line fill its profile and its
// ridge evidence with their art and edges, and the table beyond the mat
// (wood grain, a cloth's weave) with lines of its own, so that the realm's
// lattice reads no clearer than card rows or the table's grain. The
// mat's own colour says where to look: it is the commonest colour in the
// middle of the frame (the mat fills the view between the cards), and the
// grid's lines run over it, a few levels darker or lighter. Read over the
// cloth alone, a faint grid half under cards is a clear lattice again.
// detectOnCloth is the last resort of the realm search, for frames on
// which no lattice was found otherwise.

// Cloth search limits (lengths in pixels at the working width).
const (
	clothSampleStep = 4    // px between the pixels sampled for the cloth's colour
	clothBin        = 0.01 // chromaticity bin of the colour histogram
	minClothShare   = 0.12 // least share of the frame's middle the cloth's colour must cover
	clothClose      = 9    // px: closing that fills the grid's thin lines into the cloth
	clothKeepOff    = 13   // px: erosion that keeps a line's flanks off the cards' edges
	minLineOnCloth  = 0.25 // least share of a grid line's samples over cloth for it to count
	minLinesOnCloth = 3    // least lines of each direction over cloth
)

// The lines over cloth that detectOnCloth wants of a lattice it accepts:
// at most maxLinesOffCloth of the realm's lines show over the cloth for
// less than minLineOnCloth of their length, and every line for at least
// minLeastOnCloth. Run on every frame of the independent renderer's two
// dev sets and a 640×360 set (140 frames), the right lattices with one
// such line showed it for 0.14–0.24; the wrong lattices scoring
// minClothRidgeScore or more had one to five, and those with one showed
// it for less than 0.01. A wrong lattice with none scored 0.82.
const (
	maxLinesOffCloth = 1
	minLeastOnCloth  = 0.1
)

// minClothRidgeScore is the lowest clothRidgeScore of a lattice that
// detectOnCloth accepts. On the 140 frames above, the lattices accepted
// scored 1.1–1.5 and lay within 0.51% of the realm's width; the wrong
// lattices whose lines all show over the cloth scored 0.82 at most.
const minClothRidgeScore = 1.0

// clothMap says which working-image pixels show the mat's bare cloth
// (the grid's lines included), far enough from anything else that a line
// response read there reads cloth only.
type clothMap struct {
	w, h int
	on   []byte
}

// at says whether working point p is on the cloth.
func (c clothMap) at(p models.Point) bool {
	x, y := int(math.Round(p.X)), int(math.Round(p.Y))
	return x >= 0 && y >= 0 && x < c.w && y < c.h && c.on[y*c.w+x] != 0
}

// frameCloth is the commonest colour of the frame's middle (its central
// 70% either way), read as chromaticity over a histogram; ok is false when
// no colour covers minClothShare of it.
func frameCloth(col colourFrame, w, hgt int) (clothColour, bool) {
	const bins = int(1/clothBin) + 1
	hist := make([]int, bins*bins)
	var samples []rgbSample
	for y := int(0.15 * float64(hgt)); y < int(0.85*float64(hgt)); y += clothSampleStep {
		for x := int(0.15 * float64(w)); x < int(0.85*float64(w)); x += clothSampleStep {
			s, ok := col.at(models.Point{X: float64(x), Y: float64(y)})
			if !ok {
				continue
			}
			samples = append(samples, s)
			hist[int(s.b/clothBin)*bins+int(s.g/clothBin)]++
		}
	}
	if len(samples) < 100 {
		return clothColour{}, false
	}
	bestN, bi, bj := 0, 0, 0
	for i := 1; i < bins-1; i++ {
		for j := 1; j < bins-1; j++ {
			n := 0
			for di := -1; di <= 1; di++ {
				for dj := -1; dj <= 1; dj++ {
					n += hist[(i+di)*bins+j+dj]
				}
			}
			if n > bestN {
				bestN, bi, bj = n, i, j
			}
		}
	}
	if float64(bestN) < minClothShare*float64(len(samples)) {
		return clothColour{}, false
	}
	cb, cg := (float64(bi)+0.5)*clothBin, (float64(bj)+0.5)*clothBin
	var near []rgbSample
	for _, s := range samples {
		if math.Abs(s.b-cb) <= 1.5*clothBin && math.Abs(s.g-cg) <= 1.5*clothBin {
			near = append(near, s)
		}
	}
	return clothColourOf(near), true
}

// newClothMap marks the working pixels of cloth colour cc, with the
// grid's thin lines (of another brightness) closed into the cloth, and
// keeps clothKeepOff px off everything else.
func newClothMap(col colourFrame, cc clothColour, w, hgt int) (clothMap, gocv.Mat) {
	raw := gocv.NewMatWithSize(hgt, w, gocv.MatTypeCV8U)
	for y := 0; y < hgt; y++ {
		for x := 0; x < w; x++ {
			if s, ok := col.at(models.Point{X: float64(x), Y: float64(y)}); ok && cc.isCloth(s) {
				raw.SetUCharAt(y, x, 255)
			}
		}
	}
	k := gocv.GetStructuringElement(gocv.MorphRect, image.Pt(clothClose, clothClose))
	gocv.MorphologyEx(raw, &raw, gocv.MorphClose, k)
	k.Close()
	k = gocv.GetStructuringElement(gocv.MorphRect, image.Pt(clothKeepOff, clothKeepOff))
	gocv.Erode(raw, &raw, k)
	k.Close()
	on, _ := raw.DataPtrUint8()
	return clothMap{w: w, h: hgt, on: append([]byte(nil), on...)}, raw
}

// clothLineEvidence is lineEvidence over the samples on the cloth alone;
// shown is the share of the line's samples inside the frame that are.
func (m *ridgeMap) clothLineEvidence(cm clothMap, h homography, gl gridLine, step float64, light bool) (e, shown float64) {
	return m.clothLineEvidenceClip(cm, h, gl, step, ridgeClip, light)
}

// clothLineEvidenceClip is clothLineEvidence with samples clipped to ±clip.
func (m *ridgeMap) clothLineEvidenceClip(cm clothMap, h homography, gl gridLine, step, clip float64, light bool) (e, shown float64) {
	var sum float64
	n, all := 0, 0
	gl.sample(h, step, func(p models.Point, nx, ny float64) {
		r, ok := m.response(p, nx, ny, light)
		if !ok {
			return
		}
		all++
		if !cm.at(p) {
			return
		}
		sum += math.Max(-clip, math.Min(clip, r))
		n++
	})
	if n == 0 {
		return 0, 0
	}
	return sum / float64(n), float64(n) / float64(all)
}

// clothRidgeScore is ridgeScore read over the cloth alone (see
// clothLineEvidence), for the better line colour: the mean evidence of the
// realm's lines that show on the cloth for minLineOnCloth of their length
// (each capped at ridgeLineCap), less half the strongest line one cell
// outside and half the lines through the cells' middles, read the same
// way. It is -Inf when fewer than minLinesOnCloth lines of either
// direction show.
func (m *ridgeMap) clothRidgeScore(cm clothMap, h homography, g models.RealmGeometry) float64 {
	return math.Max(m.clothPolarScore(cm, h, g, false), m.clothPolarScore(cm, h, g, true))
}

// clothPolarScore is clothRidgeScore for dark or for light lines.
func (m *ridgeMap) clothPolarScore(cm clothMap, h homography, g models.RealmGeometry, light bool) float64 {
	return m.clothPolarEvidence(cm, h, g, ridgeClip, ridgeLineCap, light)
}

// clothPolarEvidence is clothPolarScore with samples clipped to ±clip and
// line means capped at lineCap.
func (m *ridgeMap) clothPolarEvidence(cm clothMap, h homography, g models.RealmGeometry, clip, lineCap float64, light bool) float64 {
	const step = 6
	var hit, total float64
	var shownCols, shownRows int
	for i, gl := range innerLines(g) {
		e, shown := m.clothLineEvidenceClip(cm, h, gl, step, clip, light)
		if shown < minLineOnCloth {
			continue
		}
		if i <= models.Columns {
			shownCols++
		} else {
			shownRows++
		}
		l := math.Hypot(gl.p1.X-gl.p0.X, gl.p1.Y-gl.p0.Y)
		hit += math.Min(lineCap, e) * l
		total += l
	}
	if shownCols < minLinesOnCloth || shownRows < minLinesOnCloth {
		return math.Inf(-1)
	}
	maxOut := 0.0
	for _, gl := range outerLines(g) {
		if e, shown := m.clothLineEvidenceClip(cm, h, gl, step, clip, light); shown >= minLineOnCloth {
			maxOut = math.Max(maxOut, math.Min(lineCap, e))
		}
	}
	mid := midLineEvidence(g, lineCap, func(gl gridLine) (float64, bool) {
		e, shown := m.clothLineEvidenceClip(cm, h, gl, step, clip, light)
		return e, shown >= minLineOnCloth
	})
	return hit/total - 0.5*maxOut - 0.5*mid
}

// detectOnCloth reads the realm's lattice off line profiles and ridge
// evidence taken over the mat's cloth alone (see frameCloth): the
// candidates of the profile search's vanishing points and of those lined
// up on the line response over the cloth (see vanishingPairsOver: the
// table's grain outweighs a dashed grid's lines over the whole frame),
// read on the cloth, the best few polished by climbing their corners,
// judged by clothRidgeScore. It returns the lattice at the working width (see
// workingGray), its score, and whether it believes it.
func detectOnCloth(gray gocv.Mat, rm *ridgeMap, col colourFrame, g models.RealmGeometry) (gridFit, bool) {
	w, hgt := gray.Cols(), gray.Rows()
	fw, fh := float64(w), float64(hgt)
	cc, ok := frameCloth(col, w, hgt)
	if !ok {
		return gridFit{}, false
	}
	cm, mask := newClothMap(col, cc, w, hgt)
	defer mask.Close()
	score := func(h homography) float64 { return rm.clothRidgeScore(cm, h, g) }
	var fits []gridFit
	for _, p := range vanishingPairsOver(gray, rm, nil, cm.at) {
		for _, h := range profileCandidatesWithin(gray, mask, p.a, p.b, g) {
			if !plausible(h, g, fw, fh) || !insideFrame(h, g, fw, fh) || cameraInconsistency(h, fw, fh) > maxPinholeInconsistency {
				continue
			}
			if s := score(h); !math.IsInf(s, -1) {
				fits = append(fits, gridFit{h: h, score: s})
			}
		}
	}
	if len(fits) == 0 {
		return gridFit{}, false
	}
	sort.Slice(fits, func(i, j int) bool { return fits[i].score > fits[j].score })
	best := gridFit{score: math.Inf(-1)}
	for _, f := range fits[:min(len(fits), 3)] {
		h, _ := climbCorners(score, f.h, g, fw, fh, []float64{8, 4, 2, 1})
		h, s := climbSides(score, h, g, fw, fh, []float64{8, 4, 2, 1})
		if s > best.score {
			best = gridFit{h: h, score: s}
		}
	}
	best.h, best.score = scanCorners(score, best.h, g, fw, fh, 6)
	// Polished on the uncapped evidence, which keeps rising as the
	// lattice settles on the lines' centres (as detectFaint's is).
	light := rm.clothPolarScore(cm, best.h, g, true) > rm.clothPolarScore(cm, best.h, g, false)
	fine, _ := climbCorners(func(h homography) float64 { return rm.clothPolarEvidence(cm, h, g, 40, math.Inf(1), light) }, best.h, g, fw, fh, []float64{1, 0.5, 0.25})
	if s := score(fine); s >= best.score-0.05 {
		best = gridFit{h: fine, score: math.Max(best.score, s)}
	}
	if best.score < minClothRidgeScore || !insideFrame(best.h, g, fw, fh) || cameraInconsistency(best.h, fw, fh) > maxPinholeInconsistency {
		return best, false
	}
	// A lattice read off part of the grid, card rows or the mat's margin
	// has lines that run under cards or off the mat all along; the
	// realm's lines show between the cards.
	if hidden, least := rm.linesOffCloth(cm, best.h, g); hidden > maxLinesOffCloth || least < minLeastOnCloth {
		return best, false
	}
	return best, true
}

// linesOffCloth counts the realm's lines under lattice h that show over
// the cloth for less than minLineOnCloth of their length, for the line
// colour h reads better, and gives the least share shown.
func (m *ridgeMap) linesOffCloth(cm clothMap, h homography, g models.RealmGeometry) (int, float64) {
	light := m.clothPolarScore(cm, h, g, true) > m.clothPolarScore(cm, h, g, false)
	n, least := 0, 1.0
	for _, gl := range innerLines(g) {
		_, shown := m.clothLineEvidence(cm, h, gl, 6, light)
		if shown < minLineOnCloth {
			n++
		}
		least = math.Min(least, shown)
	}
	return n, least
}

// detectOnClothFrame is detectOnCloth on a camera frame: the lattice in
// frame pixels and its score (as detectGrid gives them). It refuses a
// lattice that the mat's edge runs through (see offTheMat), whose lines
// run over bare cloth (see bareGridLines), or that lies on a checked
// cloth (see onCheckedCloth).
func detectOnClothFrame(frame gocv.Mat, g models.RealmGeometry) (homography, float64, bool) {
	gray, scale := workingGray(frame)
	defer gray.Close()
	col, ok := newColourFrame(frame, scale)
	if !ok {
		return homography{}, 0, false
	}
	rm, err := newRidgeMap(gray)
	if err != nil {
		return homography{}, 0, false
	}
	rm.colour = &col
	f, ok := detectOnCloth(gray, rm, col, g)
	if !ok {
		return homography{}, 0, false
	}
	if hs, ok := offTheMat(rm, f.h, g); !ok || hs != f.h || bareGridLines(rm, col, f.h, g) || rm.onCheckedCloth(f.h, g) {
		return homography{}, 0, false
	}
	return toFrame(f.h, scale), math.Min(1, f.score/ridgeLineCap), true
}
