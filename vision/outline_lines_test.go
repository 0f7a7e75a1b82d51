package vision

import (
	"fmt"
	"testing"

	"github.com/tablecam/tablecam/models"
)

// TestUnknownTokenOnGridLine checks that a token missing from the catalog
// is found by its outline when it lies on a printed grid line: across a
// line, at a crossing, or with one side 5 mm from a line. The line's edges
// join the token's on the edge map, so its outline closes only with the
// lines taken out; and taking them out must leave a side beside a line.
func TestUnknownTokenOnGridLine(t *testing.T) {
	full := devCatalog(t)
	const slug = "bog_frog"
	token, ok := full.BySlug(slug)
	if !ok || kindOf(token) != models.KindToken {
		t.Skipf("the catalog has no %s token", slug)
	}
	a := newTestAnalyzer(t, catalogWithout(full, map[string]bool{slug: true}))
	tests := []struct {
		name   string
		x, y   float64
		rot    models.Rotation
		jitter float64
	}{
		{"across a line between columns", 300, 112.5, 0, 4},
		{"across a line between rows", 150, 150, 90, -3},
		{"at a crossing", 400, 75, 180, 6},
		{"a side beside a line", 222 + 5, 37.5, 0, 0}, // its left side 5 mm right of B's line
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			place := []placement{{image: token.Image, kind: models.KindToken, x: tt.x, y: tt.y, rot: tt.rot, jitter: tt.jitter}}
			sc := renderTestScene(t, full, place, tiltedCorners, uint64(40+i))
			defer sc.frame.Close()
			obs := analyzeScene(t, a, sc)
			got, ok := findCard(obs, sc.corners, tt.x, tt.y)
			switch {
			case !ok:
				t.Fatalf("the token at %.0f,%.0f mm is not found; found %s", tt.x, tt.y, cardList(obs))
			case got.Identified():
				t.Errorf("a token missing from the catalog named %q", got.NameOr(""))
			case got.Kind != models.KindToken:
				t.Errorf("the token found as a %v", got.Kind)
			}
		})
	}
}

// cardList names the cards of an observation, for a failure's message.
func cardList(obs models.FrameObservation) string {
	s := ""
	for _, c := range obs.Cards {
		s += fmt.Sprintf(" [%s %v at %.0f,%.0f]", c.NameOr("unknown"), c.Kind, c.Quad.Center().X, c.Quad.Center().Y)
	}
	return s
}

// TestOutlineShapeFits checks the sizes a closed outline may have to be
// taken for a card or a token: a sleeved card's sides grow alike, so a
// sleeved token fits though it lies past sizeTolerance; pieces of the mat
// closed by cards and lines, as long or as wide but not both, do not.
func TestOutlineShapeFits(t *testing.T) {
	v := &view{pxPerMM: 2}
	token := outlineShapeOf(v, models.KindToken)
	standard := outlineShapeOf(v, models.KindStandard)
	tests := []struct {
		name        string
		shape       outlineShape
		short, long float64 // mm
		want        bool
	}{
		{"a token", token, 44, 63, true},
		{"a token a little small", token, 41, 59, true},
		{"a sleeved token, its outline a pixel out all round", token, 48.5, 68.5, true},
		{"a sleeved card", standard, 67, 92, true},
		{"a token's short side, a card's long side", token, 44, 80, false},
		{"a mat piece narrower than a token", token, 38, 65.5, false},
		{"a mat piece wider and shorter than a token", token, 48.5, 58.5, false},
		{"too big for a sleeve", token, 52, 71, false},
		{"a card for a token", token, 63, 88, false},
		{"a token for a card", standard, 44, 63, false},
	}
	for _, tt := range tests {
		if got := tt.shape.fits(tt.short*v.pxPerMM, tt.long*v.pxPerMM); got != tt.want {
			t.Errorf("%s (%.1f×%.1f mm): fits %v, want %v", tt.name, tt.short, tt.long, got, tt.want)
		}
	}
}

// TestEraseGridLinesKeepsCrossingCard draws the realm's grid lines (each
// as the edge map shows a printed line: a band a few pixels wide) and a
// token's outline across one of them, and checks that the lines go, the
// token's outline stays whole, and only the few pixels of line where it
// meets the token's sides are kept (the lines' ends at the realm's corners
// go too).
func TestEraseGridLinesKeepsCrossingCard(t *testing.T) {
	v := &view{geo: models.DefaultRealm(), pxPerMM: 2, marginMM: 90}
	w, h := int((v.geo.WidthMM()+2*v.marginMM)*v.pxPerMM), int((v.geo.HeightMM()+2*v.marginMM)*v.pxPerMM)
	pix := make([]byte, w*h)
	set := func(x0, y0, x1, y1 int) { // inclusive
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				pix[y*w+x] = edgeMark
			}
		}
	}
	lo, hiX, hiY := 180, 180+1000, 180+600 // the realm's edges in pixels
	for c := 0; c <= models.Columns; c++ {
		x := lo + 200*c
		set(x-2, lo, x+2, hiY) // a line's two edges, thickened into one band
	}
	for r := 0; r <= models.Rows; r++ {
		y := lo + 150*r
		set(lo, y-2, hiX, y+2)
	}
	// A token (88×126 px) across the line between columns B and C, its
	// outline 3 px thick.
	tx0, ty0, tx1, ty1 := 336, 400, 423, 525
	var token [][2]int
	for y := ty0; y <= ty1; y++ {
		for x := tx0; x <= tx1; x++ {
			if x-tx0 < 3 || tx1-x < 3 || y-ty0 < 3 || ty1-y < 3 {
				token = append(token, [2]int{x, y})
			}
		}
	}
	set(tx0, ty0, tx0+2, ty1)
	set(tx1-2, ty0, tx1, ty1)
	set(tx0, ty0, tx1, ty0+2)
	set(tx0, ty1-2, tx1, ty1)

	eraseGridLinesIn(pix, w, h, w, v)

	for _, p := range token {
		if pix[p[1]*w+p[0]] != edgeMark {
			t.Fatalf("the token's outline lost pixel %d,%d", p[0], p[1])
		}
	}
	lineLeft := 0
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if pix[y*w+x] == 0 {
				continue
			}
			inToken := x >= tx0 && x <= tx1 && y >= ty0 && y <= ty1
			// The lines' pixels beside the token's sides: B|C's above and
			// below it, row 2|3's left and right of it.
			touching := x >= 378 && x <= 382 && (y == ty0-1 || y == ty1+1) ||
				y >= 478 && y <= 482 && (x == tx0-1 || x == tx1+1)
			switch {
			case pix[y*w+x] != edgeMark:
				t.Fatalf("pixel %d,%d left marked %d", x, y, pix[y*w+x])
			case !inToken && !touching:
				lineLeft++
			}
		}
	}
	if lineLeft > 0 {
		t.Errorf("%d pixels of the grid lines left", lineLeft)
	}
}
