package ui

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"golang.org/x/image/vector"
)

// pt is a point in screen pixels, with sub-pixel precision.
type pt struct{ X, Y float64 }

// canvas draws shapes and text onto one RGBA image. It is not safe for
// concurrent use: it reuses its rasterizer between shapes.
type canvas struct {
	dst  *image.RGBA
	ras  *vector.Rasterizer
	mask image.Alpha // coverage of the shape being filled, reused
}

// blendPixel draws colour c with extra coverage m (0–255) over the pixel at
// offset i of pix. pix is premultiplied (image.RGBA); c is not.
func blendPixel(pix []uint8, i int, c color.NRGBA, m uint32) {
	a := uint32(c.A) * m / 255
	if a == 0 {
		return
	}
	inv := 255 - a
	pix[i+0] = uint8((uint32(c.R)*a + uint32(pix[i+0])*inv) / 255)
	pix[i+1] = uint8((uint32(c.G)*a + uint32(pix[i+1])*inv) / 255)
	pix[i+2] = uint8((uint32(c.B)*a + uint32(pix[i+2])*inv) / 255)
	pix[i+3] = uint8(a + uint32(pix[i+3])*inv/255)
}

// fillRect blends c over r.
func (cv *canvas) fillRect(r image.Rectangle, c color.NRGBA) {
	r = r.Intersect(cv.dst.Rect)
	if r.Empty() || c.A == 0 {
		return
	}
	d := cv.dst
	if c.A == 255 {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			row := d.Pix[d.PixOffset(r.Min.X, y):d.PixOffset(r.Max.X, y)]
			for i := 0; i < len(row); i += 4 {
				row[i], row[i+1], row[i+2], row[i+3] = c.R, c.G, c.B, 255
			}
		}
		return
	}
	a := uint32(c.A)
	inv := 255 - a
	pr, pg, pb := uint32(c.R)*a, uint32(c.G)*a, uint32(c.B)*a
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := d.Pix[d.PixOffset(r.Min.X, y):d.PixOffset(r.Max.X, y)]
		for i := 0; i < len(row); i += 4 {
			row[i+0] = uint8((pr + uint32(row[i+0])*inv) / 255)
			row[i+1] = uint8((pg + uint32(row[i+1])*inv) / 255)
			row[i+2] = uint8((pb + uint32(row[i+2])*inv) / 255)
			row[i+3] = uint8(a + uint32(row[i+3])*inv/255)
		}
	}
}

// clear sets every pixel of r to c exactly (no blending), for backgrounds
// that may be transparent.
func (cv *canvas) clear(r image.Rectangle, c color.NRGBA) {
	r = r.Intersect(cv.dst.Rect)
	p := color.RGBAModel.Convert(c).(color.RGBA)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := cv.dst.Pix[cv.dst.PixOffset(r.Min.X, y):cv.dst.PixOffset(r.Max.X, y)]
		for i := 0; i < len(row); i += 4 {
			row[i], row[i+1], row[i+2], row[i+3] = p.R, p.G, p.B, p.A
		}
	}
}

// path is a list of closed sub-paths, in screen pixels.
type path [][]pt

func (p path) bounds() image.Rectangle {
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for _, sub := range p {
		for _, q := range sub {
			minX, minY = math.Min(minX, q.X), math.Min(minY, q.Y)
			maxX, maxY = math.Max(maxX, q.X), math.Max(maxY, q.Y)
		}
	}
	if minX > maxX {
		return image.Rectangle{}
	}
	return image.Rect(int(math.Floor(minX)), int(math.Floor(minY)), int(math.Ceil(maxX))+1, int(math.Ceil(maxY))+1)
}

// fill draws the anti-aliased union of the sub-paths in colour c. The
// rasterizer writes a coverage mask; only covered pixels are blended.
func (cv *canvas) fill(p path, c color.NRGBA) {
	if c.A == 0 {
		return
	}
	r := p.bounds().Intersect(cv.dst.Rect)
	if r.Empty() {
		return
	}
	if cv.ras == nil {
		cv.ras = vector.NewRasterizer(r.Dx(), r.Dy())
	} else {
		cv.ras.Reset(r.Dx(), r.Dy())
	}
	cv.ras.DrawOp = draw.Src
	ox, oy := float64(r.Min.X), float64(r.Min.Y)
	for _, sub := range p {
		if len(sub) < 3 {
			continue
		}
		cv.ras.MoveTo(float32(sub[0].X-ox), float32(sub[0].Y-oy))
		for _, q := range sub[1:] {
			cv.ras.LineTo(float32(q.X-ox), float32(q.Y-oy))
		}
		cv.ras.ClosePath()
	}
	n := r.Dx() * r.Dy()
	if cap(cv.mask.Pix) < n {
		cv.mask.Pix = make([]uint8, n)
	}
	cv.mask.Pix = cv.mask.Pix[:n]
	cv.mask.Stride = r.Dx()
	cv.mask.Rect = image.Rect(0, 0, r.Dx(), r.Dy())
	cv.ras.Draw(&cv.mask, cv.mask.Rect, image.Opaque, image.Point{})
	d := cv.dst
	for y := 0; y < r.Dy(); y++ {
		row := cv.mask.Pix[y*cv.mask.Stride : (y+1)*cv.mask.Stride]
		off := d.PixOffset(r.Min.X, r.Min.Y+y)
		for x, m := range row {
			if m != 0 {
				blendPixel(d.Pix, off+4*x, c, uint32(m))
			}
		}
	}
}

