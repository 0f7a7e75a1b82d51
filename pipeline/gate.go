package pipeline

import (
	"image"
	"image/color"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// changeGate spares vision the frames in which nothing moved. It keeps a
// small, blurred, top-down grey picture of the realm (and a margin around
// it, where hands come from) as it was when the board was last read and
// settled, and compares each new frame with it tile by tile. Any tile that
// differs sends the frame to vision in full, so no change goes unseen.
type changeGate struct {
	size    image.Point
	warp    gocv.Mat // small picture pixel → image pixel
	cur     gocv.Mat // this frame's small picture
	ref     gocv.Mat
	diff    gocv.Mat
	tiles   gocv.Mat
	hasRef  bool
	skipped int
}

// Gate tuning: the small picture is 1 px per gateMM millimetres with a
// margin of gateMarginMM around the realm; a tile of gateTile pixels (about
// 24 mm) changed when its mean grey level moved by more than gateDelta.
const (
	gateMM       = 2.0
	gateMarginMM = 40.0
	gateTile     = 12
	gateDelta    = 3.0
	// gateMaxSkip bounds how many frames in a row are skipped: vision reads
	// one in full at least this often, whatever the gate says.
	gateMaxSkip = 30
	// gateArmTiles is the size, in tiles, of a changed blob crossing the
	// picture's edge that counts as an arm reaching in.
	gateArmTiles = 6
	// gateHandFrames is how many frames in a row the gate may call a hand
	// before vision checks one.
	gateHandFrames = 8
)

func newChangeGate(cal *calibration.Calibration) *changeGate {
	g := cal.Geometry
	if g.CellWidthMM <= 0 || g.CellHeightMM <= 0 {
		g = models.DefaultRealm()
	}
	w := int((g.WidthMM() + 2*gateMarginMM) / gateMM)
	h := int((g.HeightMM() + 2*gateMarginMM) / gateMM)
	// small (u,v) → realm mm (u·s − m, H + m − v·s) → image pixels.
	toRealm := [9]float64{gateMM, 0, -gateMarginMM, 0, -gateMM, g.HeightMM() + gateMarginMM, 0, 0, 1}
	m := mul3(cal.Homography(), toRealm)
	warp := gocv.NewMatWithSize(3, 3, gocv.MatTypeCV64F)
	for i, v := range m {
		warp.SetDoubleAt(i/3, i%3, v)
	}
	return &changeGate{size: image.Pt(w, h), warp: warp, cur: gocv.NewMat(), ref: gocv.NewMat(), diff: gocv.NewMat(), tiles: gocv.NewMat()}
}

func mul3(a, b [9]float64) [9]float64 {
	var c [9]float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			for k := 0; k < 3; k++ {
				c[3*i+j] += a[3*i+k] * b[3*k+j]
			}
		}
	}
	return c
}

func (g *changeGate) Close() {
	for _, m := range []*gocv.Mat{&g.warp, &g.cur, &g.ref, &g.diff, &g.tiles} {
		m.Close()
	}
}

// gateVerdict is what the gate makes of a frame.
type gateVerdict int8

const (
	// changed: vision must read the frame.
	changed gateVerdict = iota
	// still: nothing moved since the reference.
	still
	// hand: something large reaches in across the edge of the mat around the
	// realm, as an arm does: the frame is occluded and need not be read.
	hand
)

// still reports whether the frame shows the realm as the reference does.
// It also keeps the frame's small picture for setReference.
func (g *changeGate) still(frame gocv.Mat) bool { return g.judge(frame) == still }

// judge compares the frame with the reference. It also keeps the frame's
// small picture for setReference.
func (g *changeGate) judge(frame gocv.Mat) gateVerdict {
	g.look(frame)
	if !g.hasRef || g.skipped >= gateMaxSkip {
		return changed
	}
	return g.compare()
}

// look makes the frame's small picture.
func (g *changeGate) look(frame gocv.Mat) {
	small := gocv.NewMat()
	defer small.Close()
	gocv.WarpPerspectiveWithParams(frame, &small, g.warp, g.size, gocv.InterpolationLinear|gocv.WarpInverseMap,
		gocv.BorderConstant, color.RGBA{})
	if small.Channels() == 3 {
		gocv.CvtColor(small, &g.cur, gocv.ColorBGRToGray)
	} else {
		small.CopyTo(&g.cur)
	}
	gocv.GaussianBlur(g.cur, &g.cur, image.Pt(3, 3), 0, 0, gocv.BorderReplicate)
}

// picture gives the small picture look made last, without copying it.
func (g *changeGate) picture() []uint8 {
	if g.cur.Empty() {
		return nil
	}
	pix, err := g.cur.DataPtrUint8()
	if err != nil {
		return nil
	}
	return pix
}

// compare judges the small picture look made against the reference.
func (g *changeGate) compare() gateVerdict {
	gocv.AbsDiff(g.cur, g.ref, &g.diff)
	// Each pixel of tiles is the mean difference over one tile.
	cols, rows := g.size.X/gateTile, g.size.Y/gateTile
	gocv.Resize(g.diff, &g.tiles, image.Pt(cols, rows), 0, 0, gocv.InterpolationArea)
	data, err := g.tiles.DataPtrUint8()
	if err != nil {
		return changed
	}
	anyChange := false
	for _, v := range data {
		if float64(v) > gateDelta {
			anyChange = true
			break
		}
	}
	if !anyChange {
		return still
	}
	if reachesIn(data, cols, rows) {
		return hand
	}
	return changed
}

// reachesIn reports whether the changed tiles hold a blob that crosses the
// outer edge of the picture and reaches well in, as an arm does: at least
// gateArmTiles tiles, connected to the edge.
func reachesIn(data []uint8, cols, rows int) bool {
	seen := make([]bool, len(data))
	var stack []int
	for i := range data {
		x, y := i%cols, i/cols
		if (x == 0 || y == 0 || x == cols-1 || y == rows-1) && float64(data[i]) > gateDelta {
			seen[i] = true
			stack = append(stack, i)
		}
	}
	n := 0
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n++
		x, y := i%cols, i/cols
		for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			nx, ny := x+d[0], y+d[1]
			if nx < 0 || ny < 0 || nx >= cols || ny >= rows {
				continue
			}
			j := ny*cols + nx
			if !seen[j] && float64(data[j]) > gateDelta {
				seen[j] = true
				stack = append(stack, j)
			}
		}
	}
	return n >= gateArmTiles
}

// setReference makes the frame last given to still the reference.
func (g *changeGate) setReference() {
	g.cur.CopyTo(&g.ref)
	g.hasRef = true
	g.skipped = 0
}
