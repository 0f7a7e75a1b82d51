package calibration

import (
	"testing"

	"github.com/tablecam/tablecam/models"
)

// TestDetectFaintGridUnderCards renders a plain mat whose grid is drawn in
// thin, faint lines (a pixel wide, a quarter of the way from the cloth's
// colour to black) under sixteen sites and their units, blurred, noisy and
// JPEG-compressed: the edges find no lattice, and over the whole frame the
// lines' profiles and ridge evidence are drowned by the cards' art. Read
// over the mat's cloth alone (detectOnCloth), the lattice shows: Detect
// must find the realm within 1% of its width, and the cloth search must
// find it too.
func TestDetectFaintGridUnderCards(t *testing.T) {
	t.Parallel()
	g := models.DefaultRealm()
	s := scene{seed: 1, tiltDeg: 5, rotDeg: -2, widthFrac: 0.72, lineMM: 0.5, borderMM: 0.5, contrast: 0.25, cards: 16, blur: true, noise: 3, jpegQuality: 80}
	frame, truth := s.render(t)
	defer frame.Close()
	c, err := Detect(frame, Options{Geometry: g})
	if err != nil {
		t.Fatalf("no realm: %v", err)
	}
	if e := cornerError(c.Corners, truth) / realmWidthPx(truth); e > 0.01 {
		t.Errorf("corners %.2f%% of the realm's width off (found %v, truth %v)", 100*e, fmtQuad(c.Corners), fmtQuad(truth))
	}
	h, _, ok := detectOnClothFrame(frame, g)
	if !ok {
		t.Fatal("the cloth search finds no realm")
	}
	if e := cornerError(orientCorners(h, g, Bottom), truth) / realmWidthPx(truth); e > 0.01 {
		t.Errorf("the cloth search's corners %.2f%% of the realm's width off", 100*e)
	}
}
