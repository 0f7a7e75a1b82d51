package vision

import (
	"testing"

	"github.com/tablecam/tablecam/models"
)

// TestAnalyzeUnknownCardOnAnother checks that a card missing from the
// catalog is still reported, unknown, when it stands on another card, so
// that its outline and the other's merge into one blob on the edge map.
func TestAnalyzeUnknownCardOnAnother(t *testing.T) {
	full := devCatalog(t)
	missing := map[string]bool{"stonehide_ox": true, "cinder_hollow": true}
	a := newTestAnalyzer(t, catalogWithout(full, missing))
	unit, _ := full.BySlug("stonehide_ox")
	tests := []struct {
		name    string
		under   placement // the card below, in the catalog
		x, y    float64   // the unknown unit's centre
		rot     models.Rotation
		wantRot models.Rotation
	}{
		{"upright across a site's edge", placement{slug: "emberfall_ridge", x: 150, y: 112.5}, 175, 120, 0, 0},
		{"upright on a north site", placement{slug: "emberfall_ridge", x: 350, y: 187.5, rot: 180}, 385, 175, 180, 180},
		{"tapped across a site", placement{slug: "emberfall_ridge", x: 250, y: 112.5}, 290, 135, 90, 90},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			place := []placement{tt.under, {image: unit.Image, kind: kindOf(unit), x: tt.x, y: tt.y, rot: tt.rot}}
			sc := renderTestScene(t, full, place, tiltedCorners, 70+uint64(i))
			defer sc.frame.Close()
			obs := analyzeScene(t, a, sc)
			got, ok := findCard(obs, sc.corners, tt.x, tt.y)
			switch {
			case !ok:
				t.Fatalf("the unknown unit at %.0f,%.0f was not reported", tt.x, tt.y)
			case got.Identified():
				t.Fatalf("a card not in the catalog was named %q", got.NameOr(""))
			case got.Confidence > 0.3:
				t.Errorf("unknown card reported with confidence %.2f", got.Confidence)
			}
			if got.Kind == models.KindSite {
				t.Errorf("a unit standing on a site was reported as a site")
			}
			if got.Rotation != tt.wantRot || got.Tapped != tt.wantRot.Tapped() {
				t.Errorf("rotation %d tapped %v, want %d", got.Rotation, got.Tapped, tt.wantRot)
			}
			site, _ := full.BySlug(tt.under.slug)
			if below, ok := findCard(obs, sc.corners, tt.under.x, tt.under.y); !ok || below.NameOr("") != site.Name {
				t.Errorf("the site below: got %s", below.NameOr("nothing"))
			}
		})
	}
}

// A rectangle the stacked-card search finds is a card on top only when no
// matched card's face shows inside it: a site under a tapped unit (frame
// 255 of `synth game --seed 8282`) is the covered-site search's to name.
func TestUnderMatchedCard(t *testing.T) {
	const px = 2.0 // top-down pixels per mm
	rect := func(cx, cy, w, h float64) models.Quad {
		return models.Quad{{X: cx - w/2, Y: cy - h/2}, {X: cx + w/2, Y: cy - h/2}, {X: cx + w/2, Y: cy + h/2}, {X: cx - w/2, Y: cy + h/2}}
	}
	// A grid of keypoints over the image, and the ids of those in a quad.
	var points []keypoint
	for y := 0.0; y < 600; y += 8 {
		for x := 0.0; x < 800; x += 8 {
			points = append(points, keypoint{float32(x), float32(y)})
		}
	}
	in := func(q models.Quad, but models.Quad) []int {
		var ids []int
		for i, p := range points {
			pt := models.Point{X: float64(p.X), Y: float64(p.Y)}
			if inside(pt, q) && (but == (models.Quad{}) || !inside(pt, but)) {
				ids = append(ids, i)
			}
		}
		return ids
	}
	site := rect(400, 300, 88*px, 63*px)
	tappedUnit := rect(370, 305, 88*px, 63*px) // lies across the site, shifted
	uprightUnit := rect(400, 300, 63*px, 88*px)
	token := rect(400, 300, 30*px, 30*px)
	cases := []struct {
		name string
		q    models.Quad
		det  detection
		want bool
	}{
		{"site under a matched tapped unit", site, detection{quad: tappedUnit, used: in(tappedUnit, models.Quad{})}, true},
		{"unit on a matched site (its face hidden under the unit)", uprightUnit, detection{quad: site, used: in(site, uprightUnit)}, false},
		{"matched token wholly on the card", site, detection{quad: token, used: in(token, models.Quad{})}, false},
		{"matched card elsewhere", site, detection{quad: rect(100, 100, 63*px, 88*px), used: in(rect(100, 100, 63*px, 88*px), models.Quad{})}, false},
	}
	for _, c := range cases {
		if got := underMatchedCard(c.q, []detection{c.det}, points, px, nil); got != c.want {
			t.Errorf("%s: underMatchedCard = %v, want %v", c.name, got, c.want)
		}
	}
}
