package vision

import (
	"math"

	"github.com/tablecam/tablecam/models"
)

// faceLookShown gives how well the look of face d.ref fits what shows in
// d's outline (top-down pixels, from the face's top-left clockwise) in the
// frame's colour top-down image, the cards over it (top-down outlines)
// left out: the partial correlation naming a partly covered card by its
// look reads (namePart), at the best of the outline moved by up to
// lookPartShift thumbnail pixels each way. ok is false when the face's
// kind is not compared by look or too little of the outline shows.
func (a *Analyzer) faceLookShown(d detection, v *view, over []models.Quad) (float64, bool) {
	x := a.index
	colour := a.images.small
	if x.looks == nil || colour.Empty() || v.size.X <= 0 {
		return 0, false
	}
	ki, face := x.looks.faceOf(x.refs, d.ref)
	if ki < 0 {
		return 0, false
	}
	k := &x.looks.kinds[ki]
	p, ok := readPartOutline(colour, float64(colour.Cols())/float64(v.size.X), k, [4]models.Point(d.quad), hiddenBy(over))
	if !ok {
		return 0, false
	}
	lv := &k.levels[0]
	n := lv.w * lv.h
	f := lv.faces[face*3*n : (face+1)*3*n]
	buf := make([]float32, n)
	best, any := -2.0, false
	for dy := -lookPartShift; dy <= lookPartShift; dy++ {
		for dx := -lookPartShift; dx <= lookPartShift; dx++ {
			px, vis := p.crop(k, dx, dy)
			mv := lv.newMaskedView(lv.vector(px, k.w, k.h), vis)
			if !mv.ok {
				continue
			}
			any = true
			best = math.Max(best, mv.score(f, n, buf))
		}
	}
	return best, any
}
