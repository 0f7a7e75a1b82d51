package synth

import (
	"image"
	"math"
	"runtime"
	"sync"

	"github.com/tablecam/tablecam/models"
)

// stage is everything one frame shows: the camera, the mat, the cards in
// stacking order (bottom first), hands, and the photometry.
type stage struct {
	cam     Camera
	geom    models.RealmGeometry
	mat     matStyle
	sprites []*sprite
	hands   []hand
	objects []object // foreign objects, bottom first
	photo   photometry
	// shadowMM is the offset of cast shadows on the mat plane.
	shadowX, shadowY float64
	bins             spriteBins
}

// spriteBins lists, for square bins of the mat plane, the cards whose
// bounding boxes reach into the bin (in stacking order), so that a pixel
// only tests the few cards near it.
type spriteBins struct {
	x0, y0, size float64
	nx, ny       int
	cells        [][]int
}

const binMM = 12.0

func (st *stage) buildBins() {
	b := &st.bins
	if len(st.sprites) == 0 {
		*b = spriteBins{size: binMM}
		return
	}
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, s := range st.sprites {
		minX, minY = math.Min(minX, s.minX), math.Min(minY, s.minY)
		maxX, maxY = math.Max(maxX, s.maxX), math.Max(maxY, s.maxY)
	}
	*b = spriteBins{x0: minX, y0: minY, size: binMM,
		nx: int((maxX-minX)/binMM) + 1, ny: int((maxY-minY)/binMM) + 1}
	b.cells = make([][]int, b.nx*b.ny)
	for i, s := range st.sprites {
		i0, j0 := int((s.minX-b.x0)/binMM), int((s.minY-b.y0)/binMM)
		i1, j1 := int((s.maxX-b.x0)/binMM), int((s.maxY-b.y0)/binMM)
		for j := j0; j <= j1 && j < b.ny; j++ {
			for k := i0; k <= i1 && k < b.nx; k++ {
				b.cells[j*b.nx+k] = append(b.cells[j*b.nx+k], i)
			}
		}
	}
}

// at lists the cards that may cover a mat point, bottom first.
func (b *spriteBins) at(x, y float64) []int {
	if x < b.x0 || y < b.y0 {
		return nil
	}
	i, j := int((x-b.x0)/b.size), int((y-b.y0)/b.size)
	if i >= b.nx || j >= b.ny {
		return nil
	}
	return b.cells[j*b.nx+i]
}

// chooseLevels picks for each card the face resolution closest above the
// image's resolution at the card.
func (st *stage) chooseLevels() {
	for _, s := range st.sprites {
		s.prepare()
		x0, y0 := st.cam.RealmToImage.Apply(s.cx, s.cy)
		x1, y1 := st.cam.RealmToImage.Apply(s.cx+1, s.cy)
		x2, y2 := st.cam.RealmToImage.Apply(s.cx, s.cy+1)
		pxPerMM := math.Max(math.Hypot(x1-x0, y1-y0), math.Hypot(x2-x0, y2-y0))
		s.level = 0
		for l := range s.face.pxPerMM {
			if s.face.pxPerMM[l] >= pxPerMM*1.2 {
				s.level = l
			}
		}
	}
	st.buildBins()
}

// floatImage is a linear RGB float image used between rendering and encoding.
type floatImage struct {
	w, h int
	pix  []float32 // r, g, b per pixel
}

// render draws the stage into a float image, before photometry.
func (st *stage) render() *floatImage {
	st.chooseLevels()
	w, h := st.cam.Width, st.cam.Height
	out := &floatImage{w: w, h: h, pix: make([]float32, w*h*3)}
	inv := st.cam.RealmToImage.Inverse()
	workers := runtime.NumCPU()
	var wg sync.WaitGroup
	rows := make(chan int, h)
	for y := 0; y < h; y++ {
		rows <- y
	}
	close(rows)
	for k := 0; k < workers; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for y := range rows {
				for x := 0; x < w; x++ {
					mx, my := inv.Apply(float64(x), float64(y))
					r, g, b := st.colourAt(mx, my)
					i := (y*w + x) * 3
					out.pix[i], out.pix[i+1], out.pix[i+2] = float32(r), float32(g), float32(b)
				}
			}
		}()
	}
	wg.Wait()
	return out
}

