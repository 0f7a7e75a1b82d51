package vision

import (
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/synth"
)

// TestCoveredSitesOfOtherColours reads poster scenes with a catalog whose
// site faces have their colours turned round (red from blue, green from
// red, blue from green): the same pattern, in other
// colours, as a catalog that lacks the sites on the table but holds look-
// alikes of them would. The grey comparison of what shows of a covered
// site, and the look's correlation (each channel less its flat tone), fit
// such a face as well as the true one; only its colours tell it apart
// (toneAgrees). No covered site may be named after the recoloured faces,
// while the true catalog names them. With the true faces and the
// recoloured ones side by side, named apart, the sites must still be
// named, by their true faces.
func TestCoveredSitesOfOtherColours(t *testing.T) {
	cat, r := posterCatalog(t)
	// recoloured holds the site faces turned in colour in place of the
	// true ones; twinned holds both, the turned ones named apart.
	dir := t.TempDir()
	var recoloured, twinned []*models.Card
	for _, c := range cat.Cards() {
		twinned = append(twinned, c)
		c := *c
		if c.Type == models.Site && c.Image != "" {
			c.Image = turnedColours(t, c.Image, filepath.Join(dir, filepath.Base(c.Image)))
			twin := c
			twin.Name, twin.Slug = c.Name+" at Dusk", c.Slug+"_at_dusk"
			twinned = append(twinned, &twin)
		}
		recoloured = append(recoloured, &c)
	}
	trueFaces := newTestAnalyzer(t, cat)
	otherColours := newTestAnalyzer(t, models.NewCatalog(recoloured))
	withTwins := newTestAnalyzer(t, models.NewCatalog(twinned))
	var covered, namedTrue, namedOther, namedBeside, twinNamed int
	for i := 0; i < 12; i++ {
		scene, err := r.Scene(synth.SceneSeed(43, i), synth.SceneOptions{JPEGQuality: 85})
		if err != nil {
			t.Fatal(err)
		}
		read := func(a *Analyzer) models.FrameObservation {
			frame, _, obs := analyzeSynthScene(t, a, scene)
			frame.Close()
			return obs
		}
		obsTrue, obsOther, obsTwins := read(trueFaces), read(otherColours), read(withTwins)
		named := func(obs models.FrameObservation, c synth.CardTruth, name string) bool {
			for _, o := range obs.Cards {
				if o.NameOr("") == name && inside(o.Quad.Center(), c.Quad) {
					return true
				}
			}
			return false
		}
		for _, c := range scene.Truth.Cards {
			if c.Type != models.Site || c.VisibleFraction < 0.3 || c.VisibleFraction > 0.9 {
				continue
			}
			covered++
			if named(obsTrue, c, c.Name) {
				namedTrue++
			}
			if named(obsOther, c, c.Name) {
				namedOther++
				t.Errorf("scene %d: %s (%.0f%% visible) named after its recoloured face", i, c.Name, 100*c.VisibleFraction)
			}
			if named(obsTwins, c, c.Name) {
				namedBeside++
			}
			if named(obsTwins, c, c.Name+" at Dusk") {
				twinNamed++
				t.Errorf("scene %d: %s (%.0f%% visible) named after its twin in other colours", i, c.Name, 100*c.VisibleFraction)
			}
		}
	}
	t.Logf("%d covered sites: %d named with the true faces, %d with the recoloured ones, %d with the true faces beside their twins",
		covered, namedTrue, namedOther, namedBeside)
	if namedTrue < 3 {
		t.Errorf("only %d of %d covered sites named with the true faces, want ≥ 3", namedTrue, covered)
	}
	// A twin of the same pattern correlates as well in grey; only its
	// colours set it aside (nameSiteAt's rivals).
	if 2*namedBeside < namedTrue {
		t.Errorf("%d covered sites named beside their twins in other colours, want at least half the %d named without them", namedBeside, namedTrue)
	}
}

// turnedColours writes the PNG at from to to with its channels turned
// round (red from blue, green from red, blue from green), and gives to.
func turnedColours(t *testing.T, from, to string) string {
	t.Helper()
	f, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	out := image.NewNRGBA(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA()
			i := out.PixOffset(x, y)
			out.Pix[i], out.Pix[i+1], out.Pix[i+2], out.Pix[i+3] = byte(bl>>8), byte(r>>8), byte(g>>8), byte(a>>8)
		}
	}
	o, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	if err := png.Encode(o, out); err != nil {
		t.Fatal(err)
	}
	if err := o.Close(); err != nil {
		t.Fatal(err)
	}
	return to
}

