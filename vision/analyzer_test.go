package vision

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/imagefile"
	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// newTestAnalyzer indexes cat without touching the user's cache.
func newTestAnalyzer(t testing.TB, cat *models.Catalog) *Analyzer {
	t.Helper()
	a, err := NewAnalyzer(cat, Options{CacheDir: t.TempDir(), NoReuse: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

func analyzeScene(t testing.TB, a *Analyzer, sc testScene) models.FrameObservation {
	t.Helper()
	cal, err := calibration.FromCorners(sc.corners, sc.frame.Cols(), sc.frame.Rows())
	if err != nil {
		t.Fatal(err)
	}
	obs, err := a.Analyze(sc.frame, cal)
	if err != nil {
		t.Fatal(err)
	}
	return obs
}

// findCard gives the observed card nearest to a realm position, within half a card.
func findCard(obs models.FrameObservation, corners models.Quad, x, y float64) (models.CardObservation, bool) {
	v, err := newView(corners, models.DefaultRealm(), 1280, 720, Options{})
	if err != nil {
		return models.CardObservation{}, false
	}
	want := v.imageOfMM(x, y)
	best, bestD := -1, 1e18
	for i, c := range obs.Cards {
		p := c.Quad.Center()
		if d := (p.X-want.X)*(p.X-want.X) + (p.Y-want.Y)*(p.Y-want.Y); d < bestD {
			best, bestD = i, d
		}
	}
	if best < 0 || bestD > 40*40 {
		return models.CardObservation{}, false
	}
	return obs.Cards[best], true
}

// portraitSite finds a site whose scan is stored portrait, and one stored landscape.
func sitesByScan(t testing.TB, cat *models.Catalog) (portrait, landscape string) {
	t.Helper()
	for _, c := range cat.Cards() {
		if c.Type != models.Site || c.Image == "" {
			continue
		}
		img := gocv.IMRead(c.Image, gocv.IMReadGrayScale)
		if img.Rows() > img.Cols() && portrait == "" {
			portrait = c.Slug
		} else if img.Rows() < img.Cols() && landscape == "" {
			landscape = c.Slug
		}
		img.Close()
	}
	if portrait == "" || landscape == "" {
		t.Skip("the catalog lacks a portrait-stored or a landscape-stored site scan")
	}
	return portrait, landscape
}

func TestAnalyzeRotationsAndKinds(t *testing.T) {
	cat := devCatalog(t)
	a := newTestAnalyzer(t, cat)
	portrait, landscape := sitesByScan(t, cat)
	slugs := []string{portrait, landscape, "ember_whelp", "bog_frog"}
	for _, rot := range []models.Rotation{0, 90, 180, 270} {
		t.Run(fmt.Sprint(rot), func(t *testing.T) {
			var cards []placement
			for i, s := range slugs {
				cards = append(cards, placement{slug: s, x: 50 + 100*float64(i), y: 37.5 + 75*float64(i%3), rot: rot, jitter: float64(i) - 1.5})
			}
			sc := renderTestScene(t, cat, cards, tiltedCorners, uint64(rot)+1)
			defer sc.frame.Close()
			obs := analyzeScene(t, a, sc)
			if len(obs.Cards) != len(cards) {
				t.Errorf("found %d cards, want %d", len(obs.Cards), len(cards))
			}
			for _, p := range cards {
				got, ok := findCard(obs, sc.corners, p.x, p.y)
				if !ok {
					t.Errorf("%s at rotation %d: not found", p.slug, rot)
					continue
				}
				card, _ := cat.BySlug(p.slug)
				wantCell, _ := models.DefaultRealm().CellAtMM(p.x, p.y)
				if got.NameOr("") != card.Name || got.Rotation != rot || got.Cell == nil || *got.Cell != wantCell || got.Kind != kindOf(card) {
					t.Errorf("%s: got %s rot %d cell %v kind %s, want %s rot %d cell %s kind %s",
						p.slug, got.NameOr("unknown"), got.Rotation, got.Cell, got.Kind, card.Name, rot, wantCell, kindOf(card))
				}
				if got.Owner != rot.Owner() || got.Tapped != rot.Tapped() {
					t.Errorf("%s: owner %s tapped %v, want %s %v", p.slug, got.Owner, got.Tapped, rot.Owner(), rot.Tapped())
				}
			}
		})
	}
}

func TestAnalyzeHalfCoveredSite(t *testing.T) {
	cat := devCatalog(t)
	a := newTestAnalyzer(t, cat)
	portrait, landscape := sitesByScan(t, cat)
	for i, site := range []string{portrait, landscape} {
		for _, rot := range []models.Rotation{0, 180} {
			// The unit lies on the right half of the site (44 of 88 mm covered).
			sx, sy := 150+200*float64(i), 112.5
			cards := []placement{
				{slug: site, x: sx, y: sy, rot: rot},
				{slug: "granite_warden", x: sx + 44, y: sy, rot: rot},
			}
			sc := renderTestScene(t, cat, cards, tiltedCorners, 40+uint64(rot))
			obs := analyzeScene(t, a, sc)
			sc.frame.Close()
			got, ok := findCard(obs, sc.corners, sx, sy)
			card, _ := cat.BySlug(site)
			if !ok || got.NameOr("") != card.Name || got.Rotation != rot {
				t.Errorf("half-covered %s at %d: got %+v (found %v)", site, rot, got.NameOr("nothing"), ok)
			}
			unit, ok := findCard(obs, sc.corners, sx+44, sy)
			if !ok || unit.NameOr("") != "Granite Warden" {
				t.Errorf("unit on %s: got %s", site, unit.NameOr("nothing"))
			}
		}
	}
}

func TestAnalyzeUnknownCard(t *testing.T) {
	full := devCatalog(t)
	// A catalog without two cards that share their palette with cards still in it.
	missing := map[string]bool{"cinder_hollow": true, "stonehide_ox": true}
	a := newTestAnalyzer(t, catalogWithout(full, missing))
	var place []placement
	for s := range missing {
		c, _ := full.BySlug(s)
		place = append(place, placement{image: c.Image, kind: kindOf(c), x: 150 + 200*float64(len(place)), y: 187.5})
	}
	place = append(place, placement{slug: "emberfall_ridge", x: 450, y: 37.5})
	sc := renderTestScene(t, full, place, tiltedCorners, 9)
	defer sc.frame.Close()
	obs := analyzeScene(t, a, sc)
	for _, p := range place[:2] {
		got, ok := findCard(obs, sc.corners, p.x, p.y)
		if ok && got.Identified() {
			t.Errorf("a card not in the catalog was named %q", got.NameOr(""))
		}
		if ok && got.Confidence > 0.3 {
			t.Errorf("unknown card reported with confidence %.2f", got.Confidence)
		}
		if !ok {
			t.Errorf("unknown card at %.0f,%.0f not reported", p.x, p.y)
		}
	}
	if got, ok := findCard(obs, sc.corners, 450, 37.5); !ok || got.NameOr("") != "Emberfall Ridge" {
		t.Errorf("known card beside unknown ones: got %s", got.NameOr("nothing"))
	}
}

// drawArm paints a skin-coloured arm reaching from the image's bottom edge.
func drawArm(frame *gocv.Mat) {
	arm := [][]image.Point{{{520, 720}, {700, 720}, {720, 420}, {640, 360}, {560, 400}}}
	pv := gocv.NewPointsVectorFromPoints(arm)
	defer pv.Close()
	gocv.FillPoly(frame, pv, color.RGBA{210, 150, 120, 0}) // a light skin tone
	gocv.Circle(frame, image.Pt(640, 380), 55, color.RGBA{200, 140, 110, 0}, -1)
}

func TestAnalyzeOcclusion(t *testing.T) {
	cat := devCatalog(t)
	a := newTestAnalyzer(t, cat)
	tables := []struct {
		name  string
		cards []placement
	}{
		{"two cards", []placement{{slug: "ember_whelp", x: 250, y: 112.5}, {slug: "emberfall_ridge", x: 150, y: 37.5}}},
		{"an empty realm", nil}, // the game's first frames
	}
	for _, tc := range tables {
		t.Run(tc.name, func(t *testing.T) {
			sc := renderTestScene(t, cat, tc.cards, tiltedCorners, 3)
			defer sc.frame.Close()
			if obs := analyzeScene(t, a, sc); obs.Occluded || len(obs.Cards) != len(tc.cards) {
				t.Errorf("a clear frame: occluded %v, %d cards, want not occluded, %d cards", obs.Occluded, len(obs.Cards), len(tc.cards))
			}
			drawArm(&sc.frame)
			if obs := analyzeScene(t, a, sc); !obs.Occluded {
				t.Errorf("a frame with an arm over the realm was not flagged occluded")
			}
		})
	}
}

func TestSteadyStateReuse(t *testing.T) {
	cat := devCatalog(t)
	a, err := NewAnalyzer(cat, Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	cards := []placement{{slug: "ember_whelp", x: 250, y: 112.5}, {slug: "emberfall_ridge", x: 150, y: 37.5}}
	sc := renderTestScene(t, cat, cards, tiltedCorners, 3)
	defer sc.frame.Close()
	first := analyzeScene(t, a, sc)
	again := analyzeScene(t, a, sc)
	if len(first.Cards) != 2 || len(again.Cards) != 2 {
		t.Fatalf("found %d then %d cards, want 2", len(first.Cards), len(again.Cards))
	}
	// One card leaves: the changed cells must be read again.
	moved := renderTestScene(t, cat, cards[1:], tiltedCorners, 3)
	defer moved.frame.Close()
	if obs := analyzeScene(t, a, moved); len(obs.Cards) != 1 || obs.Cards[0].NameOr("") != "Emberfall Ridge" {
		t.Errorf("after a card left: %d cards", len(obs.Cards))
	}
}

func TestIndexCache(t *testing.T) {
	cat := devCatalog(t)
	dir := t.TempDir()
	a, err := NewAnalyzer(cat, Options{CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	a.Close()
	files, _ := filepath.Glob(filepath.Join(dir, "index-*.bin"))
	if len(files) != 1 {
		t.Fatalf("cache files %v, want one", files)
	}
	// A corrupt cache is rebuilt, not fatal.
	if err := os.WriteFile(files[0], []byte("not an index"), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err = NewAnalyzer(cat, Options{CacheDir: dir})
	if err != nil {
		t.Fatalf("corrupt cache: %v", err)
	}
	if a.Faces() != len(faceCards(cat)) {
		t.Errorf("indexed %d faces, want %d", a.Faces(), len(faceCards(cat)))
	}
	a.Close()
	if _, err := readCache(files[0], faceCards(cat)); err != nil {
		t.Errorf("the rebuilt cache does not read back: %v", err)
	}
}

// TestAnalyzerClosedTwice checks that closing an analyzer twice is safe
// and that reading a frame after Close is an error, not a use of freed
// OpenCV objects.
func TestAnalyzerClosedTwice(t *testing.T) {
	a, err := NewAnalyzer(devCatalog(t), Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	frame, cal, _ := stillFrame(t, "0003")
	defer frame.Close()
	if _, err := a.Analyze(frame, cal); err != nil {
		t.Fatal(err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if err := a.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := a.Analyze(frame, cal); !errors.Is(err, ErrClosed) {
		t.Errorf("Analyze after Close: %v, want ErrClosed", err)
	}
	if _, ok := a.Identify(frame); ok {
		t.Error("Identify after Close named a card")
	}
}

// TestFaceScanCutShort indexes a catalog one of whose scans is cut short
// (an interrupted copy): OpenCV would read it with its lower half grey and
// index that. NewAnalyzer refuses the catalog instead, naming the card and
// the file.
func TestFaceScanCutShort(t *testing.T) {
	var cards []*models.Card
	for i, c := range devCatalog(t).Cards() {
		if i == 4 {
			break
		}
		cc := *c
		cards = append(cards, &cc)
	}
	data, err := os.ReadFile(cards[2].Image)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(t.TempDir(), filepath.Base(cards[2].Image))
	if err := os.WriteFile(cut, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	cards[2].Image = cut
	a, err := NewAnalyzer(models.NewCatalog(cards), Options{CacheDir: t.TempDir()})
	if err == nil {
		a.Close()
		t.Fatal("a catalog with a scan cut short was indexed")
	}
	if !errors.Is(err, imagefile.ErrTruncated) || !strings.Contains(err.Error(), cut) || !strings.Contains(err.Error(), cards[2].Name) {
		t.Errorf("error %q: want it to name %s and %q and wrap imagefile.ErrTruncated", err, cut, cards[2].Name)
	}
}
