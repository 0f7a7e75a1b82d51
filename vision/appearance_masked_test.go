package vision

import (
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/synth"
	"gocv.io/x/gocv"
)

// partScene is a top-down colour image at 1 px/mm (BGR) of a site face
// lying on a smooth mat, lit unevenly, with another card's face on top of
// part of it: the site's outline and the card's, in its pixels.
type partScene struct {
	img        gocv.Mat
	site, card models.Quad
}

// newPartScene draws site (upright, landscape) at (40, 30) mm and the card
// on top with its left edge at coverX mm into the site, centred on it
// vertically; gain and ramp change the light across the picture.
func newPartScene(t *testing.T, site, onTop *image.RGBA, coverX int, gain, ramp float64) partScene {
	t.Helper()
	const w, h = 180, 130
	canvas := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			canvas.Set(x, y, color.RGBA{uint8(40 + x/6), uint8(110 + y/4), uint8(50 + (x+y)/10), 255})
		}
	}
	paste := func(face *image.RGBA, x0, y0, fw, fh int) {
		b := face.Bounds()
		for y := 0; y < fh; y++ {
			for x := 0; x < fw; x++ {
				// Box average of the face's pixels under this one.
				sx0, sx1 := b.Min.X+x*b.Dx()/fw, b.Min.X+(x+1)*b.Dx()/fw
				sy0, sy1 := b.Min.Y+y*b.Dy()/fh, b.Min.Y+(y+1)*b.Dy()/fh
				var r, g, bl, n int
				for sy := sy0; sy < sy1; sy++ {
					for sx := sx0; sx < sx1; sx++ {
						c := face.RGBAAt(sx, sy)
						r, g, bl, n = r+int(c.R), g+int(c.G), bl+int(c.B), n+1
					}
				}
				canvas.SetRGBA(x0+x, y0+y, color.RGBA{uint8(r / n), uint8(g / n), uint8(bl / n), 255})
			}
		}
	}
	sx, sy := 40, 30
	paste(site, sx, sy, int(models.CardLongMM), int(models.CardShortMM))
	cw, ch := int(models.CardShortMM), int(models.CardLongMM)
	cx, cy := sx+coverX, sy+int(models.CardShortMM)/2-ch/2
	paste(onTop, cx, cy, cw, ch)
	// The light: a gain, and a ramp across.
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := canvas.RGBAAt(x, y)
			f := gain * (1 + ramp*(float64(x)/w-0.5))
			canvas.SetRGBA(x, y, color.RGBA{clampByte(float64(c.R) * f), clampByte(float64(c.G) * f), clampByte(float64(c.B)*f + 10), 255})
		}
	}
	img, err := gocv.ImageToMatRGB(canvas)
	if err != nil {
		t.Fatal(err)
	}
	rect := func(x0, y0, x1, y1 float64) models.Quad {
		return models.Quad{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
	}
	return partScene{img: img,
		site: rect(float64(sx), float64(sy), float64(sx)+models.CardLongMM, float64(sy)+models.CardShortMM),
		card: rect(float64(cx), float64(cy), float64(cx+cw), float64(cy+ch)),
	}
}

func clampByte(v float64) uint8 { return uint8(math.Max(0, math.Min(255, math.Round(v)))) }

// TestNamePartOfPosterSite names poster-style sites (smooth art, few
// corners) of which a card on top hides half by the colours of what shows
// (namePart): each is named right, turned either way; naming the whole
// outline by look, the card on top in it, names few; and a site the
// catalog has no face for stays unnamed.
func TestNamePartOfPosterSite(t *testing.T) {
	if testing.Short() {
		t.Skip("renders a catalog")
	}
	cat, err := synth.RenderCatalog(t.TempDir(), 9, synth.CatalogOptions{Style: synth.StylePoster})
	if err != nil {
		t.Fatal(err)
	}
	a := newTestAnalyzer(t, cat)
	sites, units := sitesAndUnits(cat)
	if len(sites) < 6 || len(units) == 0 {
		t.Fatalf("catalog has %d sites and %d units", len(sites), len(units))
	}
	faceOf := func(c *models.Card) *image.RGBA {
		f, err := synth.LoadFace(c)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	// The same scenes against a catalog without the site: it must stay
	// unnamed (no other site's face may take what shows).
	without := func(site *models.Card) *Analyzer {
		var cards []*models.Card
		for _, c := range cat.Cards() {
			if c != site {
				cards = append(cards, c)
			}
		}
		return newTestAnalyzer(t, models.NewCatalog(cards))
	}
	named, whole := 0, 0
	for i, site := range sites[:6] {
		face := faceOf(site)
		if i%2 == 1 {
			face = turned180(face)
		}
		sc := newPartScene(t, face, faceOf(units[i%len(units)]), 30+i%3*6, 0.8+0.05*float64(i%3), 0.3)
		d, ok := a.index.namePart(sc.img, 1, sc.site, 1, models.KindSite, []models.Quad{grow(sc.card, 1.5)})
		switch {
		case !ok:
			t.Errorf("%s, half under a card: not named", site.Name)
		case a.index.refs[d.ref].card.Name != site.Name:
			t.Errorf("%s, half under a card: named %s", site.Name, a.index.refs[d.ref].card.Name)
		default:
			named++
			if turn := d.rotation(); (turn == 180) != (i%2 == 1) {
				t.Errorf("%s turned %d°: read turned %d°", site.Name, 180*(i%2), turn)
			}
		}
		if d, ok := a.index.nameByLook(sc.img, 1, sc.site, 1); ok && a.index.refs[d.ref].card.Name == site.Name {
			whole++
		}
		if i < 3 {
			b := without(site)
			if d, ok := b.index.namePart(sc.img, 1, sc.site, 1, models.KindSite, []models.Quad{grow(sc.card, 1.5)}); ok {
				t.Errorf("%s, without a face: named %s", site.Name, b.index.refs[d.ref].card.Name)
			}
		}
		sc.img.Close()
	}
	t.Logf("named by what shows %d of 6, by the whole outline %d", named, whole)
}

// turned180 turns an image half a turn.
func turned180(img *image.RGBA) *image.RGBA {
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			out.SetRGBA(b.Dx()-1-x, b.Dy()-1-y, img.RGBAAt(b.Min.X+x, b.Min.Y+y))
		}
	}
	return out
}
