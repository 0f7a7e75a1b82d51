package ui

import (
	"image"
	"math"

	"github.com/tablecam/tablecam/models"
)

// elementIcon draws an element's alchemical symbol centred on c with radius r:
// fire ▲, air ▲ crossed by a bar, water ▼, earth ▼ crossed by a bar.
// Lit icons are drawn in the element's colour, unlit ones in a faint grey.
func (p *Painter) elementIcon(e models.Element, c pt, r float64, lit bool) {
	col := ElementColor(e)
	if !lit {
		col = colFaint
	}
	up := e == models.Fire || e == models.Air
	h := r * 1.7
	w := h * 1.15
	top, bot := c.Y-h/2, c.Y+h/2
	var tri []pt
	if up {
		tri = []pt{{c.X, top}, {c.X + w/2, bot}, {c.X - w/2, bot}}
	} else {
		tri = []pt{{c.X - w/2, top}, {c.X + w/2, top}, {c.X, bot}}
	}
	lw := math.Max(1.5, r/4.5)
	fill := withAlpha(col, 110)
	if !lit {
		fill = withAlpha(col, 40)
	}
	p.cv.polygon(tri, fill)
	p.cv.stroke(tri, true, lw, col)
	if e == models.Air || e == models.Earth {
		y := c.Y + h*0.12
		if !up {
			y = c.Y - h*0.12
		}
		p.cv.line(pt{c.X - w*0.42, y}, pt{c.X + w*0.42, y}, lw, col)
	}
}

// paintAffinity draws the four element icons with their counts in rects.
func (p *Painter) paintAffinity(l Layout, h HUDLayout, aff models.Thresholds, size float64) {
	f := p.face(bold, l, size)
	for i, e := range models.Elements {
		r := h.Icons[i]
		n := aff.Get(e)
		rad := float64(r.Dy()) * 0.36
		c := pt{float64(r.Min.X) + rad*1.2 + 2, float64(r.Min.Y+r.Max.Y) / 2}
		p.elementIcon(e, c, rad, n > 0)
		col := colText
		if n == 0 {
			col = colFaint
		}
		p.cv.text(f, int(c.X+rad*1.3), r.Min.Y+(r.Dy()+f.ascent-f.descent)/2, itoa(n), col)
	}
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// AppIcon draws tablecam's icon, size×size pixels: the four element symbols
// on a dark rounded square.
func AppIcon(size int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	p := NewPainter()
	p.cv.dst = img
	fs := float64(size)
	p.cv.roundRect(img.Rect, fs*0.18, colBackground)
	r := fs * 0.16
	for i, e := range models.Elements {
		c := pt{fs * (0.3 + 0.4*float64(i%2)), fs * (0.3 + 0.4*float64(i/2))}
		p.elementIcon(e, c, r, true)
	}
	return img
}