// TestWeakFitInOtherColours holds a weak keypoint fit of each fully
// visible card of poster scenes (a tenth of its face's matches explained)
// to its true face and to the same face in other colours (turnedColours),
// with the catalog holding both: the weak fit must be kept for the true
// face and dropped for the recoloured one (inItsColours), while a strong
// fit is kept whatever its colours, as the keypoints alone decide it.
func TestWeakFitInOtherColours(t *testing.T) {
	cat, r := posterCatalog(t)
	a, refOf := twinnedAnalyzer(t, cat)
	var droppedTwin, droppedFew, keptStrong int
	cards, keptTrue := forWeakTwinFits(t, a, r, refOf, " at Dusk", func(f twinFit) {
		if !a.inItsColours(f.weak(f.twin), f.v, f.all) {
			droppedTwin++
		}
		// A fit by a handful of keypoints is weak even when it explains
		// most of the face's matches (weakFitInliers).
		few := f.weak(f.twin)
		few.inliers, few.matches = 11, 16
		if !a.inItsColours(few, f.v, f.all) {
			droppedFew++
		}
		strong := f.weak(f.twin)
		strong.inliers = 60
		if a.inItsColours(strong, f.v, f.all) {
			keptStrong++
		}
	})
	t.Logf("%d fully visible cards: weak fits kept for the true face %d, dropped for the recoloured one %d (of few inliers %d); strong fits to the recoloured one kept %d",
		cards, keptTrue, droppedTwin, droppedFew, keptStrong)
	if cards < 10 {
		t.Fatalf("only %d fully visible cards in the scenes", cards)
	}
	if droppedTwin < cards*9/10 {
		t.Errorf("weak fits to the recoloured faces dropped for %d of %d cards, want at least 90%%", droppedTwin, cards)
	}
	if droppedFew < cards*9/10 {
		t.Errorf("fits of few inliers to the recoloured faces dropped for %d of %d cards, want at least 90%%", droppedFew, cards)
	}
	if keptStrong != cards {
		t.Errorf("strong fits kept for %d of %d cards, want all", keptStrong, cards)
	}
}

// twinFit is a fully visible card of a poster scene and the twin of its
// face in the catalog, read in view v with the true cards' outlines all:
// weak(ref) is a weak keypoint fit of the card to face ref (a tenth of its
// matches explained).
type twinFit struct {
	twin int
	v    *view
	all  []placed
	weak func(ref int) detection
}

// forWeakTwinFits calls check for each fully visible card of four poster
// scenes whose true face and twin (named after it with suffix) a's catalog
// holds, once a weak fit to its true face has been checked to be kept
// (inItsColours); it gives how many cards there were and how many such
// fits were kept.
func forWeakTwinFits(t *testing.T, a *Analyzer, r *synth.Renderer, refOf func(name string) int, suffix string, check func(twinFit)) (cards, keptTrue int) {
	t.Helper()
	for i := 0; i < 4; i++ {
		scene, v, quads := readSceneView(t, a, r, synth.SceneSeed(71, i))
		all := placedOfTruth(scene, quads)
		for k, c := range scene.Truth.Cards {
			right, twin := refOf(c.Name), refOf(c.Name+suffix)
			if c.VisibleFraction < 1 || right < 0 || twin < 0 {
				continue
			}
			cards++
			weak := func(ref int) detection { return detection{ref: ref, quad: all[k].quad, inliers: 10, matches: 100} }
			if a.inItsColours(weak(right), v, all) {
				keptTrue++
			} else {
				t.Errorf("scene %d: a weak fit of %s to its own face is dropped", i, c.Name)
			}
			check(twinFit{twin: twin, v: v, all: all, weak: weak})
		}
	}
	return cards, keptTrue
}

// twinnedAnalyzer gives an Analyzer of the catalog cat with each face
// beside its twin in other colours (turnedColours), named after it "at
// Dusk", and a function giving a name's reference (-1 when none).
func twinnedAnalyzer(t *testing.T, cat *models.Catalog) (*Analyzer, func(name string) int) {
	return twinnedAnalyzerWith(t, cat, " at Dusk", turnedColours)
}

// twinnedAnalyzerWith gives an Analyzer of the catalog cat with each face
// beside a twin that twin writes (from the face's image file to another),
// named after it with suffix, and a function giving a name's reference
// (-1 when none).
func twinnedAnalyzerWith(t *testing.T, cat *models.Catalog, suffix string, twin func(t *testing.T, from, to string) string) (*Analyzer, func(name string) int) {
	t.Helper()
	dir := t.TempDir()
	var twinned []*models.Card
	for _, c := range cat.Cards() {
		twinned = append(twinned, c)
		if c.Image == "" {
			continue
		}
		tc := *c
		tc.Image = twin(t, c.Image, filepath.Join(dir, filepath.Base(c.Image)))
		tc.Name, tc.Slug = c.Name+suffix, c.Slug+strings.ReplaceAll(strings.ToLower(suffix), " ", "_")
		twinned = append(twinned, &tc)
	}
	a := newTestAnalyzer(t, models.NewCatalog(twinned))
	refOf := func(name string) int {
		for i := range a.index.refs {
			if a.index.refs[i].card.Name == name {
				return i
			}
		}
		return -1
	}
	return a, refOf
}

