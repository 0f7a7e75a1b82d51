package synth

import (
	"image"
	"math"

	"github.com/tablecam/tablecam/models"
)

// mipFace is a card's upright face at several resolutions.
type mipFace struct {
	levels  []*image.RGBA
	pxPerMM []float64
	wMM     float64
	hMM     float64
}

func newMipFace(face *image.RGBA, wMM, hMM float64) *mipFace {
	m := &mipFace{wMM: wMM, hMM: hMM}
	cur := face
	for {
		m.levels = append(m.levels, cur)
		m.pxPerMM = append(m.pxPerMM, float64(cur.Bounds().Dx())/wMM)
		if cur.Bounds().Dx() < 64 || len(m.levels) == 4 {
			break
		}
		cur = halve(cur)
	}
	return m
}

// halve downsamples by two with a 2×2 box filter.
func halve(src *image.RGBA) *image.RGBA {
	w, h := src.Bounds().Dx()/2, src.Bounds().Dy()/2
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			i := src.PixOffset(2*x, 2*y)
			j := i + src.Stride
			o := dst.PixOffset(x, y)
			for c := 0; c < 4; c++ {
				dst.Pix[o+c] = uint8((int(src.Pix[i+c]) + int(src.Pix[i+4+c]) + int(src.Pix[j+c]) + int(src.Pix[j+4+c]) + 2) / 4)
			}
		}
	}
	return dst
}

// sprite is one card lying on the mat.
type sprite struct {
	card  *models.Card
	face  *mipFace
	level int
	// Placement in mat mm: centre, clockwise turn in degrees (from upright
	// for the south player, seen from above with north up).
	cx, cy, angle float64
	owner         models.Player
	rotation      int // 0, 90, 180, 270
	tapped        bool
	cell          *models.Cell
	imageTurn     int
	// Derived.
	rx, ry, ux, uy         float64 // unit vectors of the face's right and up
	minX, minY, maxX, maxY float64
	radius                 float64
}

func (s *sprite) prepare() {
	a := s.angle * math.Pi / 180
	s.ux, s.uy = math.Sin(a), math.Cos(a)
	s.rx, s.ry = math.Cos(a), -math.Sin(a)
	s.minX, s.minY, s.maxX, s.maxY = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range s.cornersMM() {
		s.minX, s.maxX = math.Min(s.minX, p.X), math.Max(s.maxX, p.X)
		s.minY, s.maxY = math.Min(s.minY, p.Y), math.Max(s.maxY, p.Y)
	}
	s.radius = 3.2 * math.Min(s.face.wMM, s.face.hMM) / models.CardShortMM
}

// cornersMM gives the face's corners in mat mm: top-left, then clockwise.
func (s *sprite) cornersMM() [4]models.Point {
	hw, hh := s.face.wMM/2, s.face.hMM/2
	pt := func(a, b float64) models.Point {
		return models.Point{X: s.cx + a*s.rx + b*s.ux, Y: s.cy + a*s.ry + b*s.uy}
	}
	return [4]models.Point{pt(-hw, hh), pt(hw, hh), pt(hw, -hh), pt(-hw, -hh)}
}

// local gives face coordinates in mm from the face's centre, a to the right
// and b up.
func (s *sprite) local(x, y float64) (a, b float64) {
	dx, dy := x-s.cx, y-s.cy
	return dx*s.rx + dy*s.ry, dx*s.ux + dy*s.uy
}

// contains reports whether the mat point lies on the card (rounded corners).
func (s *sprite) contains(x, y float64) bool {
	if x < s.minX || x > s.maxX || y < s.minY || y > s.maxY {
		return false
	}
	a, b := s.local(x, y)
	return insideRoundRect(a, b, s.face.wMM/2, s.face.hMM/2, s.radius)
}

func insideRoundRect(a, b, hw, hh, r float64) bool {
	a, b = math.Abs(a), math.Abs(b)
	if a > hw || b > hh {
		return false
	}
	if a <= hw-r || b <= hh-r {
		return true
	}
	dx, dy := a-(hw-r), b-(hh-r)
	return dx*dx+dy*dy <= r*r
}

// sample gives the face colour at a mat point (premultiplied alpha 0–255).
func (s *sprite) sample(x, y float64) (r, g, b, alpha float64) {
	a, bb := s.local(x, y)
	img := s.face.levels[s.level]
	k := s.face.pxPerMM[s.level]
	fx := (a+s.face.wMM/2)*k - 0.5
	fy := (s.face.hMM/2-bb)*k - 0.5
	return bilinear(img, fx, fy)
}

// bilinear samples an RGBA image at a sub-pixel position, clamping at the edges.
func bilinear(img *image.RGBA, fx, fy float64) (r, g, b, a float64) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	x0f, y0f := math.Floor(fx), math.Floor(fy)
	u, v := fx-x0f, fy-y0f
	x0, y0 := int(x0f), int(y0f)
	x1, y1 := x0+1, y0+1
	x0, x1 = clampInt(x0, 0, w-1), clampInt(x1, 0, w-1)
	y0, y1 = clampInt(y0, 0, h-1), clampInt(y1, 0, h-1)
	p := img.Pix
	i00, i10 := y0*img.Stride+x0*4, y0*img.Stride+x1*4
	i01, i11 := y1*img.Stride+x0*4, y1*img.Stride+x1*4
	w00, w10, w01, w11 := (1-u)*(1-v), u*(1-v), (1-u)*v, u*v
	r = w00*float64(p[i00]) + w10*float64(p[i10]) + w01*float64(p[i01]) + w11*float64(p[i11])
	g = w00*float64(p[i00+1]) + w10*float64(p[i10+1]) + w01*float64(p[i01+1]) + w11*float64(p[i11+1])
	b = w00*float64(p[i00+2]) + w10*float64(p[i10+2]) + w01*float64(p[i01+2]) + w11*float64(p[i11+2])
	a = w00*float64(p[i00+3]) + w10*float64(p[i10+3]) + w01*float64(p[i01+3]) + w11*float64(p[i11+3])
	return
}

func clampInt(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

// wrapSample samples a wrapped texture (nearest neighbour is enough for the table).
func wrapSample(img *image.RGBA, fx, fy float64) (r, g, b float64) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	x := int(math.Floor(fx)) % w
	y := int(math.Floor(fy)) % h
	if x < 0 {
		x += w
	}
	if y < 0 {
		y += h
	}
	i := y*img.Stride + x*4
	return float64(img.Pix[i]), float64(img.Pix[i+1]), float64(img.Pix[i+2])
}
