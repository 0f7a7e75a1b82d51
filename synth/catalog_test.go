package synth

import (
	"crypto/sha256"
	"image"
	"os"
	"path/filepath"
	"testing"

	"github.com/tablecam/tablecam/models"
)

func TestSampleCardsShape(t *testing.T) {
	cards := SampleCards()
	count := map[models.CardType]int{}
	tokens, waterSites, multiSites := 0, 0, 0
	for _, c := range cards {
		if c.Token {
			tokens++
			continue
		}
		count[c.Type]++
		if c.IsWaterSite() {
			waterSites++
		}
		th := c.Thresholds
		if c.Type == models.Site && th.Air+th.Earth+th.Fire+th.Water > 1 {
			multiSites++
		}
		switch c.Type {
		case models.Avatar:
			if c.Life == nil || *c.Life != 20 || c.Cost != nil {
				t.Errorf("%s: avatar wants life 20 and no cost, got %+v", c.Name, c)
			}
		case models.Minion:
			if c.Cost == nil || *c.Cost < 1 || *c.Cost > 6 {
				t.Errorf("%s: minion cost %v out of 1–6", c.Name, c.Cost)
			}
		}
	}
	if count[models.Site] < 12 || count[models.Minion] < 14 || count[models.Avatar] < 2 || tokens < 3 {
		t.Errorf("card mix %v, %d tokens", count, tokens)
	}
	if waterSites < 2 || multiSites < 3 {
		t.Errorf("%d water sites, %d sites with several thresholds", waterSites, multiSites)
	}
}

// eachTestFace calls check with four sample cards of different kinds (a
// site, minions, a token), each with its palette at seed 7, and the face
// fonts.
func eachTestFace(t *testing.T, check func(c *models.Card, pal palette, fonts *faceFonts)) {
	t.Helper()
	cards := SampleCards()
	fonts, err := newFaceFonts()
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, 16, 30, 40} {
		check(cards[i], makePalette(sampleCards[i].paletteKey, 7), fonts)
	}
}

func TestFaceRenderingIsDeterministic(t *testing.T) {
	for _, style := range []struct {
		name   string
		render func(*models.Card, palette, int64, *faceFonts) *image.RGBA
	}{{"sample", renderFace}, {"poster", renderPosterFace}, {"fullart", renderFullArtFace}} {
		eachTestFace(t, func(c *models.Card, pal palette, fonts *faceFonts) {
			seed := 7 ^ int64(hashString(c.Name))
			a, b := style.render(c, pal, seed, fonts), style.render(c, pal, seed, fonts)
			if sha256.Sum256(a.Pix) != sha256.Sum256(b.Pix) {
				t.Errorf("%s, %s: two renders with one seed differ", style.name, c.Name)
			}
			if d := style.render(c, pal, seed+1, fonts); sha256.Sum256(a.Pix) == sha256.Sum256(d.Pix) {
				t.Errorf("%s, %s: two seeds render the same face", style.name, c.Name)
			}
			w, h := FaceSizeMM(c)
			if got := a.Bounds().Size(); got != image.Pt(int(w*FacePxPerMM), int(h*FacePxPerMM)) {
				t.Errorf("%s, %s: face is %v, want %v×%v mm at %d px/mm", style.name, c.Name, got, w, h, FacePxPerMM)
			}
		})
	}
}

func TestRenderCatalogRoundTrip(t *testing.T) {
	if testing.Short() {
		t.Skip("renders 41 faces")
	}
	dir := t.TempDir()
	cat, err := RenderCatalog(dir, 3, CatalogOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	portraitSites := 0
	for _, c := range cat.Cards() {
		if c.Image == "" {
			t.Fatalf("%s: no image", c.Name)
		}
		st, err := os.Stat(c.Image)
		if err != nil {
			t.Fatal(err)
		}
		total += st.Size()
		f, err := os.Open(c.Image)
		if err != nil {
			t.Fatal(err)
		}
		cfg, _, err := image.DecodeConfig(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", c.Image, err)
		}
		if c.Type == models.Site && cfg.Height > cfg.Width {
			portraitSites++
		}
		face, err := LoadFace(c)
		if err != nil {
			t.Fatal(err)
		}
		w, h := FaceSizeMM(c)
		if got := face.Bounds().Size(); got != image.Pt(int(w*FacePxPerMM), int(h*FacePxPerMM)) {
			t.Errorf("%s: upright face %v", c.Name, got)
		}
	}
	if portraitSites == 0 {
		t.Error("no site is stored portrait as real scans are")
	}
	if total > 8<<20 {
		t.Errorf("catalog images take %d bytes, want < 8 MB", total)
	}
	if _, err := os.Stat(filepath.Join(dir, "cards.json")); err != nil {
		t.Fatal(err)
	}
}

func TestUprightFaceUndoesPortraitScan(t *testing.T) {
	cards := SampleCards()
	fonts, err := newFaceFonts()
	if err != nil {
		t.Fatal(err)
	}
	site := cards[1]
	face := renderFace(site, makePalette("ember", 1), 1, fonts)
	back := UprightFace(site, rotateCCW(face))
	if sha256.Sum256(back.Pix) != sha256.Sum256(face.Pix) {
		t.Error("UprightFace(rotateCCW(face)) != face")
	}
	minion := cards[14]
	mface := renderFace(minion, makePalette("ember", 1), 1, fonts)
	if got := UprightFace(minion, mface); got.Bounds() != mface.Bounds() {
		t.Error("a portrait minion face was turned")
	}
}
