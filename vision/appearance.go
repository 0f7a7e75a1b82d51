package vision

import (
	"fmt"
	"image"
	"math"
	"sort"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// Naming a card by its look. A face whose art is smooth (soft shapes, a
// gradient, or any art blurred by a camera out of focus or far away) gives
// feature matching few corners to match, and its outline is found but not
// named. Its look names it still: the outline is warped to a small colour
// thumbnail at each turn its shape allows, and compared with the thumbnail
// of every face of that kind. Faces of a kind share their layout (frame,
// title bar, text box), and a camera changes a face's brightness, contrast,
// colour balance and lighting across it; so the comparison is a partial
// correlation: each colour channel of both thumbnails is taken out of what
// a flat tone, a ramp across and down, and the kind's mean face (its
// layout) explain, and what is left is correlated. A card is named only
// when its best face correlates clearly (lookMinScore) and clearly better
// than any face of another name (lookMargin); a card the catalog lacks
// correlates with no face through the layout alone, and stays unknown.
const (
	// lookPxPerMM is the thumbnails' scale: 2 mm a pixel, enough for a
	// face's shapes and colours, and a few pixels off in the outline
	// cost little.
	lookPxPerMM = 0.5
	// lookBorder is the band of thumbnail pixels along the edge left out
	// of the comparison: the outline may be a pixel off, and corners are
	// round.
	lookBorder = 1
	// lookCoarseStep is about how many thumbnail pixels each way one pixel
	// of the coarse thumbnail averages: the first cut compares these with
	// every face of the kind.
	lookCoarseStep = 4
	// lookShortlist is how many of the best faces (in a turn) by the
	// coarse comparison are compared at the thumbnail's scale.
	lookShortlist = 12
	// lookMinFaces is the fewest faces of a kind that are compared by
	// look: the mean of fewer is mostly their own art, not their layout.
	lookMinFaces = 4
)

// lookNuisance is how many vectors each channel's comparison leaves out:
// a flat tone, a ramp across, a ramp down, and the kind's mean face.
const lookNuisance = 4

// lookOf reads a card's scan in colour, upright (a site landscape, turned
// as uprightFace turns it), at lookPxPerMM: BGR bytes, row by row.
func lookOf(c *models.Card, opts Options) ([]byte, error) {
	img, _, err := uprightImage(c, opts, gocv.IMReadColor)
	if err != nil {
		return nil, err
	}
	defer img.Close()
	w, h := faceSizePx(kindOf(c), lookPxPerMM)
	thumb := gocv.NewMat()
	defer thumb.Close()
	gocv.Resize(img, &thumb, image.Pt(w, h), 0, 0, gocv.InterpolationArea)
	px := thumb.ToBytes()
	if thumb.Channels() != 3 || len(px) != 3*w*h {
		return nil, fmt.Errorf("vision: reference face of %q: no colour thumbnail from %s", c.Name, c.Image)
	}
	return px, nil
}

// lookLevel is one scale of a kind's comparison: the thumbnail's inside
// (less lookBorder) at the thumbnail's scale, or its coarse copy.
type lookLevel struct {
	w, h int
	// cols and rows give, for each pixel column and row of the level, the
	// span of the inside's columns and rows it averages.
	cols, rows [][2]int
	// basis holds, for each channel, orthonormal vectors spanning what is
	// left out of its comparison (lookNuisance of them).
	basis [3][lookNuisance][]float32
	// meanTurned holds, for each channel, the basis' last vector (the
	// mean face's) turned a half turn: a vector's dot with it is its half
	// turn's dot with the mean face (layoutScores).
	meanTurned [3][]float32
	// faces holds every face's vector (3·w·h values, channel after
	// channel), compared part only, of unit length, one after another.
	faces []float32
}

// lookKind is the faces of one kind as they are compared by look.
type lookKind struct {
	kind   models.CardKind
	w, h   int     // thumbnail size, upright
	refs   []int32 // the faces' references
	levels [2]lookLevel
}

// lookIndex holds the catalog's faces, kind by kind, for naming by look.
type lookIndex struct {
	kinds []lookKind
}

// newLookIndex gathers the references' thumbnails by kind; a kind with
// fewer than lookMinFaces faces is left out, but for tokens: a small
// catalog holds only a few, and a token is printed as a card is, smaller.
// Their comparison takes in the standard cards' faces, shrunk to a
// token's size (lookRivals): the mean of all of them is the layout, and
// each is a rival that a token's look must lead as it must lead any other
// name. A rival fitting best names nothing (lookKind.named).
func newLookIndex(refs []reference) *lookIndex {
	byKind := map[models.CardKind][]int32{}
	var order []models.CardKind
	for i, r := range refs {
		w, h := faceSizePx(r.Kind, lookPxPerMM)
		if len(r.Look) != 3*w*h {
			continue
		}
		if _, seen := byKind[r.Kind]; !seen {
			order = append(order, r.Kind)
		}
		byKind[r.Kind] = append(byKind[r.Kind], int32(i))
	}
	x := &lookIndex{}
	for _, kind := range order {
		ids := byKind[kind]
		w, h := faceSizePx(kind, lookPxPerMM)
		iw, ih := w-2*lookBorder, h-2*lookBorder
		own := len(ids)
		if own < lookMinFaces && kind == models.KindToken && len(byKind[models.KindStandard]) >= lookMinFaces {
			ids = append(append([]int32(nil), ids...), byKind[models.KindStandard]...)
		}
		if len(ids) < lookMinFaces || iw < 4 || ih < 4 {
			continue
		}
		k := lookKind{kind: kind, w: w, h: h, refs: ids}
		k.levels[0] = newLookLevel(iw, ih, iw, ih)
		k.levels[1] = newLookLevel(iw, ih, max(2, int(math.Round(float64(iw)/lookCoarseStep))), max(2, int(math.Round(float64(ih)/lookCoarseStep))))
		raw := make([][2][]float32, len(ids))
		for j, ri := range ids {
			look := refs[ri].Look
			if refs[ri].Kind != kind {
				sw, sh := faceSizePx(refs[ri].Kind, lookPxPerMM)
				look = resampleLook(look, sw, sh, w, h)
			}
			for l := range k.levels {
				raw[j][l] = k.levels[l].vector(look, w, h)
			}
		}
		for l := range k.levels {
			lv := &k.levels[l]
			mean := make([]float64, 3*lv.w*lv.h)
			for j := range raw {
				for i, v := range raw[j][l] {
					mean[i] += float64(v)
				}
			}
			for i := range mean {
				mean[i] /= float64(len(raw))
			}
			lv.setBasis(mean)
			lv.faces = make([]float32, 0, len(ids)*len(mean))
			for j := range raw {
				v := raw[j][l]
				lv.compared(v) // a face flat but for its layout keeps a zero vector
				lv.faces = append(lv.faces, v...)
			}
		}
		x.kinds = append(x.kinds, k)
	}
	return x
}

// newLookLevel is a level of w × h pixels over an inside of iw × ih
// thumbnail pixels.
func newLookLevel(iw, ih, w, h int) lookLevel {
	lv := lookLevel{w: w, h: h, cols: make([][2]int, w), rows: make([][2]int, h)}
	for x := range lv.cols {
		lv.cols[x] = [2]int{x * iw / w, (x + 1) * iw / w}
	}
	for y := range lv.rows {
		lv.rows[y] = [2]int{y * ih / h, (y + 1) * ih / h}
	}
	return lv
}

// vector reads a thumbnail (BGR bytes, w × h, upright) at the level: the
// inside's pixels averaged over each level pixel's span, channel after
// channel.
func (lv *lookLevel) vector(px []byte, w, h int) []float32 {
	return lv.vectorInto(make([]float32, 3*lv.w*lv.h), px, w, h)
}

// vectorInto is vector written into out (3·lv.w·lv.h values), which it
// returns.
func (lv *lookLevel) vectorInto(out []float32, px []byte, w, h int) []float32 {
	n := lv.w * lv.h
	if lv.w == w-2*lookBorder && lv.h == h-2*lookBorder {
		// The inside itself, pixel for pixel.
		for y := 0; y < lv.h; y++ {
			row := px[3*((y+lookBorder)*w+lookBorder):]
			for x := 0; x < lv.w; x++ {
				p := row[3*x : 3*x+3]
				out[y*lv.w+x] = float32(p[0])
				out[n+y*lv.w+x] = float32(p[1])
				out[2*n+y*lv.w+x] = float32(p[2])
			}
		}
		return out
	}
	for y, ry := range lv.rows {
		for x, rx := range lv.cols {
			var s [3]float32
			for ty := ry[0]; ty < ry[1]; ty++ {
				row := (ty+lookBorder)*w + lookBorder
				for tx := rx[0]; tx < rx[1]; tx++ {
					p := px[3*(row+tx):]
					s[0] += float32(p[0])
					s[1] += float32(p[1])
					s[2] += float32(p[2])
				}
			}
			k := float32((ry[1] - ry[0]) * (rx[1] - rx[0]))
			for c := range s {
				out[c*n+y*lv.w+x] = s[c] / k
			}
		}
	}
	return out
}

// setBasis sets, for each channel, an orthonormal basis of a flat tone, a
// ramp across, a ramp down and the mean face's channel (mean: the mean
// face's vector).
func (lv *lookLevel) setBasis(mean []float64) {
	n := lv.w * lv.h
	for c := range lv.basis {
		vs := make([][]float64, 0, lookNuisance)
		flat, across, down := make([]float64, n), make([]float64, n), make([]float64, n)
		for y := 0; y < lv.h; y++ {
			for x := 0; x < lv.w; x++ {
				flat[y*lv.w+x] = 1
				across[y*lv.w+x] = float64(x) - float64(lv.w-1)/2
				down[y*lv.w+x] = float64(y) - float64(lv.h-1)/2
			}
		}
		vs = append(vs, flat, across, down, append([]float64(nil), mean[c*n:(c+1)*n]...))
		// Gram-Schmidt, twice over for accuracy.
		for i := range vs {
			for pass := 0; pass < 2; pass++ {
				for j := 0; j < i; j++ {
					d := dot64(vs[i], vs[j])
					for k := range vs[i] {
						vs[i][k] -= d * vs[j][k]
					}
				}
			}
			norm := math.Sqrt(dot64(vs[i], vs[i]))
			for k := range vs[i] {
				if norm > 1e-9 {
					vs[i][k] /= norm
				} else {
					vs[i][k] = 0
				}
			}
			lv.basis[c][i] = make([]float32, n)
			for k, v := range vs[i] {
				lv.basis[c][i][k] = float32(v)
			}
		}
		last := lv.basis[c][lookNuisance-1]
		lv.meanTurned[c] = make([]float32, n)
		for k, v := range last {
			lv.meanTurned[c][n-1-k] = v
		}
	}
}

func dot64(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// compared turns a level's vector into its compared part, in place: each
// channel less its projection on the channel's basis, the whole scaled to
// unit length. ok is false (and v all zeros) when nothing is left.
func (lv *lookLevel) compared(v []float32) (ok bool) {
	n := lv.w * lv.h
	for c := range lv.basis {
		ch := v[c*n : (c+1)*n]
		for _, b := range lv.basis[c] {
			d := dot32(ch, b)
			for k := range ch {
				ch[k] -= d * b[k]
			}
		}
	}
	norm := math.Sqrt(float64(dot32(v, v)))
	if norm < 1e-3 {
		clear(v)
		return false
	}
	for k := range v {
		v[k] = float32(float64(v[k]) / norm)
	}
	return true
}

// dot32 is the dot product of two vectors of the same length (four sums,
// for speed).
func dot32(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// lookCandidate is a face in a turn, and how well it fits an outline.
type lookCandidate struct {
	view  int // in the outline's views
	face  int // in the view's kind's refs
	score float64
}

// lookView is an outline's thumbnail in one turn of a kind (px), its
// compared part at the coarse level, and at the thumbnail's when compared
// there (fineVec), and the outline's corners in that turn.
type lookView struct {
	kind, turn int
	src        [4]models.Point
	px         []byte
	coarse     []float32
	fine       []float32
	fineOK     bool
}

// fineVec gives the view's compared part at the thumbnail's scale, worked
// out the first time; ok is false when nothing is left of it.
func (x *lookIndex) fineVec(v *lookView) ([]float32, bool) {
	if v.fine == nil {
		k := &x.kinds[v.kind]
		v.fine = k.levels[0].vector(v.px, k.w, k.h)
		v.fineOK = k.levels[0].compared(v.fine)
	}
	return v.fine, v.fineOK
}

// lookResult is what naming an outline by look found: its best face, and
// the best of another name (score -1 when there is none).
type lookResult struct {
	best, second lookCandidate
	fine         []lookCandidate // the faces compared at the thumbnail's scale, best first
	ok           bool
}

// lookViews warps the outline quad (top-down pixels, clockwise from the
// top-left) of the colour image (scale: its pixels per top-down pixel;
// pxPerMM: the top-down scale) to each kind's thumbnail at each turn the
// outline's shape fits that kind's face in.
func (x *lookIndex) lookViews(colour gocv.Mat, scale float64, quad models.Quad, pxPerMM float64) []lookView {
	var out []lookView
	for ki := range x.kinds {
		k := &x.kinds[ki]
		fw, fh := faceSizeMM(k.kind)
		var turned [4][]byte // the thumbnail at each turn: a turn and the one opposite are one warp
		for turn := 0; turn < 4; turn++ {
			src, ok := turnedOutline(quad, turn, fw*pxPerMM, fh*pxPerMM)
			if !ok {
				continue
			}
			var px []byte
			if turn >= 2 && turned[turn-2] != nil {
				px = turnedLook(turned[turn-2])
			} else if px, ok = warpLook(colour, scale, src, k.w, k.h); !ok {
				continue
			} else {
				unclipped(px, k.w, k.h)
			}
			turned[turn] = px
			v := lookView{kind: ki, turn: turn, src: src, px: px, coarse: k.levels[1].vector(px, k.w, k.h)}
			if k.levels[1].compared(v.coarse) {
				out = append(out, v)
			}
		}
	}
	return out
}

// warpLook samples the outline src (top-down pixels, the face's top-left
// first, clockwise) of the colour image (scale: its pixels per top-down
// pixel; about 2 thumbnail pixels a side) as a w × h thumbnail: each
// pixel read bilinearly at its centre, which averages the 2 × 2 image
// pixels around it (an OpenCV warp costs a tenth of a millisecond for so
// few pixels, through its calls).
func warpLook(colour gocv.Mat, scale float64, src [4]models.Point, w, h int) ([]byte, bool) {
	return warpLookInto(make([]byte, 3*w*h), colour, scale, src, w, h)
}

// warpLookInto is warpLook written into out (3·w·h bytes), which it
// returns.
func warpLookInto(out []byte, colour gocv.Mat, scale float64, src [4]models.Point, w, h int) ([]byte, bool) {
	if colour.Empty() || colour.Type() != gocv.MatTypeCV8UC3 {
		return nil, false
	}
	img, err := colour.DataPtrUint8()
	cols, rows, stride := colour.Cols(), colour.Rows(), colour.Step()
	if err != nil || cols < 2 || rows < 2 || len(img) < (rows-1)*stride+3*cols {
		return nil, false
	}
	var s [4]models.Point
	for i, p := range src {
		s[i] = models.Point{X: p.X * scale, Y: p.Y * scale}
	}
	fw, fh := float64(w), float64(h)
	hm, err := models.NewHomography([4]models.Point{{X: 0, Y: 0}, {X: fw, Y: 0}, {X: fw, Y: fh}, {X: 0, Y: fh}}, s)
	if err != nil {
		return nil, false
	}
	maxX, maxY := float64(cols-1), float64(rows-1)
	for y := 0; y < h; y++ {
		// The thumbnail pixels' centres in the image (whose pixel centres
		// lie at half-integers): the homography's terms step along the row.
		fy := float64(y) + 0.5
		nx, ny, nw := hm[0]*0.5+hm[1]*fy+hm[2], hm[3]*0.5+hm[4]*fy+hm[5], hm[6]*0.5+hm[7]*fy+hm[8]
		row := out[3*y*w : 3*(y+1)*w]
		for x := 0; x < w; x++ {
			px, py := nx/nw-0.5, ny/nw-0.5
			nx, ny, nw = nx+hm[0], ny+hm[3], nw+hm[6]
			px, py = min(max(px, 0), maxX), min(max(py, 0), maxY)
			x0, y0 := min(int(px), cols-2), min(int(py), rows-2)
			ax, ay := float32(px-float64(x0)), float32(py-float64(y0))
			i := y0*stride + 3*x0
			a, b := img[i:i+6], img[i+stride:i+stride+6]
			o := row[3*x : 3*x+3]
			for c := range o {
				top := float32(a[c]) + ax*(float32(a[3+c])-float32(a[c]))
				bot := float32(b[c]) + ax*(float32(b[3+c])-float32(b[c]))
				o[c] = uint8(top + ay*(bot-top) + 0.5)
			}
		}
	}
	return out, true
}

// A lamp's reflection off a glossy card or sleeve burns part of it to the
// camera's white, and a rim about the burn is washed towards it: those
// pixels show little of the face, and in a correlation their brightness
// outweighs the art. unclipped gives them the thumbnail's median colour,
// which the comparison's flat tone takes out, so that they weigh almost
// nothing. A broad glare, burning more of the face, is left as it is: the
// comparison's ramps take out much of its spread, and a patch of one tone
// in its middle would not be.

// lookClipLevel is the level from which a thumbnail pixel whose three
// channels all reach it counts as burnt to white.
const lookClipLevel = 250

// lookMaxClipped is the largest share of a thumbnail's pixels burnt to
// white that unclipped fills in: a reflection's.
const lookMaxClipped = 0.1

// lookMaxRimmed is the largest share of burnt pixels whose rim unclipped
// fills in too: a small reflection's rim is washed out steeply, a broader
// glare's fades slowly and shows the face.
const lookMaxRimmed = 0.04

// unclipped sets the pixels of a w × h thumbnail (BGR bytes) burnt to
// white (lookClipLevel), and those beside them (a thumbnail pixel is 2 mm:
// the washed rim), to the median colour of the others, when at most
// lookMaxClipped of them are burnt.
func unclipped(px []byte, w, h int) {
	n := w * h
	burnt := func(i int) bool {
		p := px[3*i : 3*i+3]
		return p[0] >= lookClipLevel && p[1] >= lookClipLevel && p[2] >= lookClipLevel
	}
	var core []int
	for i := 0; i < n; i++ {
		if burnt(i) {
			core = append(core, i)
		}
	}
	if len(core) == 0 || float64(len(core)) > lookMaxClipped*float64(n) {
		return
	}
	masked := make([]bool, n)
	rim := 0
	if float64(len(core)) <= lookMaxRimmed*float64(n) {
		rim = 1
	}
	for _, i := range core {
		x, y := i%w, i/w
		for yy := max(y-rim, 0); yy <= min(y+rim, h-1); yy++ {
			for xx := max(x-rim, 0); xx <= min(x+rim, w-1); xx++ {
				masked[yy*w+xx] = true
			}
		}
	}
	var hist [3][256]int
	kept := 0
	for i := 0; i < n; i++ {
		if !masked[i] {
			kept++
			for c := range 3 {
				hist[c][px[3*i+c]]++
			}
		}
	}
	if kept == 0 {
		return
	}
	var median [3]byte
	for c := range hist {
		half, sum := (kept+1)/2, 0
		for v, k := range hist[c] {
			if sum += k; sum >= half {
				median[c] = byte(v)
				break
			}
		}
	}
	for i := 0; i < n; i++ {
		if masked[i] {
			copy(px[3*i:3*i+3], median[:])
		}
	}
}

// turnedLook is a thumbnail (BGR, row by row) turned 180°.
func turnedLook(px []byte) []byte {
	out := make([]byte, len(px))
	n := len(px) / 3
	for i := 0; i < n; i++ {
		copy(out[3*(n-1-i):3*(n-i)], px[3*i:3*i+3])
	}
	return out
}

// name compares the outline's views with the faces: every face of the
// view's kind at the coarse level, the lookShortlist best at the
// thumbnail's; best is the face that fits best, second the best face of
// another name. ok is false when there is nothing to compare.
func (x *lookIndex) name(refs []reference, views []lookView) lookResult {
	var res lookResult
	var coarse []lookCandidate
	for vi, v := range views {
		k := &x.kinds[v.kind]
		lv := &k.levels[1]
		n := 3 * lv.w * lv.h
		for f := range k.refs {
			coarse = append(coarse, lookCandidate{view: vi, face: f, score: float64(dot32(v.coarse, lv.faces[f*n:(f+1)*n]))})
		}
	}
	if len(coarse) == 0 {
		return res
	}
	// The lookShortlist best by the coarse comparison (picked, not sorted:
	// against a thousand faces there are thousands of candidates).
	fine := make([]lookCandidate, 0, lookShortlist+1)
	for _, c := range coarse {
		if len(fine) == lookShortlist && c.score <= fine[len(fine)-1].score {
			continue
		}
		j := len(fine)
		fine = append(fine, c)
		for ; j > 0 && fine[j-1].score < c.score; j-- {
			fine[j] = fine[j-1]
		}
		fine[j] = c
		fine = fine[:min(len(fine), lookShortlist)]
	}
	for i := range fine {
		v := &views[fine[i].view]
		lv := &x.kinds[v.kind].levels[0]
		n := 3 * lv.w * lv.h
		vec, ok := x.fineVec(v)
		fine[i].score = -1
		if ok {
			fine[i].score = float64(dot32(vec, lv.faces[fine[i].face*n:(fine[i].face+1)*n]))
		}
	}
	sort.SliceStable(fine, func(i, j int) bool { return fine[i].score > fine[j].score })
	res.best, res.second, res.fine, res.ok = fine[0], lookCandidate{view: -1, face: -1, score: -1}, fine, true
	name := refs[x.ref(views, res.best)].card.Name
	// The best face of another name: among the faces compared at the
	// thumbnail's scale; else (all of them of the best's name) the best of
	// the others by its coarse score.
	for _, c := range fine {
		if refs[x.ref(views, c)].card.Name != name {
			res.second = c
			return res
		}
	}
	for _, c := range coarse {
		if c.score > res.second.score && refs[x.ref(views, c)].card.Name != name {
			res.second = c
		}
	}
	return res
}

// ref gives a candidate's reference.
func (x *lookIndex) ref(views []lookView, c lookCandidate) int {
	return int(x.kinds[views[c.view].kind].refs[c.face])
}

// Naming by look decides with these: the best face's correlation, and its
// lead over the best face of another name.
const (
	lookMinScore = 0.55
	lookMargin   = 0.25
)

// A card out of focus, far, or under a lamp's glare correlates less with
// its own face, and its look may lead every other name by lookMargin yet
// fall short of lookMinScore: on the independent sets (full catalogs and
// 20 of their faces) such looks of the right card scored 0.49 to 0.54,
// while the looks leading so that named what was not there (a card
// missing from the catalog as its palette twin, an empty cell's mat art,
// a token's face on a card) scored at most 0.46. A near look, between
// lookNearScore and lookMinScore with the lead of lookMargin, names the
// card when a second, independent cue bears it out: the frame's grey
// keypoints in the outline agree with its face clearly more often than
// with the other faces of its size (lookOverKeypoints), as a blurred
// card's print still does. (Of the wrong looks, the keypoints bore out
// two, at 0.43 and 0.46.) The closed-outline, stacked-card, faint,
// three-sided and soft-frame searches name near looks so (and nameAround
// about their outlines); the token and muted searches, the name check and
// Identify do not.
const lookNearScore = 0.48

// nameByLook names the card in an outline (top-down pixels, clockwise
// from the top-left) that feature matching left unnamed by its look, in
// the frame's colour top-down image (a.images.small); ok is false when no
// face fits it clearly. Its turn, owner and tapped come from the face's
// turn that fits best. The correlation takes each channel's flat tone out,
// so the face must also have the colours of what shows of the outline, the
// cards found on it (onTop) left out (toneAgrees).
func (a *Analyzer) nameByLook(quad models.Quad, v *view, onTop []models.Quad) (detection, bool) {
	return a.nameByLookFrom(quad, v, onTop, lookAlignFrom)
}

// nameByLookBorne is nameByLook naming a near look too when the frame's
// keypoints (keys) bear it out (see lookNearScore).
func (a *Analyzer) nameByLookBorne(quad models.Quad, v *view, onTop []models.Quad, keys *features) (detection, bool) {
	return a.nameByLookBorneFrom(quad, v, onTop, lookAlignFrom, keys)
}

// nameByLookFrom is nameByLook with the outline aligned only when its best
// face correlates by alignFrom or more (lookAlignFrom for nameByLook).
func (a *Analyzer) nameByLookFrom(quad models.Quad, v *view, onTop []models.Quad, alignFrom float64) (detection, bool) {
	return a.nameByLookBorneFrom(quad, v, onTop, alignFrom, nil)
}

// nameByLookBorneFrom is nameByLookFrom; given the frame's keypoints
// (keys), it also names the card by a near look that the keypoints bear
// out (see lookNearScore).
func (a *Analyzer) nameByLookBorneFrom(quad models.Quad, v *view, onTop []models.Quad, alignFrom float64, keys *features) (detection, bool) {
	colour := a.images.small
	if colour.Empty() || v.size.X <= 0 {
		return detection{}, false
	}
	least := lookMinScore
	if keys != nil {
		least = lookNearScore
	}
	d, ok := a.index.nameByLookAt(colour, float64(colour.Cols())/float64(v.size.X), quad, v.pxPerMM, alignFrom, least)
	if !ok || !a.toneAgrees(v, &a.index.refs[d.ref], d.quad, onTop) {
		return detection{}, false
	}
	if d.score < lookMinScore && !a.lookOverKeypoints(d, *keys) {
		return detection{}, false
	}
	return d, true
}

// nameByLook names the card in an outline quad (clockwise from the
// top-left, in pixels of pxPerMM) of a colour image (scale: its pixels
// per quad pixel, about 1 per millimetre) by its look; ok is false when
// no face fits it clearly. The detection's quad and fit are in the
// outline's pixels.
func (x *catalogIndex) nameByLook(colour gocv.Mat, scale float64, quad models.Quad, pxPerMM float64) (detection, bool) {
	return x.nameByLookFrom(colour, scale, quad, pxPerMM, lookAlignFrom)
}

// nameByLookFrom is nameByLook with the outline aligned only when its best
// face correlates by alignFrom or more.
func (x *catalogIndex) nameByLookFrom(colour gocv.Mat, scale float64, quad models.Quad, pxPerMM, alignFrom float64) (detection, bool) {
	return x.nameByLookAt(colour, scale, quad, pxPerMM, alignFrom, lookMinScore)
}

// nameByLookAt is nameByLookFrom naming a face whose correlation reaches
// least (lookMinScore, or lookNearScore for a near look), with the lead
// of lookMargin over every other name either way.
func (x *catalogIndex) nameByLookAt(colour gocv.Mat, scale float64, quad models.Quad, pxPerMM, alignFrom, minScore float64) (detection, bool) {
	if x.looks == nil || len(x.looks.kinds) == 0 {
		return detection{}, false
	}
	views := x.looks.lookViews(colour, scale, quad, pxPerMM)
	res := x.looks.name(x.refs, views)
	if res.ok && !x.looks.kinds[views[res.best.view].kind].named(x.refs, x.looks.ref(views, res.best)) {
		// A card's face shrunk to a token's fits best: the outline may be
		// the card's, found a little small, which a token's smaller
		// thumbnail forgives. Its face is compared as that card's kind only.
		own := x.refs[x.looks.ref(views, res.best)].Kind
		var kept []lookView
		for _, v := range views {
			if x.looks.kinds[v.kind].kind == own {
				kept = append(kept, v)
			}
		}
		if len(kept) == 0 {
			return detection{}, false
		}
		views = kept
		res = x.looks.name(x.refs, views)
	}
	if res.ok && res.best.score >= alignFrom && (res.best.score < lookMinScore || res.best.score-res.second.score < lookMargin) {
		res = x.looks.align(colour, scale, views, res, x.refs)
	}
	if !res.ok || res.best.score < minScore || res.best.score-res.second.score < lookMargin {
		return detection{}, false
	}
	ri := x.looks.ref(views, res.best)
	if !x.looks.kinds[views[res.best.view].kind].named(x.refs, ri) {
		return detection{}, false
	}
	return lookDetection(&x.refs[ri], ri, views[res.best.view].src, res.best.score)
}

// lookDetection is face ri (ref) named by its look at the outline src
// (top-down pixels, from the face's top-left corner clockwise) with the
// look's score.
func lookDetection(ref *reference, ri int, src [4]models.Point, score float64) (detection, bool) {
	w, h := float64(ref.W), float64(ref.H)
	var pairs []pointPair
	for i, c := range [4][2]float64{{0, 0}, {w, 0}, {w, h}, {0, h}} {
		pairs = append(pairs, pointPair{c[0], c[1], src[i].X, src[i].Y})
	}
	sim, ok := fitSimilarity(pairs)
	if !ok {
		return detection{}, false
	}
	return detection{ref: ri, sim: sim, quad: models.Quad(src), score: math.Min(score, lookConfidence)}, true
}

// lookConfidence is the most confidence a card named by look is reported with.
const lookConfidence = 0.9

// identifyByLook names the card a picture shows (Identify's: the card
// fills it) by its look: the picture, brought to about 1 pixel a
// millimetre, is the outline. f is the picture's pixels per detection
// pixel.
func (x *catalogIndex) identifyByLook(picture gocv.Mat) (d detection, f float64, ok bool) {
	if x.looks == nil || picture.Empty() {
		return detection{}, 0, false
	}
	colour := gocv.NewMat()
	defer colour.Close()
	if picture.Channels() == 1 {
		gocv.CvtColor(picture, &colour, gocv.ColorGrayToBGR)
	} else if picture.Channels() == 3 {
		picture.CopyTo(&colour)
	} else {
		return detection{}, 0, false
	}
	long := float64(max(colour.Cols(), colour.Rows()))
	small := gocv.NewMat()
	defer small.Close()
	for _, longMM := range []float64{models.CardLongMM, models.TokenLongMM} {
		// 1 pixel a millimetre: the long side longMM pixels.
		k := longMM / long
		gocv.Resize(colour, &small, image.Pt(max(2, int(float64(colour.Cols())*k+0.5)), max(2, int(float64(colour.Rows())*k+0.5))), 0, 0, gocv.InterpolationArea)
		w, h := float64(small.Cols()), float64(small.Rows())
		d, ok := x.nameByLook(small, 1, models.Quad{{X: 0, Y: 0}, {X: w, Y: 0}, {X: w, Y: h}, {X: 0, Y: h}}, 1)
		if ok {
			return d, k, true
		}
	}
	return detection{}, 0, false
}

// An outline found a few millimetres off its card costs the card's face
// much of its correlation: an outline 3% large (the blur of a card's pale
// border on a dark mat) took a poster face's from 0.8 to 0.45. When the
// best face correlates by lookAlignFrom or more but is not named, the
// outline is aligned on the layout all faces of its kind share
// (lookIndex.align): moved by half thumbnail pixels (1 mm) and scaled about
// its centre by lookAlignScaleStep, step by step to the neighbour where
// what it shows correlates best with the kind's mean face, at most
// lookAlignSteps steps, lookAlignShift thumbnail pixels and lookAlignScale
// off; and the faces are compared there again. The layout favours no face:
// a card the catalog lacks is aligned as well, and correlates with no face
// the better for it.
const (
	lookAlignFrom      = 0.15
	lookAlignSteps     = 8
	lookAlignShift     = 2
	lookAlignScaleStep = 0.01
	lookAlignScale     = 0.08
	lookAlignGridScale = 4
)

// layoutScore gives how well a level's vector (as read, not compared)
// correlates with the kind's mean face, both taken out of what a flat
// tone and ramps explain, channel by channel. The basis is orthonormal, so
// that is v's dot with the mean face's basis vector over the length of
// what is left of v.
func (lv *lookLevel) layoutScore(v []float32) float64 {
	upright, _ := lv.layoutScoresOf(v, false)
	return upright
}

// layoutScores gives layoutScore of a level's vector and of its half
// turn's (the thumbnail turned a half turn, whose vector is v reversed)
// in one pass: a flat tone and the two ramps span the same vectors
// reversed, so what they leave of v is as long either way, and the half
// turn's dot with the mean face is v's with the mean face reversed.
func (lv *lookLevel) layoutScores(v []float32) (upright, halfTurn float64) {
	return lv.layoutScoresOf(v, true)
}

// layoutScoresOf is layoutScores, the half turn's score worked out only
// when halfToo is set (else 0).
func (lv *lookLevel) layoutScoresOf(v []float32, halfToo bool) (upright, halfTurn float64) {
	n := lv.w * lv.h
	var num, numTurned, den float64
	for c := range lv.basis {
		ch := v[c*n : (c+1)*n]
		left := float64(dot32(ch, ch))
		for _, b := range lv.basis[c][:3] {
			d := float64(dot32(ch, b))
			left -= d * d
		}
		num += float64(dot32(ch, lv.basis[c][3]))
		if halfToo {
			numTurned += float64(dot32(ch, lv.meanTurned[c]))
		}
		den += left
	}
	if den <= 0 {
		return 0, 0
	}
	return num / math.Sqrt(den), numTurned / math.Sqrt(den)
}

// alignStep is a place of an outline being aligned: its shift in half
// thumbnail pixels across and down the face, and its scale in
// lookAlignScaleStep steps.
type alignStep struct{ dx, dy, ds int }

// alignMoves are the moves from one place to its neighbours: the eight
// shifts and the two scales.
var alignMoves = [10]alignStep{{-1, -1, 0}, {0, -1, 0}, {1, -1, 0}, {-1, 0, 0}, {1, 0, 0}, {-1, 1, 0}, {0, 1, 0}, {1, 1, 0}, {0, 0, -1}, {0, 0, 1}}

// align moves the outline of res's best view to where it shows its kind's
// layout best (see lookAlignFrom), compares the faces of res.fine in that
// view there instead, and decides again; the view's outline is left where
// it moved.
func (x *lookIndex) align(colour gocv.Mat, scale float64, views []lookView, res lookResult, refs []reference) lookResult {
	bv := &views[res.best.view]
	k := &x.kinds[bv.kind]
	lv := &k.levels[0]
	n := 3 * lv.w * lv.h
	src := bv.src
	var mx, my float64
	for _, p := range src {
		mx, my = mx+p.X/4, my+p.Y/4
	}
	// Half a thumbnail pixel's steps across and down the face, in outline pixels.
	ux, uy := (src[1].X-src[0].X)/float64(2*k.w), (src[1].Y-src[0].Y)/float64(2*k.w)
	vx, vy := (src[3].X-src[0].X)/float64(2*k.h), (src[3].Y-src[0].Y)/float64(2*k.h)
	// The warp's pixels and the vectors read are written into buffers
	// kept for the whole search: the vector of the best place so far and
	// one for the place being tried, swapped when it is better.
	pxBuf := make([]byte, 3*k.w*k.h)
	vecBuf := make([]float32, n)
	at := func(p alignStep) ([4]models.Point, []float32, bool) {
		f := 1 + float64(p.ds)*lookAlignScaleStep
		var q [4]models.Point
		for i, c := range src {
			q[i] = models.Point{
				X: mx + (c.X-mx)*f + float64(p.dx)*ux + float64(p.dy)*vx,
				Y: my + (c.Y-my)*f + float64(p.dx)*uy + float64(p.dy)*vy,
			}
		}
		px, ok := warpLookInto(pxBuf, colour, scale, q, k.w, k.h)
		if !ok {
			return q, nil, false
		}
		return q, lv.vectorInto(vecBuf, px, k.w, k.h), true
	}
	within := func(p alignStep) bool {
		return abs(p.dx) <= 2*lookAlignShift && abs(p.dy) <= 2*lookAlignShift && float64(abs(p.ds))*lookAlignScaleStep <= lookAlignScale+1e-9
	}
	var cur alignStep
	_, vec0, ok := at(cur)
	if !ok {
		return res
	}
	top := lv.layoutScore(vec0)
	var topSrc [4]models.Point
	var topVec []float32
	// tried marks the places tried (within), by shift across, down and
	// scale step.
	const shifts = 4*lookAlignShift + 1
	steps := int(math.Round(lookAlignScale / lookAlignScaleStep))
	tried := make([]bool, shifts*shifts*(2*steps+1))
	mark := func(p alignStep) (was bool) {
		t := &tried[((p.ds+steps)*shifts+p.dy+2*lookAlignShift)*shifts+p.dx+2*lookAlignShift]
		was, *t = *t, true
		return was
	}
	mark(cur)
	// try moves the outline to p when it shows the layout better there.
	try := func(p alignStep) {
		if mark(p) {
			return
		}
		if q, vec, ok := at(p); ok {
			if sc := lv.layoutScore(vec); sc > top {
				if topVec == nil {
					topVec = make([]float32, n)
				}
				top, topSrc, cur = sc, q, p
				topVec, vecBuf = vec, topVec
			}
		}
	}
	// A coarse grid first: the layout's correlation has local peaks a
	// step apart, at the lines of the border and the bands.
	for ds := -lookAlignScale / lookAlignScaleStep; ds <= lookAlignScale/lookAlignScaleStep+1e-9; ds += lookAlignGridScale {
		for dy := -2; dy <= 2; dy += 2 {
			for dx := -2; dx <= 2; dx += 2 {
				try(alignStep{dx, dy, int(math.Round(ds))})
			}
		}
	}
	for step := 0; step < lookAlignSteps; step++ {
		from := cur
		for _, m := range alignMoves {
			if p := (alignStep{from.dx + m.dx, from.dy + m.dy, from.ds + m.ds}); within(p) {
				try(p)
			}
		}
		if cur == from {
			break
		}
	}
	if topVec == nil || !lv.compared(topVec) {
		return res
	}
	bv.src, bv.fine, bv.fineOK = topSrc, topVec, true
	for i, c := range res.fine {
		if c.view == res.best.view {
			res.fine[i].score = float64(dot32(topVec, lv.faces[c.face*n:(c.face+1)*n]))
		}
	}
	sort.SliceStable(res.fine, func(i, j int) bool { return res.fine[i].score > res.fine[j].score })
	res.best = res.fine[0]
	name := refs[x.ref(views, res.best)].card.Name
	for _, c := range res.fine {
		if refs[x.ref(views, c)].card.Name != name {
			// The best of another name: at the thumbnail's scale, or as
			// the coarse comparison had it, whichever is the higher.
			if c.score >= res.second.score || res.second.view < 0 || refs[x.ref(views, res.second)].card.Name == name {
				res.second = c
			}
			break
		}
	}
	return res
}

// lookOfFace gives how well face ref's look fits a picture of one card
// (Identify's: the card fills it), at the best turn of the picture's
// shape: its correlation as naming by look reads it (-1 when the face's
// kind is not compared by look or nothing is left to compare).
func (x *catalogIndex) lookOfFace(picture gocv.Mat, ref int) float64 {
	if x.looks == nil || picture.Empty() || picture.Channels() != 3 {
		return -1
	}
	ki, face := x.looks.faceOf(x.refs, ref)
	if ki < 0 {
		return -1
	}
	fw, fh := faceSizeMM(x.looks.kinds[ki].kind)
	long := float64(max(picture.Cols(), picture.Rows()))
	k := math.Max(fw, fh) / long
	small := gocv.NewMat()
	defer small.Close()
	gocv.Resize(picture, &small, image.Pt(max(2, int(float64(picture.Cols())*k+0.5)), max(2, int(float64(picture.Rows())*k+0.5))), 0, 0, gocv.InterpolationArea)
	w, h := float64(small.Cols()), float64(small.Rows())
	best := -1.0
	for _, v := range x.looks.lookViews(small, 1, models.Quad{{X: 0, Y: 0}, {X: w, Y: 0}, {X: w, Y: h}, {X: 0, Y: h}}, 1) {
		if v.kind != ki {
			continue
		}
		lv := &x.looks.kinds[ki].levels[0]
		n := 3 * lv.w * lv.h
		if vec, ok := x.looks.fineVec(&v); ok {
			best = math.Max(best, float64(dot32(vec, lv.faces[face*n:(face+1)*n])))
		}
	}
	return best
}

// faceOf gives the kind (in x.kinds, of the face's own kind) and the place
// among that kind's faces of reference ref; -1, -1 when its kind is not
// compared by look.
func (x *lookIndex) faceOf(refs []reference, ref int) (kind, face int) {
	for k := range x.kinds {
		if x.kinds[k].kind != refs[ref].Kind {
			continue
		}
		for f, r := range x.kinds[k].refs {
			if int(r) == ref {
				return k, f
			}
		}
	}
	return -1, -1
}

// named reports whether face ref, fitting an outline of the kind best,
// names it: a rival of another kind (see newLookIndex) names nothing.
func (k *lookKind) named(refs []reference, ref int) bool { return refs[ref].Kind == k.kind }

// resampleLook scales a thumbnail (BGR bytes, w × h) to tw × th, each
// pixel the mean of the pixels its area covers, in part or whole.
func resampleLook(px []byte, w, h, tw, th int) []byte {
	out := make([]byte, 3*tw*th)
	fx, fy := float64(w)/float64(tw), float64(h)/float64(th)
	for y := 0; y < th; y++ {
		y0, y1 := float64(y)*fy, float64(y+1)*fy
		for x := 0; x < tw; x++ {
			x0, x1 := float64(x)*fx, float64(x+1)*fx
			var s [3]float64
			var wsum float64
			for sy := int(y0); sy < h && float64(sy) < y1; sy++ {
				wy := math.Min(y1, float64(sy+1)) - math.Max(y0, float64(sy))
				for sx := int(x0); sx < w && float64(sx) < x1; sx++ {
					wt := wy * (math.Min(x1, float64(sx+1)) - math.Max(x0, float64(sx)))
					p := px[3*(sy*w+sx):]
					for c := range s {
						s[c] += wt * float64(p[c])
					}
					wsum += wt
				}
			}
			for c := range s {
				out[3*(y*tw+x)+c] = uint8(math.Round(s[c] / wsum))
			}
		}
	}
	return out
}

// A card named by its look whose keypoints contradict its face may be out
// of focus, far or small: the frame's keypoints on its blurred print then
// agree little with its face (a third of them or less on the independent
// renderer's far rows), but with the other faces of its size still less.
// The keypoints stop counting against the look when its face agrees with
// them at least lookOverChance times as often as those faces do at the
// median (the picture's chance agreement, from up to lookChanceFaces of
// them, lookChanceMinFaces at least), and with minInliers of them. The
// faces named so right agreed 1.7–3.5 times that often; a card named by
// look as a face of a similar look that is not its own, 0.4–0.5 times.
const (
	lookOverChance     = 1.5
	lookChanceFaces    = 15
	lookChanceMinFaces = 3
)

// lookOverKeypoints reports whether the name of d, a card named by its look
// in its whole outline, stands against the keypoints of f that contradict
// it (see lookOverChance).
func (a *Analyzer) lookOverKeypoints(d detection, f features) bool {
	x := a.index
	ref := &x.refs[d.ref]
	ids := keypointsInside(f, d.quad)
	agreeing := func(ri int) (n, of int) {
		fd, ok := lookDetection(&x.refs[ri], ri, [4]models.Point(d.quad), d.score)
		if !ok {
			return 0, 0
		}
		for _, k := range a.check(&fd, f, ids) {
			if k.agree {
				n++
			}
			of++
		}
		return n, of
	}
	n, of := agreeing(d.ref)
	if n < minInliers {
		return false
	}
	var others []int
	for ri := range x.refs {
		if r := &x.refs[ri]; r.W == ref.W && r.H == ref.H && r.card.Name != ref.card.Name {
			others = append(others, ri)
		}
	}
	if len(others) < lookChanceMinFaces {
		return false
	}
	// An even sample of them, the same for every frame.
	step := max(1, (len(others)+lookChanceFaces-1)/lookChanceFaces)
	var chance []float64
	for i := 0; i < len(others); i += step {
		if on, ofOn := agreeing(others[i]); ofOn > 0 {
			chance = append(chance, float64(on)/float64(ofOn))
		} else {
			chance = append(chance, 0)
		}
	}
	sort.Float64s(chance)
	return float64(n) >= lookOverChance*chance[len(chance)/2]*float64(of)
}
