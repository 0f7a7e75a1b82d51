package vision

import (
	"math"
	"sort"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// Naming a card of which only a part shows by its look: a site under a
// unit or token, whose face is smooth art that gives feature matching and
// the grey comparison of covered_name.go too little to go by. The outline
// (where the card lies, from its edges or its own outline) is warped to a
// colour thumbnail as naming by look does (appearance.go), and compared
// with each face of the kind on the thumbnail's pixels that no card on top
// hides only: the partial correlation of appearance.go (each channel less
// a flat tone, ramps across and down, and the kind's mean face) worked out
// over those pixels alone. The outline may lie a little off: the faces
// leading at the coarse level are compared with the thumbnail moved by up
// to a pixel (2 mm) each way, each at its best, alike. A card is named only
// by the rules of naming by look, a clear correlation (lookMinScore) and a
// clear lead over any other name (lookMargin), and only with enough of it
// showing (lookPartMinShown).
const (
	// lookPartMinShown is the least share of the thumbnail's compared
	// pixels that must show.
	lookPartMinShown = 0.3
	// lookPartShift is how many thumbnail pixels each way the outline is
	// moved.
	lookPartShift = 1
	// lookPartShortlist is how many faces (by the coarse comparison) are
	// compared at the thumbnail's scale, at every move.
	lookPartShortlist = 4
)

// maskedView is a thumbnail at one level, turn and move, as compared over
// its visible pixels only: for each channel, the nuisance vectors and the
// thumbnail's values at those pixels, the Cholesky factor of the vectors'
// Gram matrix there, and the thumbnail's projection on them.
type maskedView struct {
	idx []int32 // the visible pixels
	b   [3][lookNuisance][]float32
	v   [3][]float32
	l   [3][lookNuisance][lookNuisance]float64 // lower triangular; a zero diagonal: a vector the others span there
	z   [3][lookNuisance]float64               // L⁻¹ Bᵀ v
	vv  float64                                // the residual's squared length, all channels
	ok  bool
}

// newMaskedView reads a level's vector vec (3 channels of n pixels, as
// read) over its visible pixels vis.
func (lv *lookLevel) newMaskedView(vec []float32, vis []bool) maskedView {
	var mv maskedView
	n := lv.w * lv.h
	for i, ok := range vis[:n] {
		if ok {
			mv.idx = append(mv.idx, int32(i))
		}
	}
	m := len(mv.idx)
	if m < 2*lookNuisance {
		return mv
	}
	buf := make([]float32, (lookNuisance+1)*3*m)
	for c := 0; c < 3; c++ {
		ch := vec[c*n : (c+1)*n]
		v := buf[:m]
		buf = buf[m:]
		for j, i := range mv.idx {
			v[j] = ch[i]
		}
		mv.v[c] = v
		for k := range mv.b[c] {
			b := buf[:m]
			buf = buf[m:]
			src := lv.basis[c][k]
			for j, i := range mv.idx {
				b[j] = src[i]
			}
			mv.b[c][k] = b
		}
		mv.l[c] = choleskySkip(&mv.b[c])
		var a [lookNuisance]float64
		for k := range a {
			a[k] = float64(dot32(mv.b[c][k], v))
		}
		mv.z[c] = forwardSolve(&mv.l[c], a)
		vv := float64(dot32(v, v))
		for _, zk := range mv.z[c] {
			vv -= zk * zk
		}
		mv.vv += vv
	}
	mv.ok = mv.vv > 1e-6
	return mv
}

// choleskySkip factors the Gram matrix of the vectors b (G = L Lᵀ); a
// vector that the ones before it span (to within a part in 10⁶ of its
// length) gets a zero row.
func choleskySkip(b *[lookNuisance][]float32) [lookNuisance][lookNuisance]float64 {
	var g, l [lookNuisance][lookNuisance]float64
	for i := range g {
		for j := 0; j <= i; j++ {
			g[i][j] = float64(dot32(b[i], b[j]))
		}
	}
	for i := range l {
		for j := 0; j <= i; j++ {
			s := g[i][j]
			for k := 0; k < j; k++ {
				s -= l[i][k] * l[j][k]
			}
			if j < i {
				if l[j][j] > 0 {
					l[i][j] = s / l[j][j]
				}
				continue
			}
			if s > 1e-6*g[i][i] && s > 0 {
				l[i][i] = math.Sqrt(s)
			} else {
				for k := range l[i] {
					l[i][k] = 0
				}
			}
		}
	}
	return l
}

// forwardSolve solves L y = a (a zero diagonal gives a zero y).
func forwardSolve(l *[lookNuisance][lookNuisance]float64, a [lookNuisance]float64) [lookNuisance]float64 {
	var y [lookNuisance]float64
	for i := range y {
		if l[i][i] == 0 {
			continue
		}
		s := a[i]
		for k := 0; k < i; k++ {
			s -= l[i][k] * y[k]
		}
		y[i] = s / l[i][i]
	}
	return y
}

// score gives the partial correlation, over the view's visible pixels, of
// the view with a face's compared vector f (3 channels of n pixels: what
// the kind's basis leaves of the face, which the view's basis leaves the
// same); buf holds at least len(idx) values.
func (mv *maskedView) score(f []float32, n int, buf []float32) float64 {
	if !mv.ok {
		return -1
	}
	buf = buf[:len(mv.idx)]
	var num, ff float64
	for c := 0; c < 3; c++ {
		ch := f[c*n : (c+1)*n]
		for j, i := range mv.idx {
			buf[j] = ch[i]
		}
		var a [lookNuisance]float64
		for k := range a {
			a[k] = float64(dot32(mv.b[c][k], buf))
		}
		y := forwardSolve(&mv.l[c], a)
		num += float64(dot32(mv.v[c], buf))
		ff += float64(dot32(buf, buf))
		for k, yk := range y {
			num -= mv.z[c][k] * yk
			ff -= yk * yk
		}
	}
	if ff <= 1e-9 {
		return -1
	}
	return num / math.Sqrt(mv.vv*ff)
}

// partOutline is an outline's thumbnail, read with a margin of
// lookPartShift pixels all round (w × h with it), in one turn, and which
// of its pixels show.
type partOutline struct {
	turn int
	src  [4]models.Point // the thumbnail's outline, without the margin
	px   []byte
	vis  []bool
	w, h int
}

// crop gives the thumbnail moved by (dx, dy) pixels, and which of its
// inside's pixels (level 0's) show.
func (p *partOutline) crop(k *lookKind, dx, dy int) ([]byte, []bool) {
	s := lookPartShift
	px := make([]byte, 3*k.w*k.h)
	for y := 0; y < k.h; y++ {
		from := 3 * ((y+dy+s)*p.w + dx + s)
		copy(px[3*y*k.w:3*(y+1)*k.w], p.px[from:from+3*k.w])
	}
	lv := &k.levels[0]
	vis := make([]bool, lv.w*lv.h)
	for y := 0; y < lv.h; y++ {
		from := (y+lookBorder+dy+s)*p.w + lookBorder + dx + s
		copy(vis[y*lv.w:(y+1)*lv.w], p.vis[from:from+lv.w])
	}
	return px, vis
}

// coarseVis gives which of a level-1 (coarse) view's pixels show: those
// all of whose span shows at level 0.
func coarseVis(k *lookKind, vis0 []bool) []bool {
	lv0, lv1 := &k.levels[0], &k.levels[1]
	out := make([]bool, lv1.w*lv1.h)
	for y, ry := range lv1.rows {
		for x, rx := range lv1.cols {
			all := true
			for ty := ry[0]; ty < ry[1] && all; ty++ {
				for tx := rx[0]; tx < rx[1]; tx++ {
					if !vis0[ty*lv0.w+tx] {
						all = false
						break
					}
				}
			}
			out[y*lv1.w+x] = all
		}
	}
	return out
}

// readPartOutline warps the outline src (the face's top-left first,
// clockwise, top-down pixels) with its margin, and marks which pixels no
// card on top (hidden, grown already) covers. ok is false when too little
// of the unmoved thumbnail's inside shows.
func readPartOutline(colour gocv.Mat, scale float64, k *lookKind, src [4]models.Point, hidden []models.Quad) (partOutline, bool) {
	s := lookPartShift
	ux, uy := (src[1].X-src[0].X)/float64(k.w), (src[1].Y-src[0].Y)/float64(k.w)
	vx, vy := (src[3].X-src[0].X)/float64(k.h), (src[3].Y-src[0].Y)/float64(k.h)
	w, h := k.w+2*s, k.h+2*s
	fs, fw, fh := float64(s), float64(k.w+s), float64(k.h+s)
	var ext [4]models.Point
	for i, c := range [4][2]float64{{-fs, -fs}, {fw, -fs}, {fw, fh}, {-fs, fh}} {
		ext[i] = models.Point{X: src[0].X + c[0]*ux + c[1]*vx, Y: src[0].Y + c[0]*uy + c[1]*vy}
	}
	vis, ok := shownMask(ext, w, h, hidden)
	if !ok {
		return partOutline{}, false
	}
	p := partOutline{src: src, w: w, h: h, vis: vis}
	lv := &k.levels[0]
	shown := 0
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			ix, iy := x-s-lookBorder, y-s-lookBorder
			if vis[y*w+x] && ix >= 0 && iy >= 0 && ix < lv.w && iy < lv.h {
				shown++
			}
		}
	}
	if float64(shown) < lookPartMinShown*float64(lv.w*lv.h) {
		return partOutline{}, false
	}
	px, ok := warpLook(colour, scale, ext, w, h)
	if !ok {
		return partOutline{}, false
	}
	p.px = px
	return p, true
}

