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
