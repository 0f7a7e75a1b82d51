package vision

import (
	"testing"

	"github.com/tablecam/tablecam/synth"
)

// TestCoveredSiteUnderArm reads poster scenes in which an arm reaching over
// the realm lies across a site (44-58% of it visible) on which no card is
// found, so that only the arm can send the covered-site search to its cell.
// The site must be named, and no card in the frame named wrongly.
func TestCoveredSiteUnderArm(t *testing.T) {
	a, r := posterAnalyzer(t)
	for _, sc := range []struct {
		i    int
		cell string
	}{{11, "C1"}, {19, "D2"}, {47, "E4"}} {
		scene, obs := analyzeRendered(t, a, r, synth.SceneSeed(505, sc.i), synth.SceneOptions{JPEGQuality: 85})
		if !scene.Truth.Occluded {
			t.Fatalf("scene %d: the renderer drew no hand", sc.i)
		}
		site, seen, named := siteReadIn(scene, obs, sc.cell)
		if site == "" {
			t.Fatalf("scene %d: no site in %s", sc.i, sc.cell)
		}
		if !named {
			t.Errorf("scene %d: %s holds site %s half under the arm, read as %v", sc.i, sc.cell, site, seen)
		}
		if s := scoreStill(obs, &scene.Truth); s.wrongNames > 0 {
			t.Errorf("scene %d: %d cards named wrongly: %v", sc.i, s.wrongNames, s.notes)
		}
	}
}
