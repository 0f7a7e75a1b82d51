package vision

// #include "covered_sums.h"
import "C"

import (
	"encoding/binary"
	"image"
	"image/color"
	"math"
	"math/bits"
	"slices"
	"sort"
	"unsafe"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// Naming a covered site by what of it shows. At a placement of the site,
// the visible part of the top-down image is compared with every site face,
// turned 0° and 180°, shifted by up to a few millimetres (the placement
// comes from the outline, which the face's own border lines can mislead by
// that much). The comparison is a partial correlation: the correlation of
// the image with the face once what every site face shares (the mean site
// face: frame, title bar, text box) is taken out of both. It ignores the
// light's gain and offset, and it says nothing for the layout all sites
// share, only for what tells them apart.

// siteFaces are the catalog's site faces as one frame's covered-site
// search compares them: grey thumbnails, row by row, at the index's
// thumbnail scale (level 0) and at half that (level 1), upright and turned
// 180° (each level read from the turned face, so that both line up with
// the window's pixels).
type siteFaces struct {
	refs   []int    // index of each face's reference
	thumbs [][]byte // each face's thumbnail (level 0, upright)
	w, h   [2]int   // face size at each level
	// half holds, for each turn, every face's pixels at level 1, one face
	// after the other (face k from k·w[1]·h[1] on), so that one call sums
	// them all; full holds each face's at level 0, made when needed
	// (faceAt).
	half [2][]float32
	// lanes holds the same pixels, for each turn, sixteen faces side by
	// side: chunk c (faces 16c to 16c+15, missing ones 0) from
	// c·laneStride on, each pixel's sixteen values together
	// (tablecam_face_sums_lanes). packed holds them instead where every
	// one is a multiple of ¼ up to 255, as the faces' are (halveBytes), in
	// half precision (exactly), each pixel's values of every chunk together
	// (pixel p's of chunk c from 16(p·chunks + c) on;
	// tablecam_face_sums_packed): half the bytes, read run by run, in one
	// stream.
	lanes      [2][]float32
	packed     [2][]uint16
	chunks     int // the number of chunks of sixteen faces
	laneStride int
	laneBuf    []faceSums     // the lanes' sums
	pick       [2]pickedLanes // the lanes of the faces last listed, at each turn (picked)
	noLanes    bool           // sum face by face (the tests' reference)
	full       [2][][]float32
	mean       [2][2][]float32                         // [level][turn] the mean site face
	pxPerMM0   float64                                 // level 0's scale
	detail     detailScratch                           // detailScores' buffers
	ranked     struct{ coarse, screened []rankedFace } // nameSiteAt's buffers
	// sums receive the window sums of stats and statsBoth.
	sums struct {
		one  [5]float64
		both [2][5]float64
	}
	arena  windowArena // the windows' buffers
	warped []byte      // a window's grey bytes, as read
}

// windowArena hands out the buffers of one naming's windows (nameSiteAt
// drops them all when it returns), from blocks kept from call to call:
// a frame's windows would otherwise allocate, and clear, some hundreds of
// kilobytes. Its buffers hold what was last written to them: every user
// writes all of its buffer.
type windowArena struct {
	f      []float32
	b      []bool
	fi, bi int // the next free value of each
}

// reset takes every buffer handed out back.
func (a *windowArena) reset() { a.fi, a.bi = 0, 0 }

func (a *windowArena) floats(n int) []float32 { return fromBlock(&a.f, &a.fi, n) }

func (a *windowArena) bools(n int) []bool { return fromBlock(&a.b, &a.bi, n) }

// fromBlock hands out the next n values of *block (*next: the first free
// one), as they were left.
func fromBlock[T any](block *[]T, next *int, n int) []T {
	if *next+n > len(*block) {
		// A bigger block; the buffers handed out of the old one stay
		// theirs.
		*block, *next = make([]T, max(2*len(*block), 4*n)), 0
	}
	p := (*block)[*next : *next+n : *next+n]
	*next += n
	return p
}

// newSiteFaces gathers the index's site faces; ok is false when it has none.
func newSiteFaces(x *catalogIndex) (siteFaces, bool) {
	var f siteFaces
	for ri := range x.refs {
		r := &x.refs[ri]
		if r.Kind != models.KindSite || len(r.Thumb) == 0 {
			continue
		}
		if f.refs == nil {
			f.w[0], f.h[0] = r.W/2, r.H/2
			f.w[1], f.h[1] = f.w[0]/2, f.h[0]/2
			f.pxPerMM0 = float64(f.w[0]) / models.CardLongMM
		}
		if len(r.Thumb) != f.w[0]*f.h[0] {
			continue
		}
		f.refs = append(f.refs, ri)
		f.thumbs = append(f.thumbs, r.Thumb)
		for turn := range f.half {
			f.full[turn] = append(f.full[turn], nil)
			f.half[turn] = append(f.half[turn], halveBytes(r.Thumb, f.w[0], f.h[0], turn == 1)...)
		}
	}
	if len(f.refs) == 0 || len(x.meanSiteThumb) != f.w[0]*f.h[0] || f.w[1] < 4 || f.h[1] < 4 {
		return siteFaces{}, false
	}
	f.setLanes()
	m0 := make([]float32, len(x.meanSiteThumb))
	for i, m := range x.meanSiteThumb {
		m0[i] = float32(m)
	}
	for turn, m := range [2][]float32{m0, reversed(m0)} {
		f.mean[0][turn] = m
		f.mean[1][turn] = halve(m, f.w[0], f.h[0])
	}
	return f, true
}

// setLanes lays the faces' level-1 pixels out in lanes, packed where
// they can be, from half.
func (f *siteFaces) setLanes() {
	n1 := f.w[1] * f.h[1]
	nf := len(f.half[0]) / n1
	f.laneStride = 16 * n1
	f.chunks = (nf + 15) / 16
	quarters := true
	for turn := range f.half {
		for _, v := range f.half[turn] {
			if k := 4 * v; !(k >= 0 && k <= 1020 && k == float32(int(k))) {
				quarters = false
			}
		}
	}
	for turn := range f.lanes {
		if quarters {
			p := make([]uint16, f.chunks*f.laneStride)
			for k := 0; k < nf; k++ {
				for i, v := range f.half[turn][k*n1 : (k+1)*n1] {
					p[16*(i*f.chunks+k/16)+k%16] = half16(v)
				}
			}
			f.packed[turn], f.lanes[turn] = p, nil
			continue
		}
		l := make([]float32, f.chunks*f.laneStride)
		for k := 0; k < nf; k++ {
			c := l[k/16*f.laneStride:]
			for p, v := range f.half[turn][k*n1 : (k+1)*n1] {
				c[16*p+k%16] = v
			}
		}
		f.lanes[turn], f.packed[turn] = l, nil
	}
}

// half16 is a multiple of ¼ from 0 to 255 in IEEE half precision (exactly:
// it has at most ten significant bits).
func half16(v float32) uint16 {
	if v == 0 {
		return 0
	}
	b := math.Float32bits(v)
	e := int(b>>23&0xff) - 127
	return uint16((e+15)<<10) | uint16(b&0x7fffff>>13)
}

// faceAt gives a face's pixels at a level and turn.
func (f *siteFaces) faceAt(level, turn, face int) []float32 {
	if level == 1 {
		n := f.w[1] * f.h[1]
		return f.half[turn][face*n : (face+1)*n]
	}
	p := f.full[turn][face]
	if p == nil {
		t := f.thumbs[face]
		p = make([]float32, len(t))
		for i, v := range t {
			if turn == 1 {
				i = len(t) - 1 - i
			}
			p[i] = float32(v)
		}
		f.full[turn][face] = p
	}
	return p
}

// halveBytes averages a grey image's 2×2 blocks, read turned 180° when
// turned is set (an odd last row or column is dropped).
func halveBytes(p []byte, w, h int, turned bool) []float32 {
	hw, hh := w/2, h/2
	out := make([]float32, hw*hh)
	at := func(i int) float32 {
		if turned {
			i = len(p) - 1 - i
		}
		return float32(p[i])
	}
	for y := 0; y < hh; y++ {
		for x := 0; x < hw; x++ {
			i := 2*y*w + 2*x
			out[y*hw+x] = (at(i) + at(i+1) + at(i+w) + at(i+w+1)) / 4
		}
	}
	return out
}

// reversed is an image turned 180°.
func reversed(p []float32) []float32 {
	out := make([]float32, len(p))
	for i, v := range p {
		out[len(p)-1-i] = v
	}
	return out
}

// halve averages an image's 2×2 blocks (an odd last row or column is dropped).
func halve(p []float32, w, h int) []float32 {
	hw, hh := w/2, h/2
	out := make([]float32, hw*hh)
	for y := 0; y < hh; y++ {
		for x := 0; x < hw; x++ {
			i := 2*y*w + 2*x
			out[y*hw+x] = (p[i] + p[i+1] + p[i+w] + p[i+w+1]) / 4
		}
	}
	return out
}

// siteWindow is the top-down image around one placement of a site, read in
// the face's coordinates (turned 0°) at both levels, with a margin of
// radius pixels each way for shifts, and which of its pixels no card hides.
type siteWindow struct {
	place  sitePlacement
	radius [2]int
	w, h   [2]int // window size at each level
	px     [2][]float32
	vis    [2][]bool
	// runs lists vis's runs at a level once read (runsRead): a wide
	// window, only cropped and searched at level 1, never reads level 0's.
	runs     [2][]visibleRun
	runsRead [2]bool
}

// visible gives the window's runs of visible pixels at a level.
func (w *siteWindow) visible(level int) []visibleRun {
	if !w.runsRead[level] {
		w.runs[level], w.runsRead[level] = visibleRuns(w.vis[level], w.w[level]), true
	}
	return w.runs[level]
}

// siteWindowBorderMM is the band along the face's edge left out of every
// comparison (the placement may be a little off, and corners are round).
const siteWindowBorderMM = 2.0

// readSiteWindow samples the window of a placement. radius0 is the shift
// radius at level 0 (even, so that level 1 has half of it); the cards
// found, grown by pad top-down pixels, hide what lies under them.
func readSiteWindow(gray gocv.Mat, pxPerMM float64, faces *siteFaces, p sitePlacement, radius0 int, found []placed, pad float64) siteWindow {
	tw, th := faces.w[0], faces.h[0]
	w := siteWindow{place: p, radius: [2]int{radius0, radius0 / 2}}
	w.w[0], w.h[0] = tw+2*radius0, th+2*radius0
	// Window pixel (u, v) at level 0 → top-down pixel.
	k := pxPerMM / faces.pxPerMM0 // top-down pixels per window pixel
	ca, sa := math.Cos(p.angleDeg*math.Pi/180), math.Sin(p.angleDeg*math.Pi/180)
	ox, oy := -float64(w.w[0])/2, -float64(w.h[0])/2 // window centre at the placement's
	// Window pixel (u, v) → top-down pixel: hm2 takes the pixel's corner,
	// the warp samples its centre.
	hm2 := homography{k * ca, -k * sa, 0, k * sa, k * ca, 0, 0, 0, 1}
	hm2[2] = p.cx + k*(ca*ox-sa*oy)
	hm2[5] = p.cy + k*(sa*ox+ca*oy)
	affine := [6]float64{hm2[0], hm2[1], hm2[2] + k*(ca-sa)/2, hm2[3], hm2[4], hm2[5] + k*(sa+ca)/2}
	raw := faces.warped[:0]
	if n := w.w[0] * w.h[0]; cap(raw) >= n {
		raw = raw[:n]
	} else {
		raw = make([]byte, n)
		faces.warped = raw
	}
	if !warpAffineGrey(gray, affine, w.w[0], w.h[0], raw) {
		m := gocv.NewMatWithSize(2, 3, gocv.MatTypeCV64F)
		for i, c := range affine {
			m.SetDoubleAt(i/3, i%3, c)
		}
		warped := gocv.NewMat()
		gocv.WarpAffineWithParams(gray, &warped, m, image.Pt(w.w[0], w.h[0]), gocv.InterpolationLinear|gocv.WarpInverseMap, gocv.BorderConstant, color.RGBA{})
		m.Close()
		b, err := warped.DataPtrUint8()
		if err != nil || len(b) != len(raw) {
			panic("readSiteWindow: the warp gave no grey window")
		}
		copy(raw, b)
		warped.Close()
	}
	// Which window pixels the cards on top hide: their quads, grown by
	// pad, painted in window coordinates.
	toWin := func(x, y float64) (float64, float64) {
		dx, dy := (x-hm2[2])/k, (y-hm2[5])/k
		return ca*dx + sa*dy, -sa*dx + ca*dy
	}
	cover := gocv.NewMatWithSize(w.h[0], w.w[0], gocv.MatTypeCV8U)
	cover.SetTo(gocv.NewScalar(0, 0, 0, 0))
	var onTop []placed
	for _, c := range found {
		g := grow(c.quad, pad)
		var q models.Quad
		for i, pt := range g {
			x, y := toWin(pt.X, pt.Y)
			q[i] = models.Point{X: x, Y: y}
		}
		onTop = append(onTop, placed{quad: q})
	}
	fillGrownQuads(&cover, image.Point{}, onTop, 0, color.RGBA{255, 255, 255, 0})
	defer cover.Close()
	hid, err := cover.DataPtrUint8()
	if err != nil || len(hid) != w.w[0]*w.h[0] {
		panic("readSiteWindow: no cover mask")
	}
	inside := image.Rect(0, 0, gray.Cols(), gray.Rows())
	w.px[0], w.vis[0] = faces.arena.floats(len(raw)), faces.arena.bools(len(raw))
	windowPixels(raw, hid, w.px[0], w.vis[0])
	// Pixels off the top-down image show nothing.
	for _, c := range [4][2]float64{{0, 0}, {float64(w.w[0]), 0}, {0, float64(w.h[0])}, {float64(w.w[0]), float64(w.h[0])}} {
		if x, y := hm2[2]+k*(ca*c[0]-sa*c[1]), hm2[5]+k*(sa*c[0]+ca*c[1]); !(image.Pt(int(x), int(y)).In(inside)) {
			for v := 0; v < w.h[0]; v++ {
				for u := 0; u < w.w[0]; u++ {
					x, y := hm2[2]+k*(ca*(float64(u)+0.5)-sa*(float64(v)+0.5)), hm2[5]+k*(sa*(float64(u)+0.5)+ca*(float64(v)+0.5))
					if !(image.Pt(int(math.Floor(x)), int(math.Floor(y))).In(inside)) {
						w.vis[0][v*w.w[0]+u] = false
					}
				}
			}
			break
		}
	}
	w.w[1], w.h[1] = w.w[0]/2, w.h[0]/2
	w.px[1] = faces.arena.floats(w.w[1] * w.h[1])
	w.vis[1] = faces.arena.bools(w.w[1] * w.h[1])
	C.tablecam_window_halve(cFloats(w.px[0]), (*C.uint8_t)(unsafe.Pointer(&w.vis[0][0])), C.int(w.w[0]), C.int(w.h[0]),
		cFloats(w.px[1]), (*C.uint8_t)(unsafe.Pointer(&w.vis[1][0])))
	return w
}

// warpAffineGrey writes cv::warpAffine(gray, dst, m, (w, h),
// INTER_LINEAR|WARP_INVERSE_MAP, BORDER_CONSTANT, 0) of a grey image into
// dst (w·h bytes), by tablecam_warp_affine: the same bytes, without an
// OpenCV call's overhead, a noticeable part of so small a window. ok is
// false, and nothing written, when gray's pixels cannot be read directly.
func warpAffineGrey(gray gocv.Mat, m [6]float64, w, h int, dst []byte) bool {
	if gray.Type() != gocv.MatTypeCV8U || w <= 0 || h <= 0 || len(dst) != w*h || gray.Empty() {
		return false
	}
	src, err := gray.DataPtrUint8()
	if err != nil || len(src) < gray.Rows()*gray.Cols() {
		return false
	}
	delta := make([]C.int, 2*w)
	C.tablecam_warp_affine((*C.uint8_t)(unsafe.Pointer(&src[0])), C.int(gray.Cols()), C.int(gray.Rows()), C.int64_t(gray.Cols()),
		(*C.double)(unsafe.Pointer(&m[0])), (*C.uint8_t)(unsafe.Pointer(&dst[0])), C.int(w), C.int(h), &delta[0])
	return true
}

// windowPixels reads a window's grey bytes as floats into px, and which of
// them the cover (non-zero where a card on top lies) leaves visible into
// vis (all four the same length).
func windowPixels(grey, cover []byte, px []float32, vis []bool) {
	if len(grey) == 0 || len(cover) != len(grey) || len(px) != len(grey) || len(vis) != len(grey) {
		panic("windowPixels: buffers of different lengths")
	}
	C.tablecam_window_pixels((*C.uint8_t)(unsafe.Pointer(&grey[0])), (*C.uint8_t)(unsafe.Pointer(&cover[0])), C.int(len(grey)), 1,
		cFloats(px), (*C.uint8_t)(unsafe.Pointer(&vis[0])))
}

// pixelPairs lists, for a face shifted by (dx, dy) in the window at a
// level, the visible window pixels over the face and the face pixels under
// them, as runs along rows: n pixels from window pixel win and face pixel
// face on.
type pixelPairs struct {
	runs []pixelRun
	n    int
}

type pixelRun struct{ win, face, n int32 }

func (w *siteWindow) pairs(faces *siteFaces, level, dx, dy int, buf *pixelPairs) pixelPairs {
	tw, th := faces.w[level], faces.h[level]
	b := int(math.Round(siteWindowBorderMM * faces.pxPerMM0 / float64(int(1)<<level)))
	r := w.radius[level]
	ww := w.w[level]
	pp := pixelPairs{runs: buf.runs[:0]}
	// Window columns over the face, less its border; and its rows (the
	// runs lie row after row: those of the rows over the face from the
	// first on).
	lo, hi := max(b+r+dx, 0), min(tw-b+r+dx, ww)
	runs := w.visible(level)
	y0, y1 := b+r+dy, th-b+r+dy
	for i := sort.Search(len(runs), func(i int) bool { return int(runs[i].y) >= y0 }); i < len(runs) && int(runs[i].y) < y1; i++ {
		run := runs[i]
		x0, x1 := max(int(run.x0), lo), min(int(run.x1), hi)
		if x1 <= x0 {
			continue
		}
		v := int(run.y) - r - dy
		pp.runs = append(pp.runs, pixelRun{win: int32(int(run.y)*ww + x0), face: int32(v*tw + x0 - r - dx), n: int32(x1 - x0)})
		pp.n += x1 - x0
	}
	*buf = pp
	return pp
}

// visibleRun is a row's stretch of visible window pixels, x0 ≤ x < x1.
type visibleRun struct{ y, x0, x1 int32 }

// visibleRuns lists the runs of visible pixels of a w-wide mask. It reads
// the mask eight pixels at a time (a bool is a byte, 0 or 1): a word of
// hidden pixels is passed over whole while a run is sought, one of visible
// pixels while its end is.
func visibleRuns(vis []bool, w int) []visibleRun {
	const ones = 0x0101010101010101
	var out []visibleRun
	if len(vis) == 0 || w <= 0 {
		return out
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(&vis[0])), len(vis))
	for y := 0; (y+1)*w <= len(b); y++ {
		row := b[y*w : (y+1)*w]
		for x := 0; x < w; {
			// The next visible pixel.
			for x+8 <= w {
				word := binary.LittleEndian.Uint64(row[x:])
				if word != 0 {
					x += bits.TrailingZeros64(word) / 8
					break
				}
				x += 8
			}
			for x < w && row[x] == 0 {
				x++
			}
			if x == w {
				break
			}
			// The next hidden one.
			x0 := x
			for x+8 <= w {
				word := binary.LittleEndian.Uint64(row[x:]) ^ ones
				if word != 0 {
					x += bits.TrailingZeros64(word) / 8
					break
				}
				x += 8
			}
			for x < w && row[x] != 0 {
				x++
			}
			out = append(out, visibleRun{int32(y), int32(x0), int32(x)})
		}
	}
	return out
}

