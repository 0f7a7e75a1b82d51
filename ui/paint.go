package ui

import (
	"image"
	"math"

	xdraw "golang.org/x/image/draw"

	"github.com/tablecam/tablecam/models"
)

// Painter draws overlay frames. It keeps its fonts and glyphs between frames,
// so reuse one painter for a stream of frames. A Painter is not safe for
// concurrent use.
type Painter struct {
	fonts  fonts
	cv     canvas
	scaler scaler
}

// NewPainter makes a painter.
func NewPainter() *Painter { return &Painter{} }

// Paint draws the whole overlay for v into dst with a new painter. Use a
// Painter to draw many frames: it keeps its glyphs.
func Paint(dst *image.RGBA, v View) { NewPainter().Paint(dst, v) }

// Paint draws the whole overlay for v into dst.
func (p *Painter) Paint(dst *image.RGBA, v View) {
	p.cv.dst = dst
	l := LayoutFor(dst.Rect, v)
	if v.Mode == Stream {
		p.paintStream(l, v)
		return
	}
	p.cv.clear(dst.Rect, colBackground)
	p.paintPicture(l, v)
	p.paintBoard(l, v)
	p.paintDeathBanners(l, v)
	p.paintTopBar(l, v)
	p.paintBottomBar(l, v)
	p.paintSidebar(l, v)
	p.paintWarningList(l, v)
	p.paintHover(l, v)
	p.paintCalibrating(l, v)
	p.paintCorrecting(l, v)
	p.paintMessage(l, v)
	if v.Help {
		p.paintHelp(l)
	}
}

func (p *Painter) face(w weight, l Layout, size float64) *face {
	return p.fonts.get(w, scaled(l.Scale, size))
}

// paintPicture draws the camera image, the rectified realm or the schematic board.
func (p *Painter) paintPicture(l Layout, v View) {
	img := v.Update.Image
	switch {
	case !l.Image.Empty() && img != nil:
		p.scaler.scale(p.cv.dst, l.Image, img)
	case !l.Board.Empty() && img != nil && l.hasRealm:
		p.warpRealm(l, img)
	case !l.Board.Empty():
		p.cv.roundRect(l.Board.Inset(-scaled(l.Scale, 8)), 10*l.Scale, colFelt)
		for _, c := range models.AllCells() {
			q := l.Cells[c.Index()]
			in := scaled(l.Scale, 3)
			r := image.Rect(int(q[3].X)+in, int(q[3].Y)+in, int(q[1].X)-in, int(q[1].Y)-in)
			p.cv.roundRect(r, 6*l.Scale, colFeltCell)
		}
	}
	if img == nil {
		f := p.face(regular, l, 15)
		msg := "no camera image"
		if v.Update.Status != "" {
			msg = v.Update.Status
		}
		p.cv.textIn(f, image.Rect(l.Picture.Min.X, l.Picture.Min.Y, l.Picture.Max.X, l.Board.Min.Y), msg, alignCenter, colDim)
	}
}

// warpRealm draws the realm of the camera image top-down into l.Board.
func (p *Painter) warpRealm(l Layout, img image.Image) {
	rgba, ok := img.(*image.RGBA)
	if !ok {
		rgba = image.NewRGBA(img.Bounds())
		xdraw.Draw(rgba, rgba.Rect, img, img.Bounds().Min, xdraw.Src)
	}
	g := models.DefaultRealm()
	b := l.Board
	mmPerPx := g.WidthMM() / float64(b.Dx())
	h := l.realmToImage
	dst := p.cv.dst
	sb := rgba.Rect
	for y := b.Min.Y; y < b.Max.Y; y++ {
		my := g.HeightMM() - (float64(y-b.Min.Y)+0.5)*mmPerPx
		// Along a row the source point moves on a line in homogeneous
		// coordinates, so step the numerators and the denominator.
		mx0 := 0.5 * mmPerPx
		nx := h[0]*mx0 + h[1]*my + h[2]
		ny := h[3]*mx0 + h[4]*my + h[5]
		nw := h[6]*mx0 + h[7]*my + h[8]
		dnx, dny, dnw := h[0]*mmPerPx, h[3]*mmPerPx, h[6]*mmPerPx
		off := dst.PixOffset(b.Min.X, y)
		for x := b.Min.X; x < b.Max.X; x++ {
			sx, sy := int(nx/nw), int(ny/nw)
			if sx >= sb.Min.X && sx < sb.Max.X && sy >= sb.Min.Y && sy < sb.Max.Y {
				si := rgba.PixOffset(sx, sy)
				copy(dst.Pix[off:off+4], rgba.Pix[si:si+4])
			}
			off += 4
			nx, ny, nw = nx+dnx, ny+dny, nw+dnw
		}
	}
}

// pulse is a 0–1 wave at hz cycles per second of the view's clock.
func pulse(v View, hz float64) float64 { return 0.5 + 0.5*math.Sin(2*math.Pi*hz*v.Now) }
