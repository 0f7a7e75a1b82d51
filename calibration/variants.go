package calibration

import (
	"math"

	"github.com/tablecam/tablecam/models"
)

// axisVariant re-reads the lattice along one axis: realm coordinate u (in
// cells) becomes scale·u + shift in the hypothesis' own cells.
type axisVariant struct{ scale, shift float64 }

// axisVariants are the usual aliases of a lattice fit along one direction of
// n lines: shifted by one or two whole cells (a card edge or the mat's own
// edge taken for the border), every other line of the true grid (twice the
// spacing: the grid's faint half was missed), or twice as many lines (half
// the spacing: the true lines are every other line of the hypothesis). The
// identity comes first.
func axisVariants(n int) []axisVariant {
	out := []axisVariant{{1, 0}, {1, -2}, {1, -1}, {1, 1}, {1, 2}}
	last := float64(n - 1)
	// Scale 2: true line k is hypothesis line 2k+shift; at least two true
	// lines must fall on hypothesis lines 0…n-1.
	for s := -2*last + 2; s <= last-2; s++ {
		out = append(out, axisVariant{2, s})
	}
	// Scale ½: true line k is hypothesis line k/2+shift; again two lines
	// at least in common.
	for s := 1 - last/2; s <= last-1; s += 0.5 {
		if s != 0 {
			out = append(out, axisVariant{0.5, s})
		}
	}
	return out
}

// variantMargin is how much better (in grid score) an alias must score than
// the lattice it replaces.
const variantMargin = 0.02

// bestVariant tries the aliases of lattice h along each direction in turn
// (scored on ref, the most sensitive edge map, where faint parts of the grid
// show) and returns the best plausible one, or h itself.
func bestVariant(ref *edgeMap, h homography, g models.RealmGeometry, w, hgt float64) homography {
	const step = 10
	cur := scoreGridStep(ref, h, g, step)
	for round := 0; round < 2; round++ {
		changed := false
		for axis := 0; axis < 2; axis++ {
			n, cell := models.Columns+1, g.CellWidthMM
			if axis == 1 {
				n, cell = models.Rows+1, g.CellHeightMM
			}
			bestH, bestS := h, cur
			for _, v := range axisVariants(n)[1:] {
				a := homography{1, 0, 0, 0, 1, 0, 0, 0, 1}
				if axis == 0 {
					a[0], a[2] = v.scale, v.shift*cell
				} else {
					a[4], a[5] = v.scale, v.shift*cell
				}
				hv := a.Then(h)
				if !plausible(hv, g, w, hgt) {
					continue
				}
				if s := scoreGridStep(ref, hv, g, step); s > bestS+variantMargin {
					bestH, bestS = hv, s
				}
			}
			if bestH != h {
				h, cur, changed = bestH, bestS, true
			}
		}
		if !changed {
			break
		}
	}
	return h
}

// shiftedAlias says whether lattice b is lattice a moved by whole cells
// (one or more, along either axis or both): its corners, read in a's realm
// millimetres, are a's corners shifted by a whole number of cells, to a
// tenth of a cell.
func shiftedAlias(a, b homography, g models.RealmGeometry) bool {
	inv, err := a.Inverse()
	if err != nil {
		return false
	}
	var pts []models.Point
	minX, minY := math.Inf(1), math.Inf(1)
	for _, p := range realmCorners(g) {
		q := inv.Apply(b.Apply(p))
		pts = append(pts, q)
		minX, minY = math.Min(minX, q.X), math.Min(minY, q.Y)
	}
	dx, dy := math.Round(minX/g.CellWidthMM), math.Round(minY/g.CellHeightMM)
	if dx == 0 && dy == 0 {
		return false
	}
	for _, p := range pts {
		near := false
		for _, c := range realmCorners(g) {
			if math.Abs(p.X-c.X-dx*g.CellWidthMM) < 0.1*g.CellWidthMM && math.Abs(p.Y-c.Y-dy*g.CellHeightMM) < 0.1*g.CellHeightMM {
				near = true
				break
			}
		}
		if !near {
			return false
		}
	}
	return true
}