// faceScore is how well one face, turned and shifted, explains a window.
type faceScore struct {
	face, turn, dx, dy, level int
	score                     float64 // partial correlation, −1…1
	n                         int     // visible pixels compared
}

// windowStats are the sums over a window's pixels (o) and the mean face's
// (m) that every face compared at one turn and shift shares.
type windowStats struct {
	n                       float64
	so, soo, sm, smm, som   float64
	varO, varM, covOM, rOM2 float64
	ok                      bool
}

func (w *siteWindow) stats(faces *siteFaces, level, turn int, pp pixelPairs) windowStats {
	if pp.n < 2 {
		return windowStats{n: float64(pp.n)}
	}
	sums := &faces.sums.one // not a variable of its own: passed to C, it would be allocated
	C.tablecam_window_sums(cFloats(w.px[level]), cFloats(faces.mean[level][turn]), cRuns(pp.runs), C.int(len(pp.runs)), (*C.double)(unsafe.Pointer(&sums[0])))
	return statsOf(pp.n, *sums)
}

// statsBoth is stats at both turns, from one pass over the pixels where
// the processor can (tablecam_window_sums2).
func (w *siteWindow) statsBoth(faces *siteFaces, level int, pp pixelPairs) [2]windowStats {
	if pp.n < 2 {
		return [2]windowStats{{n: float64(pp.n)}, {n: float64(pp.n)}}
	}
	sums := &faces.sums.both
	if faces.noLanes || C.tablecam_window_sums2(cFloats(w.px[level]), cFloats(faces.mean[level][0]), cFloats(faces.mean[level][1]),
		cRuns(pp.runs), C.int(len(pp.runs)), (*C.double)(unsafe.Pointer(&sums[0][0]))) == 0 {
		return [2]windowStats{w.stats(faces, level, 0, pp), w.stats(faces, level, 1, pp)}
	}
	return [2]windowStats{statsOf(pp.n, sums[0]), statsOf(pp.n, sums[1])}
}

