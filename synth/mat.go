package synth

import (
	"image"
	"image/color"
	"math"
	"math/rand"

	"github.com/tablecam/tablecam/models"
)

// Mat margins around the realm, in millimetres: a 610×360 mm playmat.
const (
	matMarginX = 55.0
	matMarginY = 30.0
	matCorner  = 12.0
	// matPxPerMM is the resolution of the cached mat art.
	matPxPerMM = 2.0
	// tablePxPerMM is the resolution of the cached table texture.
	tablePxPerMM = 1.0
	tableSize    = 1024
)

// matArtVariants is how many distinct mat arts a renderer caches.
const matArtVariants = 6

// gridStyle says how the realm grid is printed on the mat.
type gridStyle struct {
	lineMM, borderMM float64    // line widths of inner lines and the outer border
	ink              color.RGBA // line colour
	alpha            float64    // line opacity, faint lines are ~0.2
	borderless       bool       // the outer border is not printed, only the inner lines
}

// matStyle is the look of one scene's mat and table.
type matStyle struct {
	art        *image.RGBA // mat art, matPxPerMM, origin at the mat's SW corner, row 0 north
	table      *image.RGBA // wrapped table texture
	tableTint  [3]float64
	grid       gridStyle
	matW, matH float64 // mat size mm
}

func randomGridStyle(rng *rand.Rand, variant int) gridStyle {
	inks := []color.RGBA{{235, 230, 215, 255}, {20, 20, 24, 255}, {210, 180, 90, 255}, {160, 200, 230, 255}}
	g := gridStyle{ink: inks[rng.Intn(len(inks))]}
	switch rng.Intn(3) {
	case 0: // faint lines
		g.lineMM = 0.6 + 0.8*rng.Float64()
		g.borderMM = g.lineMM
		g.alpha = 0.18 + 0.2*rng.Float64()
	case 1: // thick borders
		g.lineMM = 1.2 + 1.5*rng.Float64()
		g.borderMM = 3 + 3*rng.Float64()
		g.alpha = 0.6 + 0.35*rng.Float64()
	default:
		g.lineMM = 1 + rng.Float64()
		g.borderMM = 1.5 + 2*rng.Float64()
		g.alpha = 0.4 + 0.4*rng.Float64()
	}
	return g
}

// renderMatArt paints a mat's art: a calm cloth, a painted landscape-like
// wash, or busy art with shapes, chosen by variant.
func renderMatArt(variant int, geom models.RealmGeometry) *image.RGBA {
	rng := rand.New(rand.NewSource(int64(variant)*7919 + 17))
	w := geom.WidthMM() + 2*matMarginX
	h := geom.HeightMM() + 2*matMarginY
	img := image.NewRGBA(image.Rect(0, 0, int(w*matPxPerMM), int(h*matPxPerMM)))
	b := img.Bounds()
	keys := []string{"storm", "tide", "moss", "ash", "lantern", "marsh"}
	pal := makePalette(keys[variant%len(keys)], int64(variant))
	busy := variant%3 == 2
	calm := variant%3 == 0
	noise := newValueNoise(rng, 64)
	contrast := 0.35
	if busy {
		contrast = 1
	}
	if calm {
		contrast = 0.12
	}
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			v := noise.fbm(float64(x), float64(y), 180, 4)
			v = 0.5 + (v-0.5)*2*contrast
			if calm {
				v = 0.3 + (v-0.5)*0.5
			}
			c := pal.at(v)
			// Printed mats are less saturated than card art.
			grey := (float64(c.R) + float64(c.G) + float64(c.B)) / 3
			img.SetRGBA(x, y, color.RGBA{clamp8(grey + (float64(c.R)-grey)*0.55), clamp8(grey + (float64(c.G)-grey)*0.55), clamp8(grey + (float64(c.B)-grey)*0.55), 255})
		}
	}
	if busy {
		// Busy art: shapes and glyph-like marks all over the mat.
		paintShapesOnly(img, image.Rect(0, 0, b.Dx(), b.Dy()), pal, rng)
	}
	return img
}

// paintShapesOnly scatters large translucent-looking shapes for busy mats.
func paintShapesOnly(img *image.RGBA, r image.Rectangle, pal palette, rng *rand.Rand) {
	n := 60
	for i := 0; i < n; i++ {
		cx, cy := float64(r.Dx())*rng.Float64(), float64(r.Dy())*rng.Float64()
		rad := 8 + 70*rng.Float64()
		c := pal.at(rng.Float64())
		ring := rng.Intn(2) == 0
		x0, x1 := int(math.Max(0, cx-rad)), int(math.Min(float64(r.Dx()), cx+rad+1))
		y0, y1 := int(math.Max(0, cy-rad)), int(math.Min(float64(r.Dy()), cy+rad+1))
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				d := math.Hypot(float64(x)-cx, float64(y)-cy)
				if d > rad || ring && d < rad*0.75 {
					continue
				}
				o := img.RGBAAt(x, y)
				img.SetRGBA(x, y, tint(o, c, 0.55))
			}
		}
	}
}

// renderTable paints a wrapped wood-grain table texture.
func renderTable(variant int) *image.RGBA {
	rng := rand.New(rand.NewSource(int64(variant)*104729 + 5))
	img := image.NewRGBA(image.Rect(0, 0, tableSize, tableSize))
	coarse := newValueNoiseRect(rng, 8, 128)
	fine := newValueNoiseRect(rng, 64, 256)
	base := []color.RGBA{{120, 82, 50, 255}, {150, 110, 70, 255}, {90, 90, 92, 255}, {60, 48, 40, 255}}[variant%4]
	for y := 0; y < tableSize; y++ {
		for x := 0; x < tableSize; x++ {
			// Grain: noise stretched along x; the lattices wrap exactly once per tile.
			fx := float64(x) / tableSize
			fy := float64(y) / tableSize
			g := coarse.at(fx*8, fy*128)*0.6 + fine.at(fx*64, fy*256)*0.4
			k := 0.75 + 0.5*g
			img.SetRGBA(x, y, color.RGBA{clamp8(float64(base.R) * k), clamp8(float64(base.G) * k), clamp8(float64(base.B) * k), 255})
		}
	}
	return img
}
