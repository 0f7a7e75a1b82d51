package vision

import (
	"math"

	"github.com/tablecam/tablecam/models"
)

// A site found under cards is seen by what of it shows beside them. Where
// that is only the bare mat, no site lies there, however a face's grey
// pattern correlates with it: a placement whose ends lie on the mat's grid
// lines gets a site's frame from them (the layout every site shares), and
// a catalog that lacks the faces nearer what shows lets one face lead by
// chance.
const (
	// The cards on top are grown by this much before what shows is read:
	// their own rims and shadows are not the site's.
	bareCoverPadMM = 2.0
	// What shows must cover this much (after the inset) to be judged.
	bareLeastMM2 = 150.0
)

// showsOnlyMatBeside reports whether what the cards on top (onTop, top-down
// pixels of view v) leave showing of quad is the bare mat: flat in colour
// matInsideInsetMM in from its sides, as no card's face is, and that
// colour shows over much of the mat just around the quad (as matInside
// reads a quad with nothing on it).
func (a *Analyzer) showsOnlyMatBeside(quad models.Quad, v *view, onTop []models.Quad) bool {
	img, ok := a.matColourOf(v)
	if !ok {
		return false
	}
	s, mm := img.s, img.mm
	q := scaledQuad(quad, s)
	covers := make([]outline, 0, len(onTop))
	for _, o := range onTop {
		covers = append(covers, newOutline(grow(scaledQuad(o, s), bareCoverPadMM*mm)))
	}
	covered := func(p models.Point) bool {
		for _, o := range covers {
			if o.insideDistance(p) >= 0 {
				return true
			}
		}
		return false
	}
	// Every other pixel, in each direction, within a quad's box.
	pixels := func(box models.Quad, take func(p models.Point, c [3]float64)) {
		x0, y0, x1, y1 := quadBounds(box)
		for y := max(0, int(y0)); y <= min(img.rows-1, int(y1)); y += 2 {
			for x := max(0, int(x0)); x <= min(img.cols-1, int(x1)); x += 2 {
				p := models.Point{X: float64(x) + 0.5, Y: float64(y) + 0.5}
				if !covered(p) {
					take(p, img.opponents(x, y))
				}
			}
		}
	}
	inQuad := grow(q, -matInsideInsetMM*mm)
	in := newOutline(inQuad)
	var inside [3][]float64
	pixels(inQuad, func(p models.Point, c [3]float64) {
		if in.insideDistance(p) >= 0 {
			for k := range 3 {
				inside[k] = append(inside[k], c[k])
			}
		}
	})
	if float64(len(inside[0]))*4 < bareLeastMM2*mm*mm {
		return false
	}
	var median, spread [3]float64
	for c := range 3 {
		median[c], spread[c] = medianSpread(inside[c])
	}
	if spread[0] > matFlatSpread || spread[1] > matFlatTint || spread[2] > matFlatTint {
		return false
	}
	outer := grow(q, matAroundToMM*mm)
	near, far := newOutline(grow(q, matAroundFromMM*mm)), newOutline(outer)
	var around [][3]float64
	pixels(outer, func(p models.Point, c [3]float64) {
		if near.insideDistance(p) < 0 && far.insideDistance(p) >= 0 {
			around = append(around, c)
		}
	})
	if len(around) < matAroundLeast*len(inside[0])/100 {
		return false
	}
	var tol [3]float64
	for c := range 3 {
		tol[c] = max(2*spread[c], matAlikeFrom)
	}
	alike := 0
	for _, c := range around {
		if math.Abs(c[0]-median[0]) <= tol[0] && math.Abs(c[1]-median[1]) <= tol[1] && math.Abs(c[2]-median[2]) <= tol[2] {
			alike++
		}
	}
	return alike*100 >= matAlikeShare*len(around)
}