// statsOf reads the sums of tablecam_window_sums over n pixels.
func statsOf(n int, sums [5]float64) windowStats {
	var s windowStats
	s.n = float64(n)
	s.so, s.soo, s.sm, s.smm, s.som = sums[0], sums[1], sums[2], sums[3], sums[4]
	s.varO = s.soo - s.so*s.so/s.n
	s.varM = s.smm - s.sm*s.sm/s.n
	s.covOM = s.som - s.so*s.sm/s.n
	if s.varO <= 1e-6 || s.varM <= 1e-6 {
		return s
	}
	s.rOM2 = s.covOM * s.covOM / (s.varO * s.varM)
	s.ok = s.rOM2 < 0.999
	return s
}

func cFloats(p []float32) *C.float { return (*C.float)(unsafe.Pointer(unsafe.SliceData(p))) }

func cRuns(r []pixelRun) *C.tablecam_pixel_run {
	return (*C.tablecam_pixel_run)(unsafe.Pointer(unsafe.SliceData(r)))
}

// faceSums are the sums over a window's pixel pairs that score one face
// (t) against the window (o) and the mean face (m): Σt, Σt², Σo·t, Σt·m.
type faceSums [4]float64

// faceSums sums, at a level and turn, the faces listed (all of them when
// which is nil; level 1 only) or face one alone, into buf (grown as
// needed).
func (w *siteWindow) faceSums(faces *siteFaces, level, turn int, which []int32, one int, pp pixelPairs, buf []faceSums) []faceSums {
	n := len(which)
	var base []float32
	var stride int
	switch {
	case level == 1 && which == nil:
		n, base, stride = len(faces.refs), faces.half[turn], faces.w[1]*faces.h[1]
	case level == 1:
		base, stride = faces.half[turn], faces.w[1]*faces.h[1]
	default:
		n, base = 1, faces.faceAt(level, turn, one)
	}
	if cap(buf) < n {
		buf = make([]faceSums, n)
	}
	buf = buf[:n]
	if n == 0 {
		return buf
	}
	// Sixteen faces in lanes cost about what four do one by one.
	if level == 1 && n >= 4 && !faces.noLanes && faces.laneSums(w.px[1], turn, which, n, pp, buf) {
		return buf
	}
	var ids *C.int32_t
	if which != nil {
		ids = (*C.int32_t)(unsafe.Pointer(&which[0]))
	}
	C.tablecam_face_sums(cFloats(w.px[level]), cFloats(faces.mean[level][turn]), cFloats(base), C.int64_t(stride), ids, C.int(n), cRuns(pp.runs), C.int(len(pp.runs)), (*C.double)(unsafe.Pointer(&buf[0])))
	return buf
}