// polygon fills one closed polygon.
func (cv *canvas) polygon(pts []pt, c color.NRGBA) { cv.fill(path{pts}, c) }

// stroke draws the outline of a polyline of width w. Long segments are
// filled on their own and short ones (curves) in groups, so that each
// rasterized shape keeps a small box.
func (cv *canvas) stroke(pts []pt, closed bool, w float64, c color.NRGBA) {
	n := len(pts)
	segs := n - 1
	if closed {
		segs = n
	}
	var group []pt
	flush := func() {
		if len(group) > 1 {
			cv.fill(strokePath(group, false, w), c)
		}
		group = group[:0]
	}
	for i := 0; i < segs; i++ {
		a, b := pts[i], pts[(i+1)%n]
		if math.Hypot(b.X-a.X, b.Y-a.Y) > 24 {
			flush()
			cv.fill(strokePath([]pt{a, b}, false, w), c)
			continue
		}
		if len(group) == 0 {
			group = append(group, a)
		}
		group = append(group, b)
	}
	flush()
}

func strokePath(pts []pt, closed bool, w float64) path {
	var p path
	n := len(pts)
	segs := n - 1
	if closed {
		segs = n
	}
	h := w / 2
	for i := 0; i < segs; i++ {
		a, b := pts[i], pts[(i+1)%n]
		dx, dy := b.X-a.X, b.Y-a.Y
		l := math.Hypot(dx, dy)
		if l == 0 {
			continue
		}
		nx, ny := -dy/l*h, dx/l*h
		ex, ey := dx/l*h, dy/l*h
		// Each segment is extended by half the width so joins overlap.
		p = append(p, []pt{
			{a.X - ex + nx, a.Y - ey + ny}, {b.X + ex + nx, b.Y + ey + ny},
			{b.X + ex - nx, b.Y + ey - ny}, {a.X - ex - nx, a.Y - ey - ny},
		})
	}
	return p
}

// line draws one segment.
func (cv *canvas) line(a, b pt, w float64, c color.NRGBA) { cv.stroke([]pt{a, b}, false, w, c) }

// roundRectPts gives the outline of r with corner radius rad.
func roundRectPts(r image.Rectangle, rad float64) []pt {
	x0, y0, x1, y1 := float64(r.Min.X), float64(r.Min.Y), float64(r.Max.X), float64(r.Max.Y)
	rad = math.Min(rad, math.Min((x1-x0)/2, (y1-y0)/2))
	if rad <= 0.5 {
		return []pt{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}
	}
	const steps = 6
	out := make([]pt, 0, 4*(steps+1))
	corner := func(cx, cy, start float64) {
		for i := 0; i <= steps; i++ {
			t := start + float64(i)/steps*math.Pi/2
			out = append(out, pt{cx + rad*math.Cos(t), cy + rad*math.Sin(t)})
		}
	}
	corner(x1-rad, y0+rad, -math.Pi/2)
	corner(x1-rad, y1-rad, 0)
	corner(x0+rad, y1-rad, math.Pi/2)
	corner(x0+rad, y0+rad, math.Pi)
	return out
}

// roundRect fills r with rounded corners: the straight parts as plain
// rectangles, only the four corners through the rasterizer.
func (cv *canvas) roundRect(r image.Rectangle, rad float64, c color.NRGBA) {
	k := int(math.Ceil(math.Min(rad, float64(min(r.Dx(), r.Dy()))/2)))
	if k <= 1 {
		cv.fillRect(r, c)
		return
	}
	cv.fillRect(image.Rect(r.Min.X+k, r.Min.Y, r.Max.X-k, r.Max.Y), c)
	cv.fillRect(image.Rect(r.Min.X, r.Min.Y+k, r.Min.X+k, r.Max.Y-k), c)
	cv.fillRect(image.Rect(r.Max.X-k, r.Min.Y+k, r.Max.X, r.Max.Y-k), c)
	fk := float64(k)
	x0, y0, x1, y1 := float64(r.Min.X), float64(r.Min.Y), float64(r.Max.X), float64(r.Max.Y)
	quarter := func(cx, cy, start float64) {
		const steps = 8
		pts := []pt{{cx, cy}}
		for i := 0; i <= steps; i++ {
			t := start + float64(i)/steps*math.Pi/2
			pts = append(pts, pt{cx + fk*math.Cos(t), cy + fk*math.Sin(t)})
		}
		cv.polygon(pts, c)
	}
	quarter(x1-fk, y0+fk, -math.Pi/2)
	quarter(x1-fk, y1-fk, 0)
	quarter(x0+fk, y1-fk, math.Pi/2)
	quarter(x0+fk, y0+fk, math.Pi)
}

// circlePts approximates a circle.
func circlePts(c pt, rad float64) []pt {
	n := 12 + int(rad)
	if n > 64 {
		n = 64
	}
	out := make([]pt, n)
	for i := range out {
		t := float64(i) / float64(n) * 2 * math.Pi
		out[i] = pt{c.X + rad*math.Cos(t), c.Y + rad*math.Sin(t)}
	}
	return out
}

// circle fills a disc.
func (cv *canvas) circle(c pt, rad float64, col color.NRGBA) { cv.polygon(circlePts(c, rad), col) }

// ring draws a circle's outline.
func (cv *canvas) ring(c pt, rad, w float64, col color.NRGBA) {
	cv.stroke(circlePts(c, rad), true, w, col)
}
