package vision

import (
	"image"
	"testing"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// Cameras seeing the realm small, with the table beyond the view's margin
// in the frame: at about 1.4 and 1.2 px/mm.
var (
	farCorners     = models.Quad{{X: 290, Y: 560}, {X: 990, Y: 565}, {X: 920, Y: 170}, {X: 360, Y: 165}}
	fartherCorners = models.Quad{{X: 340, Y: 540}, {X: 940, Y: 544}, {X: 880, Y: 205}, {X: 400, Y: 200}}
)

// TestCardsAcrossViewBorder draws a unit off the grid lying across the
// west border of the top-down view (the realm's 90 mm margin), a quarter
// to a third of it beyond, photographed by a soft camera, and checks that
// it is found off the grid and named right, and that nothing else is named
// off the grid. The part the view cuts off takes its keypoints with it,
// and too few are left to fit the face; a window of the camera frame
// beyond the border, read where keypoints near it fit a face weakly, shows
// the whole card. Before, none of these was found.
func TestCardsAcrossViewBorder(t *testing.T) {
	cat := devCatalog(t)
	a := newTestAnalyzer(t, cat)
	in := []placement{
		{slug: "granite_warden", x: 150, y: 112.5},
		{slug: "ember_whelp", x: 350, y: 187.5, rot: 180},
	}
	tests := []struct {
		name    string
		card    placement
		corners models.Quad
		blur    float64 // the camera's softness: a Gaussian's sigma, frame pixels
		seed    uint64
	}{
		{"a third beyond", placement{slug: "tidecaller_adept", x: -80, y: 150}, fartherCorners, 1.8, 40},
		{"two fifths beyond", placement{slug: "tidecaller_adept", x: -84, y: 150}, fartherCorners, 1.8, 41},
		{"nearer camera", placement{slug: "lantern_warden", x: -84, y: 150}, farCorners, 1.8, 53},
		{"less soft", placement{slug: "lantern_warden", x: -88, y: 150}, fartherCorners, 1.2, 54},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := renderTestScene(t, cat, append(in, tt.card), tt.corners, tt.seed)
			defer sc.frame.Close()
			gocv.GaussianBlur(sc.frame, &sc.frame, image.Pt(0, 0), tt.blur, tt.blur, gocv.BorderReplicate)
			obs := analyzeScene(t, a, sc)
			card, _ := cat.BySlug(tt.card.slug)
			got, ok := findCard(obs, sc.corners, tt.card.x, tt.card.y)
			if !ok {
				t.Fatalf("%s across the border: not found", card.Name)
			}
			if got.NameOr("") != card.Name || got.Cell != nil || got.Rotation != tt.card.rot {
				t.Errorf("got %s turned %d in cell %v, want %s turned %d off the grid", got.NameOr("unknown"), got.Rotation, got.Cell, card.Name, tt.card.rot)
			}
			for _, c := range obs.Cards {
				if c.Name != nil && c.Cell == nil && *c.Name != card.Name {
					t.Errorf("off the grid: %s, not drawn there", *c.Name)
				}
			}
		})
	}
}
