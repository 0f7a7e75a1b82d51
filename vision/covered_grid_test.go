package vision

import (
	"image"
	"image/color"
	"math/rand/v2"
	"testing"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// glowingGridTopGray renders the placements on a dark, plain mat whose
// grid lines are wide and soft (a glowing print, 4 mm wide and blurred),
// on a darker table, and gives its top-down grey image with the view
// (caller closes the image). Each side of such a line, and the realm's
// border, is a step the edge filter reads, running exactly the way a
// site's sides run, a few millimetres from them.
func glowingGridTopGray(t *testing.T, a *Analyzer, place []placement, seed uint64) (gocv.Mat, *view) {
	t.Helper()
	cat := devCatalog(t)
	rng := rand.New(rand.NewPCG(seed, 17))
	sc := renderSceneOn(t, cat, place, tiltedCorners, func(mat *gocv.Mat, w, h int) {
		small := gocv.NewMatWithSize(h/60, w/60, gocv.MatTypeCV8UC3)
		defer small.Close()
		noise, err := small.DataPtrUint8()
		if err != nil {
			t.Fatal(err)
		}
		for i := range noise {
			noise[i] = uint8([3]int{70, 45, 20}[i%3] + rng.IntN(20))
		}
		gocv.Resize(small, mat, image.Pt(w, h), 0, 0, gocv.InterpolationCubic)
		// The table around the mat, darker.
		geo := models.DefaultRealm()
		x0, y0 := sceneToPx(-5, geo.HeightMM()+5)
		x1, y1 := sceneToPx(geo.WidthMM()+5, -5)
		table := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(25, 20, 15, 0), h, w, gocv.MatTypeCV8UC3)
		defer table.Close()
		roi := mat.Region(image.Rect(int(x0), int(y0), int(x1), int(y1)))
		troi := table.Region(image.Rect(int(x0), int(y0), int(x1), int(y1)))
		roi.CopyTo(&troi)
		roi.Close()
		troi.Close()
		table.CopyTo(mat)
		drawSceneGrid(mat, color.RGBA{240, 230, 200, 0}, int(4*scenePxPerMM))
		gocv.GaussianBlur(*mat, mat, image.Pt(0, 0), 1.0*scenePxPerMM, 0, gocv.BorderReflect101)
	})
	defer sc.frame.Close()
	return sceneTopGray(t, a, sc)
}

// TestCoveredSiteBesideGlowingGridLines draws a site a few millimetres off
// its cell's centre in the realm's north row, so that its sides lie 1-11
// mm from the cell's wide, glowing grid lines and the realm's border, a
// unit on part of it, and checks that the covered search (siteUnder)
// names it, and names it right, in every scene. Before, the placement
// laid the outline's free end and side on the grid lines' steps instead
// of the site's own edges in two of these scenes (6 and 8 mm off), and
// one of them was left unnamed.
func TestCoveredSiteBesideGlowingGridLines(t *testing.T) {
	cat := devCatalog(t)
	a := newTestAnalyzer(t, cat)
	_, site := sitesByScan(t, cat)
	faces := siteFacesOf(t, a)
	cell := models.Cell{Col: 1, Row: 3}
	const cx, cy = 150.0, 262.5 // the cell's centre, realm mm: its north side is the realm's
	cases := []struct {
		name           string
		siteDX, siteDY float64 // off the cell's centre, mm (y north)
		unitDX, unitDY float64 // off the site's centre, mm
		unitRot        models.Rotation
	}{
		{"south, tapped unit on its north-west", 0.5, -5, -24, 10, 90},
		{"south-west, unit on its north-east", -3.5, -4, 22, 8, 0},
		{"east, unit on its north-west", 4, -2, -20, 9, 180},
		{"south-east, tapped unit on its north-west", 2, -4.5, -25, 9, 270},
	}
	for i, tc := range cases {
		for _, rot := range []models.Rotation{0, 180} {
			sx, sy := cx+tc.siteDX, cy+tc.siteDY
			unit := placement{slug: "granite_warden", x: sx + tc.unitDX, y: sy + tc.unitDY, rot: tc.unitRot}
			gray, v := glowingGridTopGray(t, a, []placement{{slug: site, x: sx, y: sy, rot: rot}, unit}, 300+uint64(10*i)+uint64(rot))
			found := []placed{{topDownQuad(v, unit.x, unit.y, float64(unit.rot), models.CardShortMM, models.CardLongMM), models.KindStandard}}

			s, ok := a.siteUnder(gray, v, cell, found, &coveredSearch{faces: faces})
			gray.Close()
			if !ok || !s.named {
				t.Errorf("%s, turn %d: not named", tc.name, rot)
				continue
			}
			if got := a.index.refs[s.det.ref].Slug; got != site || s.det.rotation() != rot {
				t.Errorf("%s, turn %d: named %s turned %d, want %s turned %d", tc.name, rot, got, s.det.rotation(), site, rot)
			}
		}
	}
}