// colourAt gives the colour of the mat plane at a point, with hands on top.
func (st *stage) colourAt(x, y float64) (r, g, b float64) {
	for i := range st.hands {
		if d := st.hands[i].depth(x, y); d > 0 {
			// Rounded shading: darker towards the silhouette.
			k := 0.62 + 0.38*math.Sqrt(d)
			s := st.hands[i].colour(x, y)
			return s[0] * k, s[1] * k, s[2] * k
		}
	}
	for i := len(st.objects) - 1; i >= 0; i-- {
		if o := &st.objects[i]; o.near(x, y) {
			if d := o.sd(x, y); d < 0 {
				c := o.shade(x, y, d)
				return c[0], c[1], c[2]
			}
		}
	}
	r, g, b = st.surfaceAt(x, y, st.bins.at(x, y))
	// Shadows cast by objects, and by cards above and by hands.
	for i := range st.objects {
		if o := &st.objects[i]; o.near(x, y) {
			k := o.shadow(x, y, st.shadowX, st.shadowY)
			r, g, b = r*k, g*k, b*k
		}
	}
	for i := range st.hands {
		if st.hands[i].depth(x-st.shadowX*6, y-st.shadowY*6) > 0 {
			return r * 0.62, g * 0.62, b * 0.62
		}
	}
	return r, g, b
}

// surfaceAt gives the colour of the topmost of the candidate cards that
// holds the point, or of the mat.
func (st *stage) surfaceAt(x, y float64, cand []int) (r, g, b float64) {
	for k := len(cand) - 1; k >= 0; k-- {
		i := cand[k]
		s := st.sprites[i]
		if !s.contains(x, y) {
			continue
		}
		r, g, b, a := s.sample(x, y)
		if a < 250 {
			br, bg, bb := st.surfaceAt(x, y, cand[:k])
			k := 1 - a/255
			r, g, b = r+br*k, g+bg*k, b+bb*k
		}
		if st.shadowed(x, y, i+1) {
			r, g, b = r*0.8, g*0.8, b*0.8
		}
		return r, g, b
	}
	r, g, b = st.matAt(x, y)
	if st.shadowed(x, y, 0) {
		r, g, b = r*0.7, g*0.7, b*0.7
	}
	return r, g, b
}

// shadowed reports whether a card from index from upwards casts its shadow on the point.
func (st *stage) shadowed(x, y float64, from int) bool {
	sx, sy := x-st.shadowX, y-st.shadowY
	for _, j := range st.bins.at(sx, sy) {
		if j >= from && st.sprites[j].contains(sx, sy) && !st.sprites[j].contains(x, y) {
			return true
		}
	}
	return false
}

// matAt gives the mat (with its printed grid) or the table at a point.
func (st *stage) matAt(x, y float64) (r, g, b float64) {
	m := &st.mat
	mx, my := x+matMarginX, y+matMarginY
	if !insideRoundRect(mx-m.matW/2, my-m.matH/2, m.matW/2, m.matH/2, matCorner) {
		tr, tg, tb := wrapSample(m.table, x*tablePxPerMM, -y*tablePxPerMM)
		return tr * m.tableTint[0], tg * m.tableTint[1], tb * m.tableTint[2]
	}
	// Mat art: row 0 of the texture is the mat's north edge.
	r, g, b, _ = bilinear(m.art, mx*matPxPerMM-0.5, (m.matH-my)*matPxPerMM-0.5)
	// Grid lines.
	gw, gh := st.geom.WidthMM(), st.geom.HeightMM()
	gs := m.grid
	cov := 0.0
	if x > -gs.borderMM && x < gw+gs.borderMM && y > -gs.borderMM && y < gh+gs.borderMM {
		c := clampInt(int(math.Round(x/st.geom.CellWidthMM)), 0, models.Columns)
		lw := gs.lineMM
		if c == 0 || c == models.Columns {
			lw = gs.borderMM
		}
		if !gs.borderless || c != 0 && c != models.Columns {
			cov = lineCoverage(x-float64(c)*st.geom.CellWidthMM, lw)
		}
		rr := clampInt(int(math.Round(y/st.geom.CellHeightMM)), 0, models.Rows)
		lw = gs.lineMM
		if rr == 0 || rr == models.Rows {
			lw = gs.borderMM
		}
		if !gs.borderless || rr != 0 && rr != models.Rows {
			cov = math.Max(cov, lineCoverage(y-float64(rr)*st.geom.CellHeightMM, lw))
		}
	}
	if cov > 0 {
		a := cov * gs.alpha
		r = r*(1-a) + float64(gs.ink.R)*a
		g = g*(1-a) + float64(gs.ink.G)*a
		b = b*(1-a) + float64(gs.ink.B)*a
	}
	return r, g, b
}

// lineCoverage gives a soft coverage (0–1) of a line of width lw at signed distance d.
func lineCoverage(d, lw float64) float64 {
	d = math.Abs(d) - lw/2
	if d <= 0 {
		return 1
	}
	if d >= 0.4 {
		return 0
	}
	return 1 - d/0.4
}

// toRGBA converts the float image to 8-bit RGBA.
func (f *floatImage) toRGBA() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, f.w, f.h))
	for i, j := 0, 0; i < len(f.pix); i, j = i+3, j+4 {
		img.Pix[j] = clamp8(float64(f.pix[i]))
		img.Pix[j+1] = clamp8(float64(f.pix[i+1]))
		img.Pix[j+2] = clamp8(float64(f.pix[i+2]))
		img.Pix[j+3] = 255
	}
	return img
}
