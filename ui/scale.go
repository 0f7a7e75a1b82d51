package ui

import (
	"image"

	xdraw "golang.org/x/image/draw"
)

// scaler resizes camera frames bilinearly into the overlay, reusing its tables.
type scaler struct {
	xs   []int32  // source column of each destination column (times 4, a Pix offset)
	xw   []uint32 // weight of the next column, 0–256
	conv *image.RGBA
}

// scale draws src resized into r of dst. *image.RGBA sources take a fast
// path; other image types are converted first.
func (sc *scaler) scale(dst *image.RGBA, r image.Rectangle, src image.Image) {
	rgba, ok := src.(*image.RGBA)
	if !ok {
		b := src.Bounds()
		if sc.conv == nil || sc.conv.Rect != b {
			sc.conv = image.NewRGBA(b)
		}
		xdraw.Draw(sc.conv, b, src, b.Min, xdraw.Src)
		rgba = sc.conv
	}
	sb := rgba.Rect
	if sb.Dx() < 2 || sb.Dy() < 2 || r.Empty() {
		return
	}
	clip := r.Intersect(dst.Rect)
	w := r.Dx()
	if len(sc.xs) != w {
		sc.xs, sc.xw = make([]int32, w), make([]uint32, w)
	}
	for x := 0; x < w; x++ {
		fx := (float64(x)+0.5)*float64(sb.Dx())/float64(w) - 0.5
		if fx < 0 {
			fx = 0
		}
		ix := int(fx)
		if ix >= sb.Dx()-1 {
			ix, fx = sb.Dx()-2, float64(sb.Dx()-1)
		}
		sc.xs[x] = int32(4 * ix)
		sc.xw[x] = uint32((fx - float64(ix)) * 256)
	}
	for y := clip.Min.Y; y < clip.Max.Y; y++ {
		fy := (float64(y-r.Min.Y)+0.5)*float64(sb.Dy())/float64(r.Dy()) - 0.5
		if fy < 0 {
			fy = 0
		}
		iy := int(fy)
		if iy >= sb.Dy()-1 {
			iy, fy = sb.Dy()-2, float64(sb.Dy()-1)
		}
		wy := uint32((fy - float64(iy)) * 256)
		row0 := rgba.Pix[rgba.PixOffset(sb.Min.X, sb.Min.Y+iy):]
		row1 := rgba.Pix[rgba.PixOffset(sb.Min.X, sb.Min.Y+iy+1):]
		out := dst.Pix[dst.PixOffset(clip.Min.X, y):dst.PixOffset(clip.Max.X, y)]
		x := clip.Min.X - r.Min.X
		for i := 0; i < len(out); i, x = i+4, x+1 {
			sx, wx := sc.xs[x], sc.xw[x]
			a, b := row0[sx:sx+8:sx+8], row1[sx:sx+8:sx+8]
			// Red and blue, then green and alpha, two channels per uint32.
			a0 := uint32(a[0]) | uint32(a[2])<<16
			a1 := uint32(a[4]) | uint32(a[6])<<16
			b0 := uint32(b[0]) | uint32(b[2])<<16
			b1 := uint32(b[4]) | uint32(b[6])<<16
			top := (a0*(256-wx) + a1*wx) >> 8 & 0x00ff00ff
			bot := (b0*(256-wx) + b1*wx) >> 8 & 0x00ff00ff
			rb := (top*(256-wy) + bot*wy) >> 8
			a0 = uint32(a[1]) | uint32(a[3])<<16
			a1 = uint32(a[5]) | uint32(a[7])<<16
			b0 = uint32(b[1]) | uint32(b[3])<<16
			b1 = uint32(b[5]) | uint32(b[7])<<16
			top = (a0*(256-wx) + a1*wx) >> 8 & 0x00ff00ff
			bot = (b0*(256-wx) + b1*wx) >> 8 & 0x00ff00ff
			ga := (top*(256-wy) + bot*wy) >> 8
			out[i], out[i+1], out[i+2], out[i+3] = uint8(rb), uint8(ga), uint8(rb>>16), uint8(ga>>16)
		}
	}
}