// laneSums sums faces the way faceSums does at level 1 (the faces listed
// in which, or the first n when which is nil), sixteen at a time in
// vector lanes, into out; ok is false, and nothing is summed, where the
// processor cannot. A list's faces are summed in lanes of their own
// (picked), laid out when the list differs from the last one asked for at
// that turn: the few faces screened for the shifts of a window would
// otherwise each cost their whole chunk of the catalog's lanes, sixteen
// faces, at every shift. A lane's sums do not depend on the lanes beside
// it, so each face's are those of the catalog's lanes to the last bit.
func (f *siteFaces) laneSums(o []float32, turn int, which []int32, n int, pp pixelPairs, out []faceSums) bool {
	nc := (n + 15) / 16
	if which == nil && f.packed[turn] != nil {
		nc = f.chunks
	}
	if cap(f.laneBuf) < 16*nc {
		f.laneBuf = make([]faceSums, 16*nc)
	}
	if which == nil && f.packed[turn] != nil {
		if C.tablecam_face_sums_packed(cFloats(o), cFloats(f.mean[1][turn]), (*C.uint16_t)(unsafe.Pointer(&f.packed[turn][0])), C.int(nc),
			cRuns(pp.runs), C.int(len(pp.runs)), (*C.double)(unsafe.Pointer(&f.laneBuf[0]))) == 0 {
			return false
		}
		copy(out, f.laneBuf[:n])
		return true
	}
	lanes := f.lanes[turn]
	if which != nil {
		lanes = f.picked(turn, which)
	}
	if C.tablecam_face_sums_lanes(cFloats(o), cFloats(f.mean[1][turn]), cFloats(lanes), C.int64_t(f.laneStride), C.int(nc),
		cRuns(pp.runs), C.int(len(pp.runs)), (*C.double)(unsafe.Pointer(&f.laneBuf[0]))) == 0 {
		return false
	}
	copy(out, f.laneBuf[:n])
	return true
}

// pickedLanes are the level-1 pixels of a list of faces (which) laid out in
// lanes as siteFaces.lanes lays out all of them: face which[k] in lane
// k%16 of chunk k/16. Lanes past the list's end hold what they last held.
type pickedLanes struct {
	which []int32
	lanes []float32
}

// picked gives the lanes of the faces listed at a turn, laid out anew
// unless they are the last ones asked for there.
func (f *siteFaces) picked(turn int, which []int32) []float32 {
	p := &f.pick[turn]
	if slices.Equal(p.which, which) && p.lanes != nil {
		return p.lanes
	}
	n1 := f.w[1] * f.h[1]
	if need := (len(which) + 15) / 16 * f.laneStride; len(p.lanes) < need {
		p.lanes = make([]float32, need)
	}
	for k, face := range which {
		c := p.lanes[k/16*f.laneStride+k%16:]
		for i, v := range f.half[turn][int(face)*n1 : (int(face)+1)*n1] {
			c[16*i] = v
		}
	}
	p.which = append(p.which[:0], which...)
	return p.lanes
}

// layout is the correlation of the window's pixels with the mean site face.
func (s windowStats) layout() float64 {
	if s.varO <= 1e-6 || s.varM <= 1e-6 {
		return 0
	}
	return s.covOM / math.Sqrt(s.varO*s.varM)
}

// partial scores one face, by its sums, against a window's pixel pairs.
func (s windowStats) partial(t faceSums) float64 {
	if !s.ok {
		return -1
	}
	st, stt, sot, stm := t[0], t[1], t[2], t[3]
	varT := stt - st*st/s.n
	if varT <= 1e-6 {
		return -1
	}
	covOT := sot - s.so*st/s.n
	covTM := stm - st*s.sm/s.n
	rOT := covOT / math.Sqrt(s.varO*varT)
	rOM := s.covOM / math.Sqrt(s.varO*s.varM)
	rTM := covTM / math.Sqrt(varT*s.varM)
	d := (1 - rOM*rOM) * (1 - rTM*rTM)
	if d <= 1e-9 {
		return -1
	}
	return (rOT - rOM*rTM) / math.Sqrt(d)
}