// turned gives the outline turned 180° (the face's other turn on it).
func (p partOutline) turned() partOutline {
	out := partOutline{turn: p.turn + 2, w: p.w, h: p.h, px: turnedLook(p.px), vis: make([]bool, len(p.vis))}
	for i, v := range p.vis {
		out.vis[len(p.vis)-1-i] = v
	}
	for i := range p.src {
		out.src[i] = p.src[(i+2)%4]
	}
	return out
}

// namePart names the card of a kind lying in an outline quad (top-down
// pixels of pxPerMM, clockwise from the top-left) of which the cards on
// top (hidden, grown by the margin to leave out) cover part, in the colour
// image (scale: its pixels per top-down pixel). ok is false when no face
// of the kind fits clearly.
func (x *catalogIndex) namePart(colour gocv.Mat, scale float64, quad models.Quad, pxPerMM float64, kind models.CardKind, hidden []models.Quad) (detection, bool) {
	if x.looks == nil {
		return detection{}, false
	}
	var k *lookKind
	for i := range x.looks.kinds {
		if x.looks.kinds[i].kind == kind {
			k = &x.looks.kinds[i]
		}
	}
	if k == nil {
		return detection{}, false
	}
	fw, fh := faceSizeMM(kind)
	var outlines []partOutline
	for turn := 0; turn < 2; turn++ {
		src, ok := turnedOutline(quad, turn, fw*pxPerMM, fh*pxPerMM)
		if !ok {
			continue
		}
		p, ok := readPartOutline(colour, scale, k, src, hidden)
		if !ok {
			return detection{}, false
		}
		p.turn = turn
		outlines = append(outlines, p, p.turned())
		break
	}
	if len(outlines) == 0 {
		return detection{}, false
	}
	lv0, lv1 := &k.levels[0], &k.levels[1]
	n0, n1 := lv0.w*lv0.h, lv1.w*lv1.h
	buf := make([]float32, n0)
	// Every face in each turn, unmoved, at the coarse level.
	type cand struct {
		face, outline int
		score         float64
	}
	var coarse []cand
	for oi := range outlines {
		px, vis := outlines[oi].crop(k, 0, 0)
		mv := lv1.newMaskedView(lv1.vector(px, k.w, k.h), coarseVis(k, vis))
		if !mv.ok {
			continue
		}
		for f := range k.refs {
			coarse = append(coarse, cand{f, oi, mv.score(lv1.faces[f*3*n1:(f+1)*3*n1], n1, buf)})
		}
	}
	if len(coarse) == 0 {
		return detection{}, false
	}
	sort.SliceStable(coarse, func(i, j int) bool { return coarse[i].score > coarse[j].score })
	// The leading faces (each in its best turn) at the thumbnail's scale,
	// at every move.
	views := map[[3]int]*maskedView{}
	viewOf := func(oi, dx, dy int) *maskedView {
		key := [3]int{oi, dx, dy}
		if mv, ok := views[key]; ok {
			return mv
		}
		px, vis := outlines[oi].crop(k, dx, dy)
		mv := lv0.newMaskedView(lv0.vector(px, k.w, k.h), vis)
		views[key] = &mv
		return &mv
	}
	type fineCand struct {
		cand
		dx, dy int
	}
	var fine []fineCand
	listed := map[int]bool{}
	for _, c := range coarse {
		if len(fine) == lookPartShortlist {
			break
		}
		if listed[c.face] {
			continue
		}
		listed[c.face] = true
		b := fineCand{cand{c.face, c.outline, -2}, 0, 0}
		face := lv0.faces[c.face*3*n0 : (c.face+1)*3*n0]
		for dy := -lookPartShift; dy <= lookPartShift; dy++ {
			for dx := -lookPartShift; dx <= lookPartShift; dx++ {
				if sc := viewOf(c.outline, dx, dy).score(face, n0, buf); sc > b.score {
					b = fineCand{cand{c.face, c.outline, sc}, dx, dy}
				}
			}
		}
		fine = append(fine, b)
	}
	sort.SliceStable(fine, func(i, j int) bool { return fine[i].score > fine[j].score })
	best := fine[0]
	name := x.refs[k.refs[best.face]].card.Name
	second := -1.0
	for _, c := range fine[1:] {
		if x.refs[k.refs[c.face]].card.Name != name {
			second = c.score
			break
		}
	}
	for _, c := range coarse {
		// A face left off the shortlist stands in by its coarse score.
		if !listed[c.face] && x.refs[k.refs[c.face]].card.Name != name {
			second = math.Max(second, math.Min(c.score, best.score))
			break
		}
	}
	if best.score < lookMinScore || best.score-second < lookMargin {
		return detection{}, false
	}
	// The face's outline: the turn's, moved.
	o := &outlines[best.outline]
	src := o.src
	ux, uy := (src[1].X-src[0].X)/float64(k.w), (src[1].Y-src[0].Y)/float64(k.w)
	vx, vy := (src[3].X-src[0].X)/float64(k.h), (src[3].Y-src[0].Y)/float64(k.h)
	for i := range src {
		src[i].X += float64(best.dx)*ux + float64(best.dy)*vx
		src[i].Y += float64(best.dx)*uy + float64(best.dy)*vy
	}
	ri := int(k.refs[best.face])
	if !k.named(x.refs, ri) {
		return detection{}, false
	}
	return lookDetection(&x.refs[ri], ri, src, best.score)
}

// namePart names by look (see catalogIndex.namePart) the card of a kind
// lying in an outline of the top-down image, with the cards on top hidden
// (and the few pixels around them, where their edges blur).
func (a *Analyzer) namePart(quad models.Quad, v *view, kind models.CardKind, onTop []models.Quad) (detection, bool) {
	colour := a.images.small
	if colour.Empty() || v.size.X <= 0 {
		return detection{}, false
	}
	d, ok := a.index.namePart(colour, float64(colour.Cols())/float64(v.size.X), quad, v.pxPerMM, kind, hiddenBy(onTop))
	if !ok || !a.toneAgrees(v, &a.index.refs[d.ref], d.quad, onTop) {
		// The correlation takes each channel's flat tone out: a face of
		// other colours with the same pattern fits it as well.
		return detection{}, false
	}
	return d, true
}
