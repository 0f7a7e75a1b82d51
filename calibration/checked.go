package calibration

import (
	"math"

	"github.com/tablecam/tablecam/models"
)

// A checked tablecloth (gingham) is a grid of drawn lines of its own, a
// few times finer than the realm's and reaching far beyond the mat: a
// lattice laid on it finds drawn lines under every one of its sides, as
// the realm's would. But the cloth's lines run through the lattice's
// cells as well, parallel to its sides, while the realm's cells hold no
// whole line: cards and art do not run straight from one border to the
// other.

// insideLineShare is the share of a lattice's own line evidence that the
// best lines parallel to its columns, and to its rows, running through
// every cell between 15% and 85% across it, must both reach for the
// lattice to lie on a checked cloth. Measured: on the right realms of the
// sample stills and three independent sets (188 frames) those lines show
// at most 0.12 of the evidence (0 on nearly all); on lattices laid on
// gingham, 1.0–1.04.
const insideLineShare = 0.5

// onCheckedCloth says whether the lines parallel to lattice h's columns
// through all its cells at one place across them, and likewise for its
// rows, show as drawn lines (of the lattice's colour) about as clearly as
// its own lines do: h lies on a cloth ruled in both directions.
func (m *ridgeMap) onCheckedCloth(h homography, g models.RealmGeometry) bool {
	light := m.lightGrid(h, g)
	w, hh := g.WidthMM(), g.HeightMM()
	columns := func(f float64, n int) []gridLine {
		lines := make([]gridLine, n)
		for i := range lines {
			x := (float64(i) + f) * g.CellWidthMM
			lines[i] = gridLine{models.Point{X: x, Y: 0}, models.Point{X: x, Y: hh}}
		}
		return lines
	}
	rows := func(f float64, n int) []gridLine {
		lines := make([]gridLine, n)
		for i := range lines {
			y := (float64(i) + f) * g.CellHeightMM
			lines[i] = gridLine{models.Point{X: 0, Y: y}, models.Point{X: w, Y: y}}
		}
		return lines
	}
	repeats := func(lines func(f float64, n int) []gridLine, cells int, across float64) bool {
		own := m.meanLineEvidence(h, lines(0, cells+1), light)
		if own <= 0 {
			return false
		}
		for f := 0.15; f <= 0.85; f += 1 / across {
			if m.meanLineEvidence(h, lines(f, cells), light) >= insideLineShare*own {
				return true
			}
		}
		return false
	}
	return repeats(columns, models.Columns, g.CellWidthMM) && repeats(rows, models.Rows, g.CellHeightMM)
}

// meanLineEvidence is the mean of lines' evidence under h (each capped at
// ridgeLineCap), over the lines that lie in the frame.
func (m *ridgeMap) meanLineEvidence(h homography, lines []gridLine, light bool) float64 {
	sum, n := 0.0, 0
	for _, gl := range lines {
		if e, k := m.lineEvidence(h, gl, segmentStep, ridgeClip, light); k > 0 {
			sum += math.Min(e, ridgeLineCap)
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}
