package ui

import (
	"fmt"
	"image"
	"image/color"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// Weight picks the regular or the bold Go font.
type weight int

const (
	regular weight = iota
	bold
)

// parsedFonts holds the two Go fonts, parsed once. sfnt.Font is safe for
// concurrent use; faces made from it are not, so each painter has its own.
var parsedFonts = sync.OnceValue(func() [2]*sfnt.Font {
	var out [2]*sfnt.Font
	for i, ttf := range [][]byte{goregular.TTF, gobold.TTF} {
		f, err := opentype.Parse(ttf)
		if err != nil {
			panic(fmt.Sprintf("ui: bundled Go font: %v", err))
		}
		out[i] = f
	}
	return out
})

// glyph is a rasterized rune: its coverage mask, where the mask sits
// relative to the pen position on the baseline, and the pen advance.
type glyph struct {
	mask    *image.Alpha
	off     image.Point
	advance fixed.Int26_6
}

// face is one font at one pixel size, with a cache of rasterized glyphs.
type face struct {
	face    font.Face
	ascent  int
	descent int
	glyphs  map[rune]*glyph
}

type faceKey struct {
	w    weight
	size int
}

// fonts makes and caches faces by weight and pixel size.
type fonts struct {
	faces map[faceKey]*face
}

func (fs *fonts) get(w weight, size int) *face {
	if size < 6 {
		size = 6
	}
	k := faceKey{w, size}
	if f, ok := fs.faces[k]; ok {
		return f
	}
	if fs.faces == nil {
		fs.faces = map[faceKey]*face{}
	}
	ff, err := opentype.NewFace(parsedFonts()[w], &opentype.FaceOptions{Size: float64(size), DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		panic(fmt.Sprintf("ui: font face at %d px: %v", size, err))
	}
	m := ff.Metrics()
	f := &face{face: ff, ascent: m.Ascent.Ceil(), descent: m.Descent.Ceil(), glyphs: map[rune]*glyph{}}
	fs.faces[k] = f
	return f
}

func (f *face) glyph(r rune) *glyph {
	if g, ok := f.glyphs[r]; ok {
		return g
	}
	dr, mask, mp, adv, ok := f.face.Glyph(fixed.Point26_6{}, r)
	if !ok && r != '?' {
		g := f.glyph('?')
		f.glyphs[r] = g
		return g
	}
	a := image.NewAlpha(image.Rect(0, 0, dr.Dx(), dr.Dy()))
	if mask != nil {
		for y := 0; y < dr.Dy(); y++ {
			for x := 0; x < dr.Dx(); x++ {
				_, _, _, al := mask.At(mp.X+x, mp.Y+y).RGBA()
				a.Pix[y*a.Stride+x] = uint8(al >> 8)
			}
		}
	}
	g := &glyph{mask: a, off: dr.Min, advance: adv}
	f.glyphs[r] = g
	return g
}

// height is the line height of the face.
func (f *face) height() int { return f.ascent + f.descent }

// measure gives the width in pixels of s.
func (f *face) measure(s string) int {
	var w fixed.Int26_6
	prev := rune(-1)
	for _, r := range s {
		if prev >= 0 {
			w += f.face.Kern(prev, r)
		}
		w += f.glyph(r).advance
		prev = r
	}
	return w.Ceil()
}

// text draws s with its baseline at y, starting at x, and returns the x after it.
func (cv *canvas) text(f *face, x, y int, s string, c color.NRGBA) int {
	pen := fixed.I(x)
	prev := rune(-1)
	d := cv.dst
	for _, r := range s {
		if prev >= 0 {
			pen += f.face.Kern(prev, r)
		}
		g := f.glyph(r)
		ox, oy := pen.Round()+g.off.X, y+g.off.Y
		gb := g.mask.Rect.Add(image.Pt(ox, oy))
		clip := gb.Intersect(d.Rect)
		for py := clip.Min.Y; py < clip.Max.Y; py++ {
			mrow := g.mask.Pix[(py-oy)*g.mask.Stride:]
			for px := clip.Min.X; px < clip.Max.X; px++ {
				if m := mrow[px-ox]; m != 0 {
					blendPixel(d.Pix, d.PixOffset(px, py), c, uint32(m))
				}
			}
		}
		pen += g.advance
		prev = r
	}
	return pen.Ceil()
}

// align says where a text box anchors its string.
type align int

const (
	alignLeft align = iota
	alignCenter
	alignRight
)

// textIn draws s vertically centred in r, aligned horizontally, cut with an
// ellipsis when it does not fit.
func (cv *canvas) textIn(f *face, r image.Rectangle, s string, a align, c color.NRGBA) {
	s = fit(f, s, r.Dx())
	w := f.measure(s)
	x := r.Min.X
	switch a {
	case alignCenter:
		x = r.Min.X + (r.Dx()-w)/2
	case alignRight:
		x = r.Max.X - w
	}
	y := r.Min.Y + (r.Dy()+f.ascent-f.descent)/2
	cv.text(f, x, y, s, c)
}

// textShadow draws s with a dark drop shadow, for text over camera images.
func (cv *canvas) textShadow(f *face, x, y int, s string, c color.NRGBA) int {
	sh := color.NRGBA{0, 0, 0, c.A * 3 / 4}
	cv.text(f, x+1, y+1, s, sh)
	cv.text(f, x+2, y+2, s, color.NRGBA{0, 0, 0, c.A / 3})
	return cv.text(f, x, y, s, c)
}

// fit cuts s so it is at most width pixels wide, ending it with "…".
func fit(f *face, s string, width int) string {
	if f.measure(s) <= width {
		return s
	}
	rs := []rune(s)
	for len(rs) > 0 {
		rs = rs[:len(rs)-1]
		t := string(rs) + "…"
		if f.measure(t) <= width {
			return t
		}
	}
	return ""
}