// Naming thresholds. A correlation's noise shrinks as the square root of
// the pixels compared: the lead the best face needs over any other is
// stated for 1,000 visible mm² and scaled by that law.
const (
	nameShiftMM       = 4    // how far from the outline's placement the face is looked for, each way
	nameMinVisibleMM2 = 250  // visible face area needed to compare
	nameLeadAt1000    = 0.24 // lead over the best other face at 1,000 visible mm²
	nameMinLead       = 0.15 // the least lead, however much shows (what shows may be a card no one found)
	nameMinScore      = 0.5  // the least partial correlation a named face has
	nameScreen        = 6    // faces and turns (of all, at each placement as found) tried at every shift
	nameRefine        = 3    // faces compared again at the finer level
	nameConfidence    = 0.8  // the most a site named this way is reported with
	nameTurnHope      = 0.1  // a leading face this far below nameMinScore is tried turned a step, too
	// What shows is looked for where it correlates best with the mean site
	// face this far, each way, from the outline's placement (layoutShift).
	nameFindMM = 4
	// A leading face that scores this much, where what shows looks like a
	// site (this correlation with the mean site face) or its outline
	// clearly shows, is aligned on it with the next, and the decision taken
	// again (alignFace).
	nameAlignFloor  = 0.25
	nameAlignLayout = 0.4
	nameAlignTop    = 2
	// Where no placement's outline clearly shows, and what shows
	// correlates less than this with the mean site face at every shift
	// layoutShift tries, no face is compared: a name needs coveredMinLayout
	// there, at level 0 where the face lies, and no site named on the
	// bundled stills or nine synthetic sets came from below 0.3 (280 of
	// 1,328 such cells fall below this).
	nameSkipLayout = 0.25
	// A leading face that correlates this well, and has closely the
	// colours of what shows (toneCloseSpread), need not lead the faces
	// whose colours are not those of what shows.
	nameRivalsFrom = 0.75
)

// rankedFace is a face's score at one of a naming's placements.
type rankedFace struct {
	faceScore
	place int
}

// siteName is a covered site named by what of it shows.
type siteName struct {
	det detection
	// place is the outline placement at which the face was found.
	place sitePlacement
	// layout is the correlation of what shows with the mean site face (at
	// the face's turn and shift): how much it looks like a site at all.
	layout float64
	// lookAlike tells that the leading face led clearly, but the detail
	// of what shows did not bear it out (nameMinEvidence): a site the
	// catalog lacks lies there, at det's quad, not named.
	lookAlike bool
	// lead is the leading face where its shift (or alignment) puts it,
	// when no face was named: nil when none was compared. Its placement
	// fits what shows better than the outline's (siteUnder).
	lead *detection
}

