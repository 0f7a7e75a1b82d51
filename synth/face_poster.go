package synth

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand"

	"github.com/tablecam/tablecam/models"
	"golang.org/x/image/vector"
)

// FaceStyle chooses how RenderCatalog draws the card faces.
type FaceStyle string

const (
	// StyleSample is the sample catalog's look: a framed face with a name
	// banner, busy art, a type line and a text box.
	StyleSample FaceStyle = ""
	// StylePoster draws faces with little texture: flat shapes on a smooth
	// gradient, a name band and no text box. Feature matching finds few
	// keypoints on such faces (as on real art seen out of focus or by a
	// low-resolution camera), so they test the parts of vision that must
	// not depend on texture: finding a card by its outline and naming it by
	// its appearance.
	StylePoster FaceStyle = "poster"
	// StyleFullArt draws faces as Sorcery prints them: the sample look's
	// busy art running to the card's edges with no frame round it, the
	// name on a translucent band and the rules on a translucent box over
	// the art. A card's outline is then only where its art meets the mat.
	StyleFullArt FaceStyle = "fullart"
)

// ParseFaceStyle reads a style's name ("sample", "poster" or "fullart"; "" is sample).
func ParseFaceStyle(s string) (FaceStyle, error) {
	switch s {
	case "", "sample":
		return StyleSample, nil
	case string(StylePoster):
		return StylePoster, nil
	case string(StyleFullArt):
		return StyleFullArt, nil
	}
	return "", fmt.Errorf("synth: unknown face style %q (want sample, poster or fullart)", s)
}

// posterLight is the poster style's pale border and band colour.
var posterLight = color.RGBA{238, 238, 232, 255}

// renderPosterFace draws a card's upright face in StylePoster.
func renderPosterFace(c *models.Card, pal palette, artSeed int64, fonts *faceFonts) *image.RGBA {
	wmm, hmm := FaceSizeMM(c)
	w, h := int(wmm*FacePxPerMM), int(hmm*FacePxPerMM)
	scale := math.Min(wmm, hmm) / models.CardShortMM
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	rng := rand.New(rand.NewSource(artSeed))
	var ras vector.Rasterizer

	// A pale rounded border around the whole face.
	ras.Reset(w, h)
	addRoundRect(&ras, 0, 0, float32(w), float32(h), float32(3*FacePxPerMM*scale))
	ras.Draw(img, img.Bounds(), image.NewUniform(posterLight), image.Point{})

	// The art fills the face inside the border: a smooth two-colour gradient
	// at a random angle...
	b := int(1.8 * FacePxPerMM * scale)
	art := image.Rect(b, b, w-b, h-b)
	c0, c1 := pal.at(0.1+0.3*rng.Float64()), pal.at(0.6+0.35*rng.Float64())
	angle := rng.Float64() * 2 * math.Pi
	ux, uy := math.Cos(angle), math.Sin(angle)
	span := math.Abs(ux)*float64(art.Dx()) + math.Abs(uy)*float64(art.Dy())
	cx, cy := float64(art.Min.X+art.Max.X)/2, float64(art.Min.Y+art.Max.Y)/2
	for y := art.Min.Y; y < art.Max.Y; y++ {
		for x := art.Min.X; x < art.Max.X; x++ {
			t := 0.5 + ((float64(x)-cx)*ux+(float64(y)-cy)*uy)/span
			img.SetRGBA(x, y, tint(c0, c1, t))
		}
	}
	// ...under a few large flat shapes with hard edges.
	shapes := 2 + rng.Intn(4)
	for i := 0; i < shapes; i++ {
		ras.Reset(w, h)
		col := pal.at(rng.Float64())
		if rng.Intn(3) == 0 {
			col = hsl(rng.Float64()*360, 0.5+0.4*rng.Float64(), 0.3+0.4*rng.Float64())
		}
		sx := float32(art.Min.X) + float32(rng.Float64())*float32(art.Dx())
		sy := float32(art.Min.Y) + float32(rng.Float64())*float32(art.Dy())
		size := float32((0.15 + 0.3*rng.Float64()) * float64(min(art.Dx(), art.Dy())))
		switch rng.Intn(3) {
		case 0: // disc
			addEllipse(&ras, sx, sy, size, size)
		case 1: // triangle
			a := rng.Float64() * 2 * math.Pi
			ras.MoveTo(sx+size*float32(math.Cos(a)), sy+size*float32(math.Sin(a)))
			for k := 1; k < 3; k++ {
				ak := a + float64(k)*2*math.Pi/3 + (rng.Float64()-0.5)*0.6
				ras.LineTo(sx+size*float32(math.Cos(ak)), sy+size*float32(math.Sin(ak)))
			}
			ras.ClosePath()
		default: // a band across the art
			a := rng.Float64() * math.Pi
			dx, dy := float32(math.Cos(a))*float32(w+h), float32(math.Sin(a))*float32(w+h)
			nx, ny := -dy/float32(w+h)*size*0.4, dx/float32(w+h)*size*0.4
			ras.MoveTo(sx-dx+nx, sy-dy+ny)
			ras.LineTo(sx+dx+nx, sy+dy+ny)
			ras.LineTo(sx+dx-nx, sy+dy-ny)
			ras.LineTo(sx-dx-nx, sy-dy-ny)
			ras.ClosePath()
		}
		ras.Draw(img, art, image.NewUniform(col), image.Point{})
	}

	// The name on a dark band across the foot of the face (a site's at its
	// top), the cost in a disc at the top right of a spell.
	bandH := int(9 * FacePxPerMM * scale)
	band := image.Rect(art.Min.X, art.Max.Y-bandH, art.Max.X, art.Max.Y)
	if c.Type == models.Site && !c.Token {
		band = image.Rect(art.Min.X, art.Min.Y, art.Max.X, art.Min.Y+bandH)
	}
	fillRect(img, band, tint(frameDark, pal[0], 0.3))
	f := fonts.face(true, float64(bandH)*0.55)
	drawCentered(img, f, c.Name, float64(band.Min.X+band.Max.X)/2, float64(band.Min.Y+band.Max.Y)/2, posterLight)
	if c.Type.IsSpell() && !c.Token {
		d := float32(10 * FacePxPerMM * scale)
		dx, dy := float32(art.Max.X)-d*0.7, float32(art.Min.Y)+d*0.7
		ras.Reset(w, h)
		addEllipse(&ras, dx, dy, d/2, d/2)
		ras.Draw(img, img.Bounds(), image.NewUniform(posterLight), image.Point{})
		drawCentered(img, fonts.face(true, float64(d)*0.6), fmt.Sprint(c.CostOrZero()), float64(dx), float64(dy), inkColour)
	}
	return img
}
