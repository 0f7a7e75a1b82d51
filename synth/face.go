package synth

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"
	"math/rand"
	"strings"

	"github.com/tablecam/tablecam/models"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// FacePxPerMM is the resolution of the rendered reference faces: a standard
// card face is 504×704 px, a site 704×504 px and a token 352×504 px.
const FacePxPerMM = 8

// FaceSizeMM gives the size of a card's upright face in millimetres, as it
// lies in play for its owner: sites are landscape, tokens half-size portrait,
// everything else portrait.
func FaceSizeMM(c *models.Card) (w, h float64) {
	switch {
	case c.Token:
		return models.TokenShortMM, models.TokenLongMM
	case c.Type == models.Site:
		return models.CardLongMM, models.CardShortMM
	}
	return models.CardShortMM, models.CardLongMM
}

// faceFonts renders text for card faces. It caches faces by size.
type faceFonts struct {
	regular, bold *opentype.Font
	cache         map[string]font.Face
}

func newFaceFonts() (*faceFonts, error) {
	reg, err := opentype.Parse(goregular.TTF)
	if err != nil {
		return nil, fmt.Errorf("synth: font: %w", err)
	}
	bold, err := opentype.Parse(gobold.TTF)
	if err != nil {
		return nil, fmt.Errorf("synth: font: %w", err)
	}
	return &faceFonts{regular: reg, bold: bold, cache: map[string]font.Face{}}, nil
}