// placedOfTruth gives the scene's true cards as placed outlines: quads
// are their outlines in the view's top-down pixels.
func placedOfTruth(scene *synth.Scene, quads []models.Quad) []placed {
	var all []placed
	for j, c := range scene.Truth.Cards {
		kind := models.KindStandard
		switch {
		case c.Token:
			kind = models.KindToken
		case c.Type == models.Site:
			kind = models.KindSite
		}
		all = append(all, placed{quads[j], kind})
	}
	return all
}

// TestWeakFitOffItsCard moves the outline of each fully visible card of
// poster scenes onto bare mat beside it, as a chance alignment of a few
// keypoints may lay a face where no card lies: nothing stands out along
// its sides there (sidesShow) but the mat's own art, while along the
// card's own outline it does.
func TestWeakFitOffItsCard(t *testing.T) {
	cat, r := posterCatalog(t)
	a := newTestAnalyzer(t, cat)
	var cards, ownShows, moved, movedDropped int
	for i := 0; i < 4; i++ {
		scene, v, all := readSceneView(t, a, r, synth.SceneSeed(71, i))
		bare := func(q models.Quad) bool {
			x0, y0, x1, y1 := quadBounds(q)
			// Within the realm: beyond it the mat's edge may show.
			m := v.marginMM * v.pxPerMM
			if x0 < m || y0 < m || x1 > m+v.geo.WidthMM()*v.pxPerMM || y1 > m+v.geo.HeightMM()*v.pxPerMM {
				return false
			}
			for _, o := range all {
				if boxesOverlap(grow(o, 10*v.pxPerMM), q) {
					return false
				}
			}
			return true
		}
		for k, c := range scene.Truth.Cards {
			if c.VisibleFraction < 1 || c.Token {
				continue
			}
			cards++
			own := all[k]
			if a.sidesShow(v, own, nil) {
				ownShows++
			} else {
				t.Errorf("scene %d: the sides of %s's own outline do not stand out", i, c.Name)
			}
			for _, step := range [][2]float64{{1.3, 0}, {-1.3, 0}, {0, 1.3}, {0, -1.3}} {
				x0, y0, x1, y1 := quadBounds(own)
				dx, dy := step[0]*(x1-x0), step[1]*(y1-y0)
				var off models.Quad
				for j, p := range own {
					off[j] = models.Point{X: p.X + dx, Y: p.Y + dy}
				}
				if !bare(off) {
					continue
				}
				moved++
				if !a.sidesShow(v, off, nil) {
					movedDropped++
				}
				break
			}
		}
	}
	t.Logf("%d fully visible cards: own outline stands out %d; %d moved onto bare mat, of which %d stand out nowhere", cards, ownShows, moved, movedDropped)
	if moved < 5 {
		t.Fatalf("only %d outlines could be moved onto bare mat", moved)
	}
	// A mat's own art (clouds, rings) stands out here and there: most of
	// the moved outlines, not all, stand out nowhere.
	if 2*movedDropped < moved {
		t.Errorf("%d of %d outlines moved onto bare mat stand out nowhere, want most", movedDropped, moved)
	}
}

// readSceneView renders the scene of seed, reads it with a, and gives it
// with its view and its cards' outlines in the view's top-down pixels.
func readSceneView(t *testing.T, a *Analyzer, r *synth.Renderer, seed int64) (*synth.Scene, *view, []models.Quad) {
	t.Helper()
	scene, err := r.Scene(seed, synth.SceneOptions{JPEGQuality: 85})
	if err != nil {
		t.Fatal(err)
	}
	v, quads := sceneView(t, a, scene)
	return scene, v, quads
}

// sceneView reads the scene with a and gives its view and its cards'
// outlines in the view's top-down pixels.
func sceneView(t *testing.T, a *Analyzer, scene *synth.Scene) (*view, []models.Quad) {
	t.Helper()
	frame, cal, _ := analyzeSynthScene(t, a, scene)
	v, err := newView(cal.Corners, a.scale.geometry(cal.Geometry), frame.Cols(), frame.Rows(), a.opts)
	frame.Close()
	if err != nil {
		t.Fatal(err)
	}
	quads := make([]models.Quad, len(scene.Truth.Cards))
	for i, c := range scene.Truth.Cards {
		for k, p := range c.Quad {
			quads[i][k] = v.fromImg.Apply(p)
		}
	}
	return v, quads
}
