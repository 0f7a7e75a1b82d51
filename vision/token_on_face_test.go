package vision

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/tablecam/tablecam/models"
)

// TestTokenOnNamedSite lays a token of smooth art (few corners: its
// keypoints name nothing) on a site that its keypoints name, over the
// site's east or west half, partly off the site or wholly on it. The
// token shows no closed outline of its own and its sides run along the
// site's, whose face the token searches leave out of their edges: only
// the site's face, where it shows something else of a token's size, tells
// that something lies on it. The token must be found and named, and the
// site still named.
func TestTokenOnNamedSite(t *testing.T) {
	full := devCatalog(t)
	_, site := sitesByScan(t, full)
	siteCard, _ := full.BySlug(site)
	path := filepath.Join(t.TempDir(), "smooth_mite.png")
	smoothFace(t, path, false, 5, 17)
	token := &models.Card{Name: "Smooth Mite", Slug: "smooth_mite", Type: models.Minion, Token: true, Image: path}
	cat := models.NewCatalog(append(full.Cards(), token))
	a := newTestAnalyzer(t, cat)

	const sx, sy = 250.0, 112.5 // C2's centre
	for i, tc := range []struct {
		dx, dy float64 // the token's centre from the site's, mm
		rot    models.Rotation
		jitter float64
	}{
		{dx: 22, dy: 0, rot: 0, jitter: 2},
		{dx: -22, dy: 6, rot: 180, jitter: -3},
		{dx: 14, dy: -2, rot: 0, jitter: 5},
	} {
		t.Run(fmt.Sprintf("%+.0f,%+.0f", tc.dx, tc.dy), func(t *testing.T) {
			x, y := sx+tc.dx, sy+tc.dy
			sc := renderTestScene(t, cat, []placement{
				{slug: site, x: sx, y: sy, jitter: 1},
				{slug: token.Slug, x: x, y: y, rot: tc.rot, jitter: tc.jitter},
				{slug: "ember_whelp", x: 50, y: 262.5},
			}, tiltedCorners, uint64(i)+31)
			defer sc.frame.Close()
			obs := analyzeScene(t, a, sc)
			got, ok := findCard(obs, sc.corners, x, y)
			if !ok || got.NameOr("") != token.Name {
				t.Errorf("the token on the site: got %s (found %t), want %s", got.NameOr("unknown"), ok, token.Name)
			}
			if got.Kind == models.KindToken && got.Rotation != tc.rot {
				t.Errorf("the token's rotation %d, want %d", got.Rotation, tc.rot)
			}
			named := false
			for _, o := range obs.Cards {
				named = named || o.NameOr("") == siteCard.Name
			}
			if !named {
				t.Errorf("the site %s is not named", siteCard.Name)
			}
		})
	}
}

// TestTokenHoleOnFace checks which named cards the search for tokens on
// faces examines: a face whose inliers leave a token-sized part of its
// keypoints bare (a token on it, or lying partly off it) is examined; one
// whose inliers are spread all over it, or leave bare only a part too
// small for a token or holding none of its keypoints, is not.
func TestTokenHoleOnFace(t *testing.T) {
	const perMM = 1 / faceHoleCellMM
	w, h := faceSizePx(models.KindStandard, perMM) // a unit's face, portrait
	// keys: one keypoint a cell, where holds says so; inliers: every
	// other one of them (a checkerboard), but where bare says not.
	lay := func(holds, bare func(x, y int) bool) (keys, inliers []models.Point) {
		for y := range h {
			for x := range w {
				if !holds(x, y) {
					continue
				}
				p := models.Point{X: float64(x) + 0.5, Y: float64(y) + 0.5}
				keys = append(keys, p)
				if (x+y)%2 == 0 && !bare(x, y) {
					inliers = append(inliers, p)
				}
			}
		}
		return keys, inliers
	}
	all := func(x, y int) bool { return true }
	none := func(x, y int) bool { return false }
	for _, tc := range []struct {
		name        string
		holds, bare func(x, y int) bool
		want        bool
	}{
		{"inliers all over", all, none, false},
		{"a token over the top half", all, func(x, y int) bool { return y < h/2 }, true},
		{"a token over the bottom half", all, func(x, y int) bool { return y >= h/2 }, true},
		{"a token partly off the east side", all, func(x, y int) bool { return x >= w-w*2/5 && y < h*3/5 }, true},
		{"a bare part smaller than a token", all, func(x, y int) bool { return x >= w/2-2 && x < w/2+2 && y >= h/2-2 && y < h/2+2 }, false},
		{"a bare part without keypoints", func(x, y int) bool { return y >= h/2 }, func(x, y int) bool { return y < h/2 }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			keys, inliers := lay(tc.holds, tc.bare)
			if got := tokenHoleOnFace(keys, inliers, w, h, perMM); got != tc.want {
				t.Errorf("examined %t, want %t (%d keypoints, %d inliers)", got, tc.want, len(keys), len(inliers))
			}
		})
	}
}
