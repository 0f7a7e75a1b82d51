package synth

import (
	"image"
	"image/color"
	"math"
	"math/rand"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// palette is a ramp of colour stops that a card's art is painted from.
type palette []color.RGBA

// at interpolates the ramp at t in [0,1].
func (p palette) at(t float64) color.RGBA {
	if t <= 0 {
		return p[0]
	}
	if t >= 1 {
		return p[len(p)-1]
	}
	f := t * float64(len(p)-1)
	i := int(f)
	u := f - float64(i)
	a, b := p[i], p[i+1]
	return color.RGBA{
		R: uint8(float64(a.R)*(1-u) + float64(b.R)*u),
		G: uint8(float64(a.G)*(1-u) + float64(b.G)*u),
		B: uint8(float64(a.B)*(1-u) + float64(b.B)*u),
		A: 255,
	}
}

// baseHues gives each palette key a family of hues (degrees) so that the
// sample cards look element-themed; several cards share each key.
var baseHues = map[string][2]float64{
	"ember":   {8, 38},
	"ash":     {0, 25},
	"storm":   {250, 290},
	"tide":    {195, 225},
	"lantern": {170, 48},
	"marsh":   {95, 150},
	"moss":    {80, 120},
	"quarry":  {30, 45},
	"sky":     {190, 215},
}

// makePalette builds a five-stop ramp for a palette key. The seed varies
// lightness and saturation a little; cards with the same key stay alike.
func makePalette(key string, seed int64) palette {
	rng := rand.New(rand.NewSource(seed ^ int64(hashString(key))))
	hues, ok := baseHues[key]
	if !ok {
		hues = [2]float64{rng.Float64() * 360, rng.Float64() * 360}
	}
	sat := 0.45 + 0.3*rng.Float64()
	if key == "quarry" || key == "ash" {
		sat *= 0.5
	}
	p := make(palette, 5)
	for i := range p {
		t := float64(i) / 4
		h := hues[0] + (hues[1]-hues[0])*t + (rng.Float64()-0.5)*14
		l := 0.12 + 0.72*t + (rng.Float64()-0.5)*0.08
		s := sat * (1 - 0.4*t*t)
		p[i] = hsl(h, s, l)
	}
	return p
}

// hsl converts hue (degrees), saturation and lightness in [0,1] to RGBA.
func hsl(h, s, l float64) color.RGBA {
	h = math.Mod(h, 360)
	if h < 0 {
		h += 360
	}
	c := (1 - math.Abs(2*l-1)) * s
	x := c * (1 - math.Abs(math.Mod(h/60, 2)-1))
	m := l - c/2
	var r, g, b float64
	switch {
	case h < 60:
		r, g, b = c, x, 0
	case h < 120:
		r, g, b = x, c, 0
	case h < 180:
		r, g, b = 0, c, x
	case h < 240:
		r, g, b = 0, x, c
	case h < 300:
		r, g, b = x, 0, c
	default:
		r, g, b = c, 0, x
	}
	return color.RGBA{R: clamp8((r + m) * 255), G: clamp8((g + m) * 255), B: clamp8((b + m) * 255), A: 255}
}

func clamp8(v float64) uint8 {
	if v <= 0 {
		return 0
	}
	if v >= 255 {
		return 255
	}
	return uint8(v + 0.5)
}

// hashString is FNV-1a, used to derive per-card seeds from names.
func hashString(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// valueNoise is a lattice of random values, smoothly interpolated.
type valueNoise struct {
	size, sizeY int
	v           []float64
}

func newValueNoise(rng *rand.Rand, size int) *valueNoise {
	return newValueNoiseRect(rng, size, size)
}

// newValueNoiseRect makes a lattice that wraps after sx cells across and sy down.
func newValueNoiseRect(rng *rand.Rand, sx, sy int) *valueNoise {
	n := &valueNoise{size: sx, sizeY: sy, v: make([]float64, sx*sy)}
	for i := range n.v {
		n.v[i] = rng.Float64()
	}
	return n
}

func (n *valueNoise) at(x, y float64) float64 {
	fx, fy := math.Floor(x), math.Floor(y)
	ix, iy := int(fx), int(fy)
	u, v := x-fx, y-fy
	u = u * u * (3 - 2*u)
	v = v * v * (3 - 2*v)
	m, my := n.size, n.sizeY
	i0, i1 := ((ix%m)+m)%m, (((ix+1)%m)+m)%m
	j0, j1 := ((iy%my)+my)%my, (((iy+1)%my)+my)%my
	a := n.v[j0*m+i0]*(1-u) + n.v[j0*m+i1]*u
	b := n.v[j1*m+i0]*(1-u) + n.v[j1*m+i1]*u
	return a*(1-v) + b*v
}

// fbm sums octaves of noise; scale is the coarsest feature size in pixels.
func (n *valueNoise) fbm(x, y, scale float64, octaves int) float64 {
	sum, amp, norm := 0.0, 1.0, 0.0
	f := 1 / scale
	for o := 0; o < octaves; o++ {
		sum += amp * n.at(x*f+float64(o)*17.3, y*f+float64(o)*5.1)
		norm += amp
		amp *= 0.55
		f *= 2.1
	}
	return sum / norm
}

// paintArt fills r of dst with procedural art: posterized fractal noise,
// a band of stripes, random shapes and scattered glyphs, all from the
// palette. The texture has structure at several scales so that feature
// detectors find many keypoints.
func paintArt(dst *image.RGBA, r image.Rectangle, pal palette, rng *rand.Rand, glyphFace func(px float64) font.Face) {
	w, h := float64(r.Dx()), float64(r.Dy())
	noise := newValueNoise(rng, 64)
	warp := newValueNoise(rng, 64)
	levels := 7 + rng.Intn(5)
	scale := w * (0.25 + 0.25*rng.Float64())
	invert := rng.Intn(2) == 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			fx, fy := float64(x-r.Min.X), float64(y-r.Min.Y)
			dx := (warp.fbm(fx, fy, scale, 3) - 0.5) * scale * 0.8
			v := noise.fbm(fx+dx, fy-dx, scale, 5)
			v = (v - 0.25) / 0.5
			v = math.Floor(v*float64(levels)) / float64(levels-1)
			if invert {
				v = 1 - v
			}
			dst.SetRGBA(x, y, pal.at(v))
		}
	}

	var ras vector.Rasterizer
	fill := func(c color.RGBA) {
		ras.Draw(dst, r, image.NewUniform(c), image.Point{})
	}
	// The rasterizer works in the art rectangle's own coordinates.
	reset := func() { ras.Reset(r.Dx(), r.Dy()) }
	ox, oy := float32(0), float32(0)
	pick := func() color.RGBA { return pal.at(rng.Float64()) }

	// A band of stripes at a random angle.
	{
		reset()
		ang := rng.Float64() * math.Pi
		period := 6 + rng.Float64()*18
		cx, cy := w*rng.Float64(), h*rng.Float64()
		half := math.Max(w, h)
		dirX, dirY := math.Cos(ang), math.Sin(ang)
		nX, nY := -dirY, dirX
		bandW := w * (0.15 + 0.25*rng.Float64())
		for off := -bandW; off < bandW; off += 2 * period {
			x0, y0 := cx+nX*off, cy+nY*off
			pts := [4][2]float64{
				{x0 - dirX*half, y0 - dirY*half},
				{x0 + dirX*half, y0 + dirY*half},
				{x0 + dirX*half + nX*period, y0 + dirY*half + nY*period},
				{x0 - dirX*half + nX*period, y0 - dirY*half + nY*period},
			}
			ras.MoveTo(ox+float32(pts[0][0]), oy+float32(pts[0][1]))
			for _, p := range pts[1:] {
				ras.LineTo(ox+float32(p[0]), oy+float32(p[1]))
			}
			ras.ClosePath()
		}
		fill(pick())
	}

	// Random shapes at several scales.
	shapes := 18 + rng.Intn(14)
	for i := 0; i < shapes; i++ {
		reset()
		size := w * (0.02 + 0.22*math.Pow(rng.Float64(), 2))
		cx, cy := w*rng.Float64(), h*rng.Float64()
		switch rng.Intn(4) {
		case 0: // disc
			addEllipse(&ras, ox+float32(cx), oy+float32(cy), float32(size), float32(size*(0.6+0.8*rng.Float64())))
		case 1: // ring
			addEllipse(&ras, ox+float32(cx), oy+float32(cy), float32(size), float32(size))
			addEllipseReverse(&ras, ox+float32(cx), oy+float32(cy), float32(size*0.6), float32(size*0.6))
		case 2: // polygon
			n := 3 + rng.Intn(4)
			rot := rng.Float64() * 2 * math.Pi
			for k := 0; k < n; k++ {
				a := rot + 2*math.Pi*float64(k)/float64(n)
				rr := size * (0.6 + 0.6*rng.Float64())
				px, py := ox+float32(cx+rr*math.Cos(a)), oy+float32(cy+rr*math.Sin(a))
				if k == 0 {
					ras.MoveTo(px, py)
				} else {
					ras.LineTo(px, py)
				}
			}
			ras.ClosePath()
		default: // zigzag ribbon
			n := 4 + rng.Intn(5)
			ang := rng.Float64() * math.Pi
			step := size * 0.7
			th := size * 0.25
			var top, bot [][2]float64
			for k := 0; k <= n; k++ {
				along := float64(k) * step
				zig := th * 2 * float64(k%2)
				px := cx + math.Cos(ang)*along - math.Sin(ang)*zig
				py := cy + math.Sin(ang)*along + math.Cos(ang)*zig
				top = append(top, [2]float64{px, py})
				bot = append(bot, [2]float64{px - math.Sin(ang)*th, py + math.Cos(ang)*th})
			}
			ras.MoveTo(ox+float32(top[0][0]), oy+float32(top[0][1]))
			for _, p := range top[1:] {
				ras.LineTo(ox+float32(p[0]), oy+float32(p[1]))
			}
			for k := len(bot) - 1; k >= 0; k-- {
				ras.LineTo(ox+float32(bot[k][0]), oy+float32(bot[k][1]))
			}
			ras.ClosePath()
		}
		fill(pick())
	}

	// Fine marks: small dots, dashes and crosses give texture at the finest scale.
	marks := 120 + rng.Intn(120)
	reset()
	for i := 0; i < marks; i++ {
		cx, cy := float32(w*rng.Float64()), float32(h*rng.Float64())
		s := float32(w * (0.004 + 0.012*rng.Float64()))
		switch rng.Intn(3) {
		case 0:
			addEllipse(&ras, cx, cy, s, s)
		case 1:
			ras.MoveTo(cx-3*s, cy-s/2)
			ras.LineTo(cx+3*s, cy-s/2)
			ras.LineTo(cx+3*s, cy+s/2)
			ras.LineTo(cx-3*s, cy+s/2)
			ras.ClosePath()
		default:
			ras.MoveTo(cx-s/2, cy-3*s)
			ras.LineTo(cx+s/2, cy-3*s)
			ras.LineTo(cx+s/2, cy+3*s)
			ras.LineTo(cx-s/2, cy+3*s)
			ras.ClosePath()
			ras.MoveTo(cx-3*s, cy-s/2)
			ras.LineTo(cx+3*s, cy-s/2)
			ras.LineTo(cx+3*s, cy+s/2)
			ras.LineTo(cx-3*s, cy+s/2)
			ras.ClosePath()
		}
		if i%40 == 39 {
			fill(pick())
			reset()
		}
	}
	fill(pick())

	// Scattered glyphs.
	const glyphs = "ΓΔΘΛΞΠΣΦΨΩβδζθλξψωЖЯЮФБДABCDEFGHJKLMNPQRSTUVWXYZ#%&@$*+?"
	runes := []rune(glyphs)
	n := 8 + rng.Intn(10)
	for i := 0; i < n; i++ {
		px := w * (0.04 + 0.09*rng.Float64())
		face := glyphFace(px)
		d := font.Drawer{Dst: dst, Src: image.NewUniform(pick()), Face: face}
		d.Dot = fixed.P(r.Min.X+int(w*rng.Float64()*0.9), r.Min.Y+int(h*rng.Float64()*0.9+px*0.5))
		k := 1 + rng.Intn(3)
		s := make([]rune, k)
		for j := range s {
			s[j] = runes[rng.Intn(len(runes))]
		}
		clipped := &clipDst{RGBA: dst, clip: r}
		d.Dst = clipped
		d.DrawString(string(s))
	}
}