// nameSiteAt names the site lying at one of the placements, or ok is false
// when no face clearly explains what shows (the leading face's placement
// and layout are given then too, and its detection when only the detail
// of what shows failed it: lookAlike). The detection's quad and turn come from
// the winning face's placement.
//
// outlineShown tells whether the first placement's outline clearly shows
// (outlineShows): then what shows is a site's, and worth aligning faces on.
func (a *Analyzer) nameSiteAt(gray gocv.Mat, v *view, faces *siteFaces, places []sitePlacement, found []placed, outlineShown bool) (siteName, bool) {
	if len(places) == 0 {
		return siteName{}, false
	}
	// The windows of the last naming are gone: their buffers are free.
	faces.arena.reset()
	radius0 := 2 * int(math.Round(nameShiftMM*faces.pxPerMM0/2))
	find0 := 2 * int(math.Round(nameFindMM*faces.pxPerMM0/2))
	windows := make([]siteWindow, len(places))
	siteLike, shows := math.Inf(-1), false
	for i, p := range places {
		wide := readSiteWindow(gray, v.pxPerMM, faces, p, radius0+find0, found, stripHiddenPad)
		dx, dy, layout := wide.layoutShift(faces, find0/2)
		windows[i] = wide.crop(faces, 2*dx, 2*dy, radius0, v.pxPerMM)
		siteLike, shows = max(siteLike, layout), shows || outlineShows(p)
	}
	if !shows && siteLike < nameSkipLayout {
		// Neither an outline nor a site's layout shows: a name would not
		// be taken (findCoveredSites wants one or the other).
		return siteName{}, false
	}
	// Level 1: every face, both turns, at each placement as found; then the
	// few best of them at every shift.
	minN1 := int(nameMinVisibleMM2 * faces.pxPerMM0 * faces.pxPerMM0 / 4)
	type best = rankedFace
	// Every face's best (coarse), and a placement's every face and turn
	// (screenBuf), in buffers kept from naming to naming.
	if n := len(faces.refs); cap(faces.ranked.coarse) < n || cap(faces.ranked.screened) < 2*n {
		faces.ranked.coarse, faces.ranked.screened = make([]best, n), make([]best, 0, 2*n)
	}
	coarse := faces.ranked.coarse[:len(faces.refs)]
	for i := range coarse {
		coarse[i] = best{}
		coarse[i].score = -2
	}
	offer := func(b best) {
		if b.score > coarse[b.face].score {
			coarse[b.face] = b
		}
	}
	var buf pixelPairs
	var sums []faceSums
	screenBuf := faces.ranked.screened[:0]
	for pi := range windows {
		w := &windows[pi]
		pp := w.pairs(faces, 1, 0, 0, &buf)
		if pp.n < minN1 {
			continue
		}
		screened := screenBuf[:0]
		both := w.statsBoth(faces, 1, pp)
		for turn := 0; turn < 2; turn++ {
			st := both[turn]
			if !st.ok {
				continue
			}
			sums = w.faceSums(faces, 1, turn, nil, 0, pp, sums)
			for fi, t := range sums {
				b := best{faceScore{face: fi, turn: turn, level: 1, score: st.partial(t), n: pp.n}, pi}
				offer(b)
				screened = append(screened, b)
			}
		}
		screenBuf = screened
		// Which ones lead counts, not in what order: a face's sums are
		// the same in any lane, and each face is offered once a shift.
		screened = leading(screened, nameScreen, func(b *best) float64 { return b.score }, false, faces.noLanes)
		// The screened faces at each turn.
		var whichOf [2][]int32
		for turn := range whichOf {
			for _, c := range screened {
				if c.turn == turn {
					whichOf[turn] = append(whichOf[turn], int32(c.face))
				}
			}
		}
		r := w.radius[1]
		for dy := -r; dy <= r; dy++ {
			for dx := -r; dx <= r; dx++ {
				if dx == 0 && dy == 0 {
					continue
				}
				pp := w.pairs(faces, 1, dx, dy, &buf)
				if pp.n < minN1 {
					continue
				}
				var sts [2]windowStats
				if len(whichOf[0]) > 0 && len(whichOf[1]) > 0 {
					sts = w.statsBoth(faces, 1, pp)
				}
				for turn := 0; turn < 2; turn++ {
					which := whichOf[turn]
					if len(which) == 0 {
						continue
					}
					st := sts[turn]
					if len(whichOf[1-turn]) == 0 {
						st = w.stats(faces, 1, turn, pp)
					}
					if !st.ok {
						continue
					}
					sums = w.faceSums(faces, 1, turn, which, 0, pp, sums)
					for k, t := range sums {
						offer(best{faceScore{face: int(which[k]), turn: turn, dx: dx, dy: dy, level: 1, score: st.partial(t), n: pp.n}, pi})
					}
				}
			}
		}
	}
	// Only the first nameRefine+1 are read.
	coarse = leading(coarse, nameRefine+1, func(b *best) float64 { return b.score }, true, faces.noLanes)
	// Level 0: the best few, around where level 1 put them.
	minN0 := int(nameMinVisibleMM2 * faces.pxPerMM0 * faces.pxPerMM0)
	turnedWindow := map[[2]int]int{}
	// refine compares a face around its level-1 shift in the window of its
	// placement turned by step turn steps, keeping the better of that and b.
	refine := func(c best, step int, b best) best {
		wi := c.place
		if step != 0 {
			key := [2]int{c.place, step}
			i, ok := turnedWindow[key]
			if !ok {
				p := windows[c.place].place
				p.angleDeg += float64(step) * placeTurnStepDeg
				windows = append(windows, readSiteWindow(gray, v.pxPerMM, faces, p, radius0, found, stripHiddenPad))
				i = len(windows) - 1
				turnedWindow[key] = i
			}
			wi = i
		}
		w := &windows[wi]
		for dy := 2*c.dy - 1; dy <= 2*c.dy+1; dy++ {
			for dx := 2*c.dx - 1; dx <= 2*c.dx+1; dx++ {
				if abs(dx) > w.radius[0] || abs(dy) > w.radius[0] {
					continue
				}
				pp := w.pairs(faces, 0, dx, dy, &buf)
				if pp.n < minN0 {
					continue
				}
				st := w.stats(faces, 0, c.turn, pp)
				sc := -1.0
				if st.ok {
					sums = w.faceSums(faces, 0, c.turn, nil, c.face, pp, sums)
					sc = st.partial(sums[0])
				}
				if sc > b.score {
					b = best{faceScore{face: c.face, turn: c.turn, dx: dx, dy: dy, level: 0, score: sc, n: pp.n}, wi}
				}
			}
		}
		return b
	}
	var fine, from []best // refined faces, and where level 1 left each
	for _, c := range coarse[:min(nameRefine, len(coarse))] {
		if c.score > -2 {
			fine = append(fine, refine(c, 0, best{faceScore{face: c.face, score: -2}, c.place}))
			from = append(from, c)
		}
	}
	if len(fine) == 0 {
		return siteName{}, false
	}
	// decide gives the leading face, and whether it leads clearly enough
	// to be named.
	decide := func() (best, bool) {
		order := make([]int, len(fine))
		for i := range order {
			order[i] = i
		}
		sort.Slice(order, func(i, j int) bool { return fine[order[i]].score > fine[order[j]].score })
		top := fine[order[0]]
		other := -1.0
		if len(fine) > 1 {
			other = fine[order[1]].score
		}
		if len(coarse) > len(fine) {
			// A face left at level 1 scored below the refined ones there;
			// its level-1 score stands in for it.
			other = max(other, min(coarse[len(fine)].score, top.score))
		}
		visibleMM2 := float64(top.n) / (faces.pxPerMM0 * faces.pxPerMM0)
		need := max(nameLeadAt1000*math.Sqrt(1000/visibleMM2), nameMinLead)
		return top, top.score >= nameMinScore && top.score-other >= need
	}
	top, ok := decide()
	onTop := quadsOfPlaced(found)
	// placed gives a face's detection where its window and shift put it
	// (a level-1 shift counts twice at level 0).
	placed := func(b best) detection {
		w := &windows[b.place]
		dx, dy := b.dx, b.dy
		if b.level == 1 {
			dx, dy = 2*dx, 2*dy
		}
		at := w.shifted(dx, dy, v.pxPerMM/faces.pxPerMM0)
		ca, sa := math.Cos(w.place.angleDeg*math.Pi/180), math.Sin(w.place.angleDeg*math.Pi/180)
		if b.turn == 1 {
			ca, sa = -ca, -sa
		}
		ref := &a.index.refs[faces.refs[b.face]]
		fw, fh := float64(ref.W), float64(ref.H)
		sim := similarity{A: ca, B: sa}
		sim.Tx = at.cx - (ca*fw/2 - sa*fh/2)
		sim.Ty = at.cy - (sa*fw/2 + ca*fh/2)
		d := detection{ref: faces.refs[b.face], sim: sim, score: math.Min(b.score, nameConfidence)}
		for i, c := range [4][2]float64{{0, 0}, {fw, 0}, {fw, fh}, {0, fh}} {
			x, y := sim.apply(c[0], c[1])
			d.quad[i] = models.Point{X: x, Y: y}
		}
		return d
	}
	// toneAgrees tells whether a face has the colours of what shows where
	// it is placed (covered_tone.go), toneCloseTo whether it has them
	// closely.
	toneAgrees := func(b best) bool {
		d := placed(b)
		return a.toneAgrees(v, &a.index.refs[d.ref], d.quad, onTop)
	}
	toneCloseTo := func(b best) bool {
		d := placed(b)
		spread, ok := a.toneSpread(v, &a.index.refs[d.ref], d.quad, onTop)
		return ok && spread <= toneCloseSpread
	}
	layoutOf := func(b best) float64 {
		w := &windows[b.place]
		return w.stats(faces, b.level, b.turn, w.pairs(faces, b.level, b.dx, b.dy, &buf)).layout()
	}
	if !ok && top.score >= nameAlignFloor && (outlineShown || layoutOf(top) >= nameAlignLayout) {
		// What shows of a site beside a card on top lies mostly along its
		// edges, where a fraction of a millimetre or of a degree off costs
		// a face much of its correlation: the leading faces are aligned
		// on what shows (alignFace), alike, and the decision taken again.
		order := make([]int, len(fine))
		for i := range order {
			order[i] = i
		}
		sort.Slice(order, func(i, j int) bool { return fine[order[i]].score > fine[order[j]].score })
		for _, i := range order[:min(nameAlignTop, len(order))] {
			c := fine[i]
			aw, ok := alignFace(gray, v.pxPerMM, faces, c.face, c.turn, &windows[c.place], c.dx, c.dy, found)
			if !ok {
				continue
			}
			pp := aw.pairs(faces, 0, 0, 0, &buf)
			if pp.n < minN0 {
				continue
			}
			st := aw.stats(faces, 0, c.turn, pp)
			if !st.ok {
				continue
			}
			sums = aw.faceSums(faces, 0, c.turn, nil, c.face, pp, sums)
			if sc := st.partial(sums[0]); sc > c.score {
				windows = append(windows, aw)
				fine[i] = best{faceScore{face: c.face, turn: c.turn, level: 0, score: sc, n: pp.n}, len(windows) - 1}
			}
		}
		top, ok = decide()
	} else if !ok && top.score >= nameMinScore-nameTurnHope {
		// The outline's turn may be a step off, which costs a face much
		// of its correlation: the two leading faces are tried turned a
		// step either way, alike, and the decision taken again.
		order := make([]int, len(fine))
		for i := range order {
			order[i] = i
		}
		sort.Slice(order, func(i, j int) bool { return fine[order[i]].score > fine[order[j]].score })
		for _, i := range order[:min(2, len(order))] {
			for _, step := range []int{-1, 1} {
				fine[i] = refine(from[i], step, fine[i])
			}
		}
		top, ok = decide()
	}
	if !ok && top.score >= nameRivalsFrom && toneCloseTo(top) {
		// The grey comparison cannot tell faces of one pattern in other
		// colours apart: when the leading face correlates strongly and
		// has closely the colours of what shows, a rival whose colours
		// are not those of what shows is none, and the decision is taken
		// again without it.
		dropped := false
		for i := range fine {
			if fine[i].face != top.face && fine[i].score > -2 && !toneAgrees(fine[i]) {
				fine[i].score, dropped = -2, true
			}
		}
		if len(coarse) > len(fine) && !toneAgrees(coarse[len(fine)]) {
			coarse, dropped = coarse[:len(fine)], true
		}
		if dropped {
			top, ok = decide()
		}
	}
	win := &windows[top.place]
	layout := layoutOf(top)
	lookAlike := false
	if ok {
		// Does the leading face explain the detail of what shows, or only
		// its tones (a look-alike of a site the catalog lacks)?
		mm := faces.pxPerMM0
		var fine [2]float64
		win.detailScores(faces, top.face, top.turn, top.dx, top.dy, []int{int(math.Round(4 * mm)), int(math.Round(8 * mm))}, fine[:])
		ok = top.score+2*fine[0]+fine[1] >= nameMinEvidence
		lookAlike = !ok
	}
	if !ok && !lookAlike {
		d := placed(top)
		return siteName{place: win.place, layout: layout, lead: &d}, false
	}
	// The face's placement: the window's centre moved by the shift, turned.
	d := placed(top)
	if !lookAlike && !toneAgrees(top) {
		// What shows has the face's pattern in grey, but not its colours:
		// a site the catalog lacks.
		lookAlike = true
	}
	return siteName{det: d, place: win.place, layout: layout, lookAlike: lookAlike}, !lookAlike
}

