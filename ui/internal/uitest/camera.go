package uitest

import (
	"image"
	"image/color"
	"math"

	"github.com/tablecam/tablecam/models"
)

// Camera draws a w×h stand-in for a camera frame: a wooden table, the mat
// seen at a slant, and a coloured card face for each card of st. It returns
// the image and the realm's corners (A1, E1, E4, A4) in its pixels.
func Camera(w, h int, st models.GameState) (*image.RGBA, models.Quad) {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			grain := 0.5 + 0.5*math.Sin(float64(y)*0.09+math.Sin(float64(x)*0.013)*3)
			r := uint8(110 + 30*grain)
			img.Pix[img.PixOffset(x, y)+0], img.Pix[img.PixOffset(x, y)+1] = r, uint8(float64(r)*0.68)
			img.Pix[img.PixOffset(x, y)+2], img.Pix[img.PixOffset(x, y)+3] = uint8(float64(r)*0.42), 255
		}
	}
	fw, fh := float64(w), float64(h)
	q := models.Quad{{X: fw * 0.12, Y: fh * 0.90}, {X: fw * 0.88, Y: fh * 0.90}, {X: fw * 0.78, Y: fh * 0.12}, {X: fw * 0.22, Y: fh * 0.12}}
	// at maps realm fractions (u east, v north, 0–1) into the image through
	// the perspective that sends the unit square onto q.
	hq, err := models.NewHomography(models.Quad{{X: 0, Y: 0}, {X: 1, Y: 0}, {X: 1, Y: 1}, {X: 0, Y: 1}}, q)
	if err != nil {
		panic(err) // q is a fixed, convex quad
	}
	at := func(u, v float64) (float64, float64) {
		p := hq.Apply(models.Point{X: u, Y: v})
		return p.X, p.Y
	}
	fillRealm := func(u0, v0, u1, v1 float64, c color.RGBA) {
		const n = 400
		for i := 0; i <= n; i++ {
			for j := 0; j <= n/2; j++ {
				x, y := at(u0+(u1-u0)*float64(i)/n, v0+(v1-v0)*float64(j)/(n/2))
				img.SetRGBA(int(x), int(y), c)
				img.SetRGBA(int(x)+1, int(y), c)
				img.SetRGBA(int(x), int(y)+1, c)
			}
		}
	}
	fillRealm(-0.03, -0.04, 1.03, 1.04, color.RGBA{0x1c, 0x2c, 0x30, 0xff})
	for _, c := range models.AllCells() {
		u0, v0 := float64(c.Col)/5, float64(c.Row)/4
		fillRealm(u0+0.004, v0+0.006, u0+0.196, v0+0.244, color.RGBA{0x24, 0x3a, 0x3e, 0xff})
	}
	for name, cs := range st.Realm.Cells {
		c := models.MustCell(name)
		u0, v0 := float64(c.Col)/5, float64(c.Row)/4
		if cs.Site != nil {
			fillRealm(u0+0.02, v0+0.03, u0+0.18, v0+0.22, color.RGBA{0xd8, 0xcf, 0xb8, 0xff})
			fillRealm(u0+0.03, v0+0.045, u0+0.17, v0+0.205, color.RGBA{0x6b, 0x8f, 0x71, 0xff})
		}
		for k := range cs.Units {
			du := 0.05 + 0.06*float64(k)
			fillRealm(u0+du, v0+0.06, u0+du+0.06, v0+0.2, color.RGBA{0xe8, 0xe0, 0xcc, 0xff})
			fillRealm(u0+du+0.006, v0+0.07, u0+du+0.054, v0+0.19, color.RGBA{0x8a, 0x4b, 0x3a, 0xff})
		}
	}
	return img, q
}