func (f *faceFonts) face(bold bool, px float64) font.Face {
	px = math.Round(px)
	key := fmt.Sprintf("%v/%v", bold, px)
	if fc, ok := f.cache[key]; ok {
		return fc
	}
	src := f.regular
	if bold {
		src = f.bold
	}
	fc, err := opentype.NewFace(src, &opentype.FaceOptions{Size: px, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		// The embedded Go fonts always parse and accept any positive size.
		panic(fmt.Sprintf("synth: font face %v: %v", px, err))
	}
	f.cache[key] = fc
	return fc
}

// Colours of the card frame.
var (
	frameDark   = color.RGBA{24, 20, 18, 255}
	parchment   = color.RGBA{228, 214, 182, 255}
	parchmentDk = color.RGBA{196, 178, 140, 255}
	inkColour   = color.RGBA{34, 26, 20, 255}
	discColour  = color.RGBA{242, 236, 220, 255}
	elementInk  = map[models.Element]color.RGBA{
		models.Air:   {120, 170, 220, 255},
		models.Earth: {140, 110, 60, 255},
		models.Fire:  {214, 70, 36, 255},
		models.Water: {40, 90, 190, 255},
	}
)

// faceLayout gives the boxes of a face in pixels.
type faceLayout struct {
	w, h                      int
	radius, border            float64
	banner, art, typeLine, tb image.Rectangle
	scale                     float64 // text scale relative to a standard card
}

func layoutFor(c *models.Card) faceLayout {
	wmm, hmm := FaceSizeMM(c)
	l := faceLayout{w: int(wmm * FacePxPerMM), h: int(hmm * FacePxPerMM)}
	px := func(mm float64) int { return int(mm * FacePxPerMM) }
	l.scale = math.Min(wmm, hmm) / models.CardShortMM
	l.radius = 3.2 * FacePxPerMM * l.scale
	l.border = 2.6 * l.scale
	b := l.border
	if c.Type == models.Site && !c.Token {
		l.banner = image.Rect(px(b), px(b), px(wmm-b), px(10.5))
		l.art = image.Rect(px(b), px(11.5), px(wmm-b), px(44))
		l.typeLine = image.Rect(px(b), px(45), px(wmm-b), px(50.5))
		l.tb = image.Rect(px(b), px(51.5), px(wmm-b), px(hmm-b))
		return l
	}
	f := hmm / models.CardLongMM
	l.banner = image.Rect(px(b), px(b), px(wmm-b), px(10.5*f))
	l.art = image.Rect(px(b), px(11.5*f), px(wmm-b), px(50*f))
	l.typeLine = image.Rect(px(b), px(51*f), px(wmm-b), px(57*f))
	l.tb = image.Rect(px(b), px(58*f), px(wmm-b), px(hmm-b))
	return l
}

// renderFace draws a card's upright face (as it lies in play for its owner).
// Pixels outside the rounded corners are transparent.
func renderFace(c *models.Card, pal palette, artSeed int64, fonts *faceFonts) *image.RGBA {
	l := layoutFor(c)
	img := image.NewRGBA(image.Rect(0, 0, l.w, l.h))
	rng := rand.New(rand.NewSource(artSeed))

	// Dark frame with rounded corners.
	var ras vector.Rasterizer
	ras.Reset(l.w, l.h)
	addRoundRect(&ras, 0, 0, float32(l.w), float32(l.h), float32(l.radius))
	ras.Draw(img, img.Bounds(), image.NewUniform(tint(frameDark, pal[1], 0.15)), image.Point{})

	// Art.
	paintArt(img, l.art, pal, rng, func(px float64) font.Face { return fonts.face(true, px) })

	// Name banner.
	fillRect(img, l.banner, parchment)
	nameX := l.banner.Min.X + int(10*l.scale)
	if c.Type.IsSpell() && !c.Token {
		// Cost disc overlapping the banner's left end.
		d := float64(l.banner.Dy()) * 1.15
		cx, cy := float64(l.banner.Min.X)+d*0.55, float64(l.banner.Min.Y)+float64(l.banner.Dy())/2
		ras.Reset(l.w, l.h)
		addEllipse(&ras, float32(cx), float32(cy), float32(d/2), float32(d/2))
		ras.Draw(img, img.Bounds(), image.NewUniform(frameDark), image.Point{})
		ras.Reset(l.w, l.h)
		addEllipse(&ras, float32(cx), float32(cy), float32(d/2-4*l.scale), float32(d/2-4*l.scale))
		ras.Draw(img, img.Bounds(), image.NewUniform(discColour), image.Point{})
		drawCentered(img, fonts.face(true, d*0.62), fmt.Sprint(c.CostOrZero()), cx, cy, inkColour)
		nameX = int(cx + d*0.6)
	}
	nameRight := l.banner.Max.X - int(8*l.scale)
	if c.Type == models.Site && !c.Token {
		nameRight = drawThresholds(img, c.Thresholds, l.banner, l.scale)
	}
	drawFitted(img, fonts, c.Name, nameX, l.banner.Min.Y+l.banner.Dy()/2, nameRight-nameX, float64(l.banner.Dy())*0.62, inkColour)

	// Type line with threshold glyphs for spells.
	fillRect(img, l.typeLine, parchmentDk)
	typeText := string(c.Type)
	if len(c.Subtypes) > 0 {
		typeText += " — " + strings.Join(c.Subtypes, " ")
	}
	if c.Rarity != "" {
		typeText += " · " + string(c.Rarity)
	}
	right := l.typeLine.Max.X - int(6*l.scale)
	if c.Type != models.Site || c.Token {
		right = drawThresholds(img, c.Thresholds, l.typeLine, l.scale)
	}
	drawFitted(img, fonts, typeText, l.typeLine.Min.X+int(8*l.scale), l.typeLine.Min.Y+l.typeLine.Dy()/2, right-l.typeLine.Min.X-int(10*l.scale), float64(l.typeLine.Dy())*0.62, inkColour)

	// Text box.
	fillRect(img, l.tb, parchment)
	textPx := 22 * l.scale
	if c.Type == models.Site && !c.Token {
		textPx = 20
	}
	drawWrapped(img, fonts.face(false, textPx), c.RulesText, l.tb.Inset(int(10*l.scale)), inkColour)
	stats := ""
	switch {
	case c.Type == models.Avatar && c.Life != nil:
		stats = fmt.Sprintf("Life %d", *c.Life)
	case c.Attack != nil && c.Defence != nil:
		stats = fmt.Sprintf("%d / %d", *c.Attack, *c.Defence)
	}
	if stats != "" {
		sf := fonts.face(true, 30*l.scale)
		wpx := font.MeasureString(sf, stats).Ceil()
		box := image.Rect(l.tb.Max.X-wpx-int(22*l.scale), l.tb.Max.Y-int(44*l.scale), l.tb.Max.X-int(6*l.scale), l.tb.Max.Y-int(6*l.scale))
		fillRect(img, box, frameDark)
		drawCentered(img, sf, stats, float64(box.Min.X+box.Max.X)/2, float64(box.Min.Y+box.Max.Y)/2, discColour)
	}
	return img
}

func tint(a, b color.RGBA, t float64) color.RGBA {
	return color.RGBA{
		R: uint8(float64(a.R)*(1-t) + float64(b.R)*t),
		G: uint8(float64(a.G)*(1-t) + float64(b.G)*t),
		B: uint8(float64(a.B)*(1-t) + float64(b.B)*t),
		A: 255,
	}
}

func fillRect(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	draw.Draw(img, r, image.NewUniform(c), image.Point{}, draw.Src)
}

// addRoundRect adds a rectangle with rounded corners to the rasterizer.
func addRoundRect(r *vector.Rasterizer, x0, y0, x1, y1, rad float32) {
	const k = 0.5523
	r.MoveTo(x0+rad, y0)
	r.LineTo(x1-rad, y0)
	r.CubeTo(x1-rad+rad*k, y0, x1, y0+rad-rad*k, x1, y0+rad)
	r.LineTo(x1, y1-rad)
	r.CubeTo(x1, y1-rad+rad*k, x1-rad+rad*k, y1, x1-rad, y1)
	r.LineTo(x0+rad, y1)
	r.CubeTo(x0+rad-rad*k, y1, x0, y1-rad+rad*k, x0, y1-rad)
	r.LineTo(x0, y0+rad)
	r.CubeTo(x0, y0+rad-rad*k, x0+rad-rad*k, y0, x0+rad, y0)
	r.ClosePath()
}

// drawThresholds draws one glyph per threshold at the right end of box and
// returns the x where the glyphs begin.
func drawThresholds(img *image.RGBA, t models.Thresholds, box image.Rectangle, scale float64) int {
	size := float64(box.Dy()) * 0.8
	x := float64(box.Max.X) - 6*scale
	cy := float64(box.Min.Y) + float64(box.Dy())/2
	var ras vector.Rasterizer
	b := img.Bounds()
	for i := len(models.Elements) - 1; i >= 0; i-- {
		e := models.Elements[i]
		for n := 0; n < t.Get(e); n++ {
			x -= size * 1.05
			cx := x + size/2
			ras.Reset(b.Dx(), b.Dy())
			h := float32(size * 0.45)
			up := e == models.Air || e == models.Fire
			fx, fy := float32(cx), float32(cy)
			if up {
				ras.MoveTo(fx, fy-h)
				ras.LineTo(fx+h, fy+h*0.8)
				ras.LineTo(fx-h, fy+h*0.8)
			} else {
				ras.MoveTo(fx-h, fy-h*0.8)
				ras.LineTo(fx+h, fy-h*0.8)
				ras.LineTo(fx, fy+h)
			}
			ras.ClosePath()
			ras.Draw(img, b, image.NewUniform(elementInk[e]), image.Point{})
			if e == models.Air || e == models.Earth {
				// The bar across air and earth glyphs.
				bar := image.Rect(int(cx-float64(h)*0.8), int(cy-float64(h)*0.12), int(cx+float64(h)*0.8), int(cy+float64(h)*0.12))
				fillRect(img, bar, frameDark)
			}
		}
	}
	return int(x) - int(4*scale)
}

// drawCentered draws s centred on (cx, cy).
func drawCentered(img *image.RGBA, f font.Face, s string, cx, cy float64, c color.RGBA) {
	m := f.Metrics()
	w := font.MeasureString(f, s)
	d := font.Drawer{Dst: img, Src: image.NewUniform(c), Face: f}
	d.Dot = fixed.Point26_6{
		X: fixed.I(int(cx)) - w/2,
		Y: fixed.I(int(cy)) + (m.Ascent-m.Descent)/2,
	}
	d.DrawString(s)
}

// drawFitted draws s in colour c, left-aligned at x, vertically centred on
// cy, shrinking the font until it fits in width.
func drawFitted(img *image.RGBA, fonts *faceFonts, s string, x, cy, width int, px float64, c color.RGBA) {
	f := fonts.face(true, px)
	for font.MeasureString(f, s).Ceil() > width && px > 8 {
		px *= 0.92
		f = fonts.face(true, px)
	}
	m := f.Metrics()
	d := font.Drawer{Dst: img, Src: image.NewUniform(c), Face: f}
	d.Dot = fixed.Point26_6{X: fixed.I(x), Y: fixed.I(cy) + (m.Ascent-m.Descent)/2}
	d.DrawString(s)
}

// drawWrapped draws text word-wrapped into box.
func drawWrapped(img *image.RGBA, f font.Face, text string, box image.Rectangle, c color.RGBA) {
	m := f.Metrics()
	lineH := (m.Ascent + m.Descent).Ceil() + 2
	y := box.Min.Y + m.Ascent.Ceil()
	line := ""
	flush := func() {
		if line == "" || y > box.Max.Y {
			return
		}
		d := font.Drawer{Dst: img, Src: image.NewUniform(c), Face: f, Dot: fixed.P(box.Min.X, y)}
		d.DrawString(line)
		y += lineH
		line = ""
	}
	for _, w := range strings.Fields(text) {
		try := w
		if line != "" {
			try = line + " " + w
		}
		if font.MeasureString(f, try).Ceil() > box.Dx() && line != "" {
			flush()
			line = w
			continue
		}
		line = try
	}
	flush()
}