// leading moves the k best of s, by score, to its front and gives them,
// as sorting s by score (sort.Slice, highest first) and keeping the first
// k would: in one pass where the sort's order of equal scores cannot
// change which k they are (nor, when ordered, their order), else by that
// sort. plain sorts always (the tests' reference).
func leading[T any](s []T, k int, score func(*T) float64, ordered, plain bool) []T {
	byScore := func() []T {
		sort.Slice(s, func(i, j int) bool { return score(&s[i]) > score(&s[j]) })
		return s[:min(k, len(s))]
	}
	const most = 8
	if plain || k < 1 || k > most {
		return byScore()
	}
	// The k+1 best so far, highest first (equal scores as they came).
	var top [most + 1]int
	var ts [most + 1]float64
	nt := 0
	for i := range s {
		v := score(&s[i])
		if v != v {
			return byScore()
		}
		if nt == k+1 && !(v > ts[k]) {
			continue
		}
		j := min(nt, k)
		for ; j > 0 && ts[j-1] < v; j-- {
			top[j], ts[j] = top[j-1], ts[j-1]
		}
		top[j], ts[j] = i, v
		nt = min(nt+1, k+1)
	}
	n := min(k, nt)
	if nt > k && ts[k-1] == ts[k] {
		return byScore()
	}
	for i := 1; ordered && i < n; i++ {
		if ts[i-1] == ts[i] {
			return byScore()
		}
	}
	var lead [most]T
	for i := 0; i < n; i++ {
		lead[i] = s[top[i]]
	}
	copy(s, lead[:n])
	return s[:n]
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// layoutShift gives the shift at level 1, at most r pixels each way, at
// which what shows correlates best with the mean site face at either
// turn, and that correlation: where a site lies, whichever it is. The outline's placement may
// lie a few millimetres off it, on one of the lines a site's face prints
// parallel to its edges (its border's inner edge, the text box's), where
// few of its edges show.
func (w *siteWindow) layoutShift(faces *siteFaces, r int) (dx, dy int, layout float64) {
	minN1 := int(nameMinVisibleMM2 * faces.pxPerMM0 * faces.pxPerMM0 / 4)
	var buf pixelPairs
	best := math.Inf(-1)
	for y := -r; y <= r; y++ {
		for x := -r; x <= r; x++ {
			pp := w.pairs(faces, 1, x, y, &buf)
			if pp.n < minN1 {
				continue
			}
			for _, st := range w.statsBoth(faces, 1, pp) {
				if l := st.layout(); l > best {
					best, dx, dy = l, x, y
				}
			}
		}
	}
	return dx, dy, best
}

// shifted gives the window's placement moved by (dx, dy) level-0 pixels;
// k is top-down pixels per level-0 pixel.
func (w *siteWindow) shifted(dx, dy int, k float64) sitePlacement {
	p := w.place
	ca, sa := math.Cos(p.angleDeg*math.Pi/180), math.Sin(p.angleDeg*math.Pi/180)
	p.cx += k * (ca*float64(dx) - sa*float64(dy))
	p.cy += k * (sa*float64(dx) + ca*float64(dy))
	return p
}

// crop gives the window of radius0 around the placement moved by (dx, dy)
// level-0 pixels (even, within the window's radius less radius0), as
// readSiteWindow reads it there: the same samples, without reading them
// again.
func (w *siteWindow) crop(faces *siteFaces, dx, dy, radius0 int, pxPerMM float64) siteWindow {
	c := siteWindow{place: w.shifted(dx, dy, pxPerMM/faces.pxPerMM0), radius: [2]int{radius0, radius0 / 2}}
	c.w[0], c.h[0] = faces.w[0]+2*radius0, faces.h[0]+2*radius0
	c.w[1], c.h[1] = c.w[0]/2, c.h[0]/2
	for level := range c.px {
		off := (w.radius[0] - radius0) >> level
		x0, y0 := off+dx>>level, off+dy>>level
		c.px[level] = faces.arena.floats(c.w[level] * c.h[level])
		c.vis[level] = faces.arena.bools(c.w[level] * c.h[level])
		for y := 0; y < c.h[level]; y++ {
			from := (y+y0)*w.w[level] + x0
			copy(c.px[level][y*c.w[level]:(y+1)*c.w[level]], w.px[level][from:from+c.w[level]])
			copy(c.vis[level][y*c.w[level]:(y+1)*c.w[level]], w.vis[level][from:from+c.w[level]])
		}
	}
	return c
}

// alignIters is the most Gauss-Newton steps alignFace takes.
const alignIters = 3

// alignFace moves a face, placed at level-0 shift (dx, dy) in window w
// (turned as w), to where it lies best on what shows, to a fraction of a
// pixel and of a degree, and gives the window read there (radius 2): the
// least squares of T ≈ a·I(W(x)) + b over the visible pixels at level 0,
// T the face, I the window (interpolated), W a shift and a small turn,
// solved for a, b and the step of W (a·ΔW) linearised, step by step. ok
// is false when too little shows to align on.
func alignFace(gray gocv.Mat, pxPerMM float64, faces *siteFaces, face, turn int, w *siteWindow, dx, dy int, found []placed) (siteWindow, bool) {
	tw, th := faces.w[0], faces.h[0]
	t := faces.faceAt(0, turn, face)
	ww, wh := w.w[0], w.h[0]
	px, vis := w.px[0], w.vis[0]
	gx, gy, ok := windowSteps(&faces.arena, px, vis, ww, wh)
	// The face pixels that show at the start (the turn and shift to come
	// are small): runs along the face's rows.
	var buf pixelPairs
	pp := w.pairs(faces, 0, dx, dy, &buf)
	tx, ty, th0 := float64(dx), float64(dy), 0.0
	lim := float64(w.radius[0]) - 1.5
	minN := nameMinVisibleMM2 * faces.pxPerMM0 * faces.pxPerMM0
	for it := 0; it < alignIters; it++ {
		ata, atb, n := alignNormal(alignInput{t, tw, th, px, gx, gy, ok, ww, wh}, pp, tx, ty, th0)
		if float64(n) < minN {
			return siteWindow{}, false
		}
		for a := range ata {
			for c := 0; c < a; c++ {
				ata[a][c] = ata[c][a]
			}
		}
		sol, solved := solve5(ata, atb)
		if !solved || sol[0] < 1e-3 {
			return siteWindow{}, false
		}
		// At most a pixel and a half, and a degree and a half, a step.
		ddx, ddy := clamp(sol[2]/sol[0], 1.5), clamp(sol[3]/sol[0], 1.5)
		ddt := clamp(sol[4]/sol[0], 1.5*math.Pi/180)
		tx, ty, th0 = clamp(tx+ddx, lim), clamp(ty+ddy, lim), th0+ddt
		if math.Abs(ddx) < 0.05 && math.Abs(ddy) < 0.05 && math.Abs(ddt) < 0.05*math.Pi/180 {
			break
		}
	}
	p := w.place
	k := pxPerMM / faces.pxPerMM0
	ca, sa := math.Cos(p.angleDeg*math.Pi/180), math.Sin(p.angleDeg*math.Pi/180)
	p.cx += k * (ca*tx - sa*ty)
	p.cy += k * (sa*tx + ca*ty)
	p.angleDeg += th0 * 180 / math.Pi
	return readSiteWindow(gray, pxPerMM, faces, p, 2, found, stripHiddenPad), true
}

// windowSteps gives a window's grey steps across and down (ww × wh pixels
// px), where a pixel and its four neighbours show (ok), 0 elsewhere, in
// buffers of arena (every value written).
func windowSteps(arena *windowArena, px []float32, vis []bool, ww, wh int) (gx, gy []float32, ok []bool) {
	gx, gy, ok = arena.floats(len(px)), arena.floats(len(px)), arena.bools(len(px))
	clear(gx)
	clear(gy)
	clear(ok)
	for y := 1; y < wh-1; y++ {
		for x := 1; x < ww-1; x++ {
			i := y*ww + x
			if vis[i] && vis[i-1] && vis[i+1] && vis[i-ww] && vis[i+ww] {
				ok[i] = true
				gx[i] = (px[i+1] - px[i-1]) / 2
				gy[i] = (px[i+ww] - px[i-ww]) / 2
			}
		}
	}
	return gx, gy, ok
}

// alignInput is what one Gauss-Newton step of alignFace reads: the face
// (tw × th), and the window's pixels, grey steps and where they show (ww ×
// wh).
type alignInput struct {
	t          []float32
	tw, th     int
	px, gx, gy []float32
	ok         []bool
	ww, wh     int
}

// alignNormal gives the normal equations of one step of alignFace (the
// upper triangle of ata, and atb) over the face pixels of pp placed at
// shift (tx, ty) and turn th0 in the window, and how many it read. The
// pixel loop holds everything a run shares, and each sum, in variables of
// its own; the sums are those of the plain loop to the last bit
// (TestAlignNormalAsPlain).
func alignNormal(in alignInput, pp pixelPairs, tx, ty, th0 float64) (ata [5][5]float64, atb [5]float64, n int) {
	ct, st := math.Cos(th0), math.Sin(th0)
	tw, ww, wh := in.tw, in.ww, in.wh
	px, gx, gy, ok, t := in.px, in.gx, in.gy, in.ok, in.t
	bx, by := float64(ww)/2+tx, float64(wh)/2+ty
	var a00, a01, a02, a03, a04, a11, a12, a13, a14, a22, a23, a24, a33, a34, a44 float64
	var b0, b1, b2, b3, b4 float64
	for _, run := range pp.runs {
		v, u0 := int(run.face)/tw, int(run.face)%tw
		y := float64(v) + 0.5 - float64(in.th)/2
		sy, cy := st*y, ct*y
		row := t[v*tw : (v+1)*tw]
		for u := u0; u < u0+int(run.n); u++ {
			x := float64(u) + 0.5 - float64(tw)/2
			cx, sx := ct*x, st*x
			// The face pixel's place in the window, as a pixel index.
			fx := bx + cx - sy - 0.5
			fy := by + sx + cy - 0.5
			if fx < 0 || fy < 0 { // floor(f) < 0
				continue
			}
			x0, y0 := int(fx), int(fy) // floor
			if x0+1 >= ww || y0+1 >= wh {
				continue
			}
			i := y0*ww + x0
			j := i + ww
			if j+1 >= len(ok) || !ok[i] || !ok[i+1] || !ok[j] || !ok[j+1] {
				continue
			}
			ax, ay := float32(fx-float64(x0)), float32(fy-float64(y0))
			top := px[i] + ax*(px[i+1]-px[i])
			bot := px[j] + ax*(px[j+1]-px[j])
			I := float64(top + ay*(bot-top))
			top = gx[i] + ax*(gx[i+1]-gx[i])
			bot = gx[j] + ax*(gx[j+1]-gx[j])
			GX := float64(top + ay*(bot-top))
			top = gy[i] + ax*(gy[i+1]-gy[i])
			bot = gy[j] + ax*(gy[j+1]-gy[j])
			GY := float64(top + ay*(bot-top))
			R := GX*(-sx-cy) + GY*(cx-sy)
			tv := float64(row[u])
			a00 += I * I
			a01 += I
			a02 += I * GX
			a03 += I * GY
			a04 += I * R
			b0 += I * tv
			a11++
			a12 += GX
			a13 += GY
			a14 += R
			b1 += tv
			a22 += GX * GX
			a23 += GX * GY
			a24 += GX * R
			b2 += GX * tv
			a33 += GY * GY
			a34 += GY * R
			b3 += GY * tv
			a44 += R * R
			b4 += R * tv
			n++
		}
	}
	ata[0] = [5]float64{a00, a01, a02, a03, a04}
	ata[1] = [5]float64{0, a11, a12, a13, a14}
	ata[2] = [5]float64{0, 0, a22, a23, a24}
	ata[3] = [5]float64{0, 0, 0, a33, a34}
	ata[4] = [5]float64{0, 0, 0, 0, a44}
	atb = [5]float64{b0, b1, b2, b3, b4}
	return ata, atb, n
}

func clamp(x, lim float64) float64 { return max(-lim, min(lim, x)) }

// solve5 solves a 5×5 linear system (Gaussian elimination, partial
// pivoting); ok is false when it is singular.
func solve5(a [5][5]float64, b [5]float64) (x [5]float64, ok bool) {
	for c := range a {
		piv := c
		for r := c + 1; r < len(a); r++ {
			if math.Abs(a[r][c]) > math.Abs(a[piv][c]) {
				piv = r
			}
		}
		if math.Abs(a[piv][c]) < 1e-12 {
			return x, false
		}
		a[c], a[piv] = a[piv], a[c]
		b[c], b[piv] = b[piv], b[c]
		for r := c + 1; r < len(a); r++ {
			f := a[r][c] / a[c][c]
			for k := c; k < len(a); k++ {
				a[r][k] -= f * a[c][k]
			}
			b[r] -= f * b[c]
		}
	}
	for r := len(a) - 1; r >= 0; r-- {
		s := b[r]
		for k := r + 1; k < len(a); k++ {
			s -= a[r][k] * x[k]
		}
		x[r] = s / a[r][r]
	}
	return x, true
}