// clipDst restricts drawing to a rectangle.
type clipDst struct {
	*image.RGBA
	clip image.Rectangle
}

func (c *clipDst) Set(x, y int, col color.Color) {
	if image.Pt(x, y).In(c.clip) {
		c.RGBA.Set(x, y, col)
	}
}

func (c *clipDst) Bounds() image.Rectangle { return c.clip }

// addEllipse adds a closed ellipse path (clockwise) to the rasterizer.
func addEllipse(r *vector.Rasterizer, cx, cy, rx, ry float32) {
	const k = 0.5523 // cubic Bézier circle constant
	r.MoveTo(cx+rx, cy)
	r.CubeTo(cx+rx, cy+ry*k, cx+rx*k, cy+ry, cx, cy+ry)
	r.CubeTo(cx-rx*k, cy+ry, cx-rx, cy+ry*k, cx-rx, cy)
	r.CubeTo(cx-rx, cy-ry*k, cx-rx*k, cy-ry, cx, cy-ry)
	r.CubeTo(cx+rx*k, cy-ry, cx+rx, cy-ry*k, cx+rx, cy)
	r.ClosePath()
}

// addEllipseReverse adds the ellipse counter-clockwise, cutting a hole.
func addEllipseReverse(r *vector.Rasterizer, cx, cy, rx, ry float32) {
	const k = 0.5523
	r.MoveTo(cx+rx, cy)
	r.CubeTo(cx+rx, cy-ry*k, cx+rx*k, cy-ry, cx, cy-ry)
	r.CubeTo(cx-rx*k, cy-ry, cx-rx, cy-ry*k, cx-rx, cy)
	r.CubeTo(cx-rx, cy+ry*k, cx-rx*k, cy+ry, cx, cy+ry)
	r.CubeTo(cx+rx*k, cy+ry, cx+rx, cy+ry*k, cx+rx, cy)
	r.ClosePath()
}
