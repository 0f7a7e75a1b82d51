package synth

import (
	"fmt"
	"image"
	"image/color"
	"math/rand"

	"golang.org/x/image/font"
	"golang.org/x/image/vector"

	"github.com/tablecam/tablecam/models"
)

// veil lays colour c over r at opacity alpha (0–1), keeping what lies under it.
func veil(img *image.RGBA, r image.Rectangle, c color.RGBA, alpha float64) {
	r = r.Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			o := img.RGBAAt(x, y)
			if o.A == 0 {
				continue
			}
			img.SetRGBA(x, y, tint(o, c, alpha))
		}
	}
}

// renderFullArtFace draws a card's upright face in StyleFullArt: the art
// runs to the card's rounded edges, with no frame round it; the name lies
// on a translucent dark band across the top, the type line and rules on a
// translucent parchment box across the foot, and a spell's cost in a disc
// at the top left.
func renderFullArtFace(c *models.Card, pal palette, artSeed int64, fonts *faceFonts) *image.RGBA {
	l := layoutFor(c)
	full := image.NewRGBA(image.Rect(0, 0, l.w, l.h))
	rng := rand.New(rand.NewSource(artSeed))
	paintArt(full, full.Bounds(), pal, rng, func(px float64) font.Face { return fonts.face(true, px) })

	// Rounded corners: the art shows only inside them.
	img := image.NewRGBA(full.Bounds())
	var ras vector.Rasterizer
	ras.Reset(l.w, l.h)
	addRoundRect(&ras, 0, 0, float32(l.w), float32(l.h), float32(l.radius))
	ras.Draw(img, img.Bounds(), full, image.Point{})

	inset := int(2.5 * FacePxPerMM * l.scale)
	bandH := int(7.5 * FacePxPerMM * l.scale)
	band := image.Rect(inset, inset, l.w-inset, inset+bandH)
	veil(img, band, frameDark, 0.6)
	nameX := band.Min.X + int(8*l.scale)
	if c.Type.IsSpell() && !c.Token {
		d := float64(bandH) * 1.2
		cx, cy := float64(band.Min.X)+d*0.5, float64(band.Min.Y)+float64(bandH)/2
		ras.Reset(l.w, l.h)
		addEllipse(&ras, float32(cx), float32(cy), float32(d/2), float32(d/2))
		ras.Draw(img, img.Bounds(), image.NewUniform(discColour), image.Point{})
		drawCentered(img, fonts.face(true, d*0.62), fmt.Sprint(c.CostOrZero()), cx, cy, inkColour)
		nameX = int(cx + d*0.6)
	}
	nameRight := band.Max.X - int(8*l.scale)
	if c.Type == models.Site && !c.Token {
		nameRight = drawThresholds(img, c.Thresholds, band, l.scale)
	}
	drawFitted(img, fonts, c.Name, nameX, band.Min.Y+bandH/2, nameRight-nameX, float64(bandH)*0.6, discColour)

	// The type line and rules on translucent parchment across the foot.
	boxH := l.h * 28 / 100
	if c.Type == models.Site && !c.Token {
		boxH = l.h * 32 / 100
	}
	box := image.Rect(inset, l.h-inset-boxH, l.w-inset, l.h-inset)
	veil(img, box, parchment, 0.78)
	typeText := string(c.Type)
	if c.Rarity != "" {
		typeText += " · " + string(c.Rarity)
	}
	lineH := int(5 * FacePxPerMM * l.scale)
	typeLine := image.Rect(box.Min.X, box.Min.Y, box.Max.X, box.Min.Y+lineH)
	right := typeLine.Max.X - int(6*l.scale)
	if c.Type != models.Site || c.Token {
		right = drawThresholds(img, c.Thresholds, typeLine, l.scale)
	}
	drawFitted(img, fonts, typeText, typeLine.Min.X+int(8*l.scale), typeLine.Min.Y+lineH/2, right-typeLine.Min.X-int(10*l.scale), float64(lineH)*0.62, inkColour)
	fillRect(img, image.Rect(box.Min.X+int(8*l.scale), typeLine.Max.Y, box.Max.X-int(8*l.scale), typeLine.Max.Y+max(1, int(l.scale*2))), inkColour)
	textPx := 20 * l.scale
	drawWrapped(img, fonts.face(false, textPx), c.RulesText, image.Rect(box.Min.X, typeLine.Max.Y, box.Max.X, box.Max.Y).Inset(int(8*l.scale)), inkColour)
	return img
}
