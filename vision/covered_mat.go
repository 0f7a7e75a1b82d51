package vision

import (
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
	return a.flatAsMatAround(quad, v, onTop, matReading{hiddenPadMM: bareCoverPadMM, hideInside: true, leastInsideMM2: bareLeastMM2})
}
