package vision

import (
	"image"
	"math"
	"sort"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// Cards that lie on other cards, or under which other cards lie, rarely
// show a closed outline of their own on the edge map: the unit's border
// touches the site's, and findUnknownCards sees one merged blob. But a card
// that no other covers shows its whole border, four straight sides of a
// card's size, and its face is busier than the mat: it leaves many
// keypoints that no identified card explains. findStackedCards looks for
// those clusters of unexplained keypoints and, around each, for a
// rectangle of a card's size whose four sides lie on straight edges and
// show a card's plain printed border just inside. Only standard cards are
// looked for this way: a token's size is that of the panels printed on a
// card's face.

// stackBinMM is the side of the grid squares unexplained keypoints are
// counted in.
const stackBinMM = 8.0

// stackMaxCandidates bounds the keypoint clusters looked at in one frame.
const stackMaxCandidates = 8

// stackBusyFactor is how many times busier than the mat around the cards
// (the median of the windows no card explains) a window of unexplained
// keypoints must be to be looked at: a card's face holds several times the
// corners of the cloth around it.
const stackBusyFactor = 4.0

// stackFaceShare: a window must hold at least this share of the keypoints
// the windows on the cards found hold (their median): a card's face is as
// busy as the others', whatever the camera and the lighting.
const stackFaceShare = 0.5

// stackMinPoints is the fewest unexplained keypoints a window must hold
// however quiet the mat is.
const stackMinPoints = 20

// A card rectangle's sides are two pairs of parallel lines, square to
// each other within stackAngleTolDeg, a card's short and long sides apart
// within stackSizeTolerance (tighter than sizeTolerance: a card's inner
// frame, a few millimetres in, must not pass for a card).
const (
	stackAngleTolDeg   = 2.0
	stackSizeTolerance = 0.06
)

// A card's printed border: stackBorderInsetMM inside its outline, the
// grey level along each side stays within stackBorderLevels of its median
// over stackBorderPlain of the side.
const (
	stackBorderInsetMM = 1.5
	stackBorderLevels  = 24
	stackBorderPlain   = 0.7
)

// Side support: a card rectangle is taken when each of its sides lies on
// edges over stackSideSupport of its length and all four over
// stackMeanSupport together.
const (
	stackSideSupport = 0.6
	stackMeanSupport = 0.8
)

// stackedCard is a card found by its four sides rather than by a closed
// outline: its kind and turn are guessed from its shape and from the cards
// it overlaps.
type stackedCard struct {
	quad   models.Quad
	kind   models.CardKind
	tapped bool
}

// findStackedCards finds the cards whose whole border shows but that no
// closed outline or face explains, around clusters of the frame's
// keypoints (top-down pixels) that lie on no card found so far (found;
// dets are the matched ones among them).
func findStackedCards(gray gocv.Mat, v *view, points []keypoint, dets []detection, found []placed) []stackedCard {
	used := make([]bool, len(points))
	for _, d := range dets {
		for _, i := range d.used {
			if i >= 0 && i < len(points) {
				used[i] = true
			}
		}
	}
	// Only what lies on no card found is looked at: a card on top of
	// another found card shows there too unless it lies wholly within it.
	outlines := make([]models.Quad, 0, len(found))
	for _, f := range found {
		outlines = append(outlines, grow(f.quad, 2*v.pxPerMM))
	}
	centres := unexplainedClusters(gray.Cols(), gray.Rows(), v, points, used, outlines)
	if len(centres) == 0 {
		return nil
	}
	// Standard cards only: at token size, a face's printed panels pass for cards.
	var shapes []outlineShape
	for _, sh := range outlineShapes(v) {
		if sh.kind == models.KindStandard {
			shapes = append(shapes, sh)
		}
	}
	var out []stackedCard
	taken := make([]models.Quad, 0, len(found))
	for _, f := range found {
		taken = append(taken, f.quad)
	}
	for _, c := range centres {
		rs := rectanglesAround(gray, v, c, shapes)
		for _, q := range rs {
			if sameCardAsAny(q.quad, taken) {
				continue
			}
			taken = append(taken, q.quad)
			out = append(out, q.card(found))
		}
	}
	return out
}

// sameCardAsAny reports whether q outlines a card of quads: their centres
// lie within a quarter of q's short side and both are turned alike
// (portrait or landscape). A unit standing on a site, centred on it but
// turned across it, is another card.
func sameCardAsAny(q models.Quad, quads []models.Quad) bool {
	c := q.Center()
	short := math.Min(sideLen(q, 0), sideLen(q, 1))
	for _, o := range quads {
		oc := o.Center()
		if math.Hypot(oc.X-c.X, oc.Y-c.Y) < 0.25*short && landscapeAny(o) == landscapeAny(q) {
			return true
		}
	}
	return false
}

func sideLen(q models.Quad, i int) float64 {
	a, b := q[i], q[(i+1)%4]
	return math.Hypot(b.X-a.X, b.Y-a.Y)
}

// landscapeAny reports whether a quad, whatever corner it starts at, is
// wider than tall.
func landscapeAny(q models.Quad) bool {
	a, b := q[1].X-q[0].X, q[1].Y-q[0].Y
	long0 := sideLen(q, 0) > sideLen(q, 1)
	horizontal0 := math.Abs(a) > math.Abs(b)
	return long0 == horizontal0
}

// unexplainedClusters gives the centres (top-down pixels) of the windows,
// a token's width across, that lie on none of the outlines (the cards
// found, a little grown) and hold many keypoints: several times those of
// the mat's windows (their median) and half those of the windows on the
// cards found, busiest first.
func unexplainedClusters(w, h int, v *view, points []keypoint, used []bool, outlines []models.Quad) []models.Point {
	bin := stackBinMM * v.pxPerMM
	cols, rows := int(math.Ceil(float64(w)/bin)), int(math.Ceil(float64(h)/bin))
	if cols < 1 || rows < 1 {
		return nil
	}
	counts := make([]int, cols*rows)
	onCard := make([]bool, cols*rows)
	usedCounts := make([]int, cols*rows)
	for i, p := range points {
		bx, by := int(float64(p.X)/bin), int(float64(p.Y)/bin)
		if bx < 0 || by < 0 || bx >= cols || by >= rows {
			continue
		}
		if used[i] {
			usedCounts[by*cols+bx]++
		} else {
			counts[by*cols+bx]++
		}
	}
	for by := 0; by < rows; by++ {
		for bx := 0; bx < cols; bx++ {
			centre := models.Point{X: (float64(bx) + 0.5) * bin, Y: (float64(by) + 0.5) * bin}
			for _, q := range outlines {
				if inside(centre, q) {
					onCard[by*cols+bx] = true
					break
				}
			}
		}
	}
	// Window sums, a token's short side across.
	k := int(math.Round(models.TokenShortMM / stackBinMM))
	if k < 1 {
		k = 1
	}
	sums := make([]int, cols*rows)
	var quiet, faces []int // windows on no card found, and within one
	for y := 0; y+k <= rows; y++ {
		for x := 0; x+k <= cols; x++ {
			s, u, on := 0, 0, 0
			for dy := 0; dy < k; dy++ {
				for dx := 0; dx < k; dx++ {
					i := (y+dy)*cols + x + dx
					s += counts[i]
					u += usedCounts[i]
					if onCard[i] {
						on++
					}
				}
			}
			switch {
			case on == k*k:
				faces = append(faces, s+u)
				s = 0
			case on > 0:
				s = 0
			default:
				quiet = append(quiet, s)
			}
			sums[y*cols+x] = s
		}
	}
	threshold := stackMinPoints
	if len(quiet) > 0 {
		sort.Ints(quiet)
		if t := int(stackBusyFactor * float64(quiet[len(quiet)/2])); t > threshold {
			threshold = t
		}
	}
	if len(faces) > 0 {
		sort.Ints(faces)
		if t := int(stackFaceShare * float64(faces[len(faces)/2])); t > threshold {
			threshold = t
		}
	}
	type window struct{ x, y, sum int }
	var busy []window
	for y := 0; y+k <= rows; y++ {
		for x := 0; x+k <= cols; x++ {
			if s := sums[y*cols+x]; s >= threshold {
				busy = append(busy, window{x, y, s})
			}
		}
	}
	sort.Slice(busy, func(i, j int) bool { return busy[i].sum > busy[j].sum })
	// One centre per card: windows closer than a token's short side to a
	// busier one are left out.
	var centres []models.Point
	for _, b := range busy {
		c := models.Point{X: (float64(b.x) + float64(k)/2) * bin, Y: (float64(b.y) + float64(k)/2) * bin}
		near := false
		for _, o := range centres {
			if math.Hypot(o.X-c.X, o.Y-c.Y) < models.TokenShortMM*v.pxPerMM {
				near = true
				break
			}
		}
		if near {
			continue
		}
		centres = append(centres, c)
		if len(centres) == stackMaxCandidates {
			break
		}
	}
	return centres
}

// rectangle is a card-sized rectangle found on the edges, with the share
// of its border that lies on edges.
type rectangle struct {
	quad    models.Quad
	shape   outlineShape
	support float64
}

// rectanglesAround finds the card-sized rectangles whose four sides lie on
// edges in a square around c, best supported first, none covering another.
func rectanglesAround(gray gocv.Mat, v *view, c models.Point, shapes []outlineShape) []rectangle {
	half := shapes[0].long
	r := image.Rect(int(c.X-half), int(c.Y-half), int(c.X+half), int(c.Y+half)).Intersect(image.Rect(0, 0, gray.Cols(), gray.Rows()))
	if r.Dx() < int(shapes[0].short) || r.Dy() < int(shapes[0].short) {
		return nil
	}
	region := gray.Region(r)
	roi := region.Clone()
	region.Close()
	defer roi.Close()
	gocv.GaussianBlur(roi, &roi, image.Pt(5, 5), 0, 0, gocv.BorderReplicate)
	edges := gocv.NewMat()
	defer edges.Close()
	gocv.Canny(roi, &edges, 40, 120)
	lines := gocv.NewMat()
	defer lines.Close()
	minLen := 0.5 * models.TokenShortMM * v.pxPerMM
	gocv.HoughLinesPWithParams(edges, &lines, 1, math.Pi/180, int(0.5*minLen), float32(minLen), float32(2*v.pxPerMM))
	if lines.Rows() == 0 {
		return nil
	}
	thick := gocv.NewMat()
	defer thick.Close()
	kernel := gocv.GetStructuringElement(gocv.MorphRect, image.Pt(3, 3))
	gocv.Dilate(edges, &thick, kernel)
	kernel.Close()
	em := edgeMap{pix: thick.ToBytes(), w: thick.Cols(), h: thick.Rows(), off: r.Min}
	grey := edgeMap{pix: roi.ToBytes(), w: roi.Cols(), h: roi.Rows(), off: r.Min}
	inset := stackBorderInsetMM * v.pxPerMM

	// The segments' lines, x·cos θ + y·sin θ = ρ in top-down pixels, θ in [0, π).
	type line struct{ theta, rho float64 }
	var ls []line
	for i := 0; i < lines.Rows(); i++ {
		l := lines.GetVeciAt(i, 0)
		x0, y0 := float64(int(l[0])+r.Min.X), float64(int(l[1])+r.Min.Y)
		x1, y1 := float64(int(l[2])+r.Min.X), float64(int(l[3])+r.Min.Y)
		theta := math.Atan2(x1-x0, -(y1 - y0)) // the normal's angle
		if theta < 0 {
			theta += math.Pi
		}
		if theta >= math.Pi {
			theta -= math.Pi
		}
		rho := x0*math.Cos(theta) + y0*math.Sin(theta)
		dup := false
		for _, o := range ls { // Hough gives a border's line many times over
			if math.Abs(o.theta-theta) < stackAngleTolDeg*math.Pi/360 && math.Abs(o.rho-rho) < v.pxPerMM {
				dup = true
				break
			}
		}
		if !dup {
			ls = append(ls, line{theta, rho})
		}
	}
	// Pairs of parallel lines a card's side apart.
	type pair struct {
		a, b  line
		theta float64
		dim   int // index into dims
	}
	angleTol := stackAngleTolDeg * math.Pi / 180
	var dims []float64
	for _, sh := range shapes {
		dims = append(dims, sh.short, sh.long)
	}
	var pairs []pair
	for i := range ls {
		for j := i + 1; j < len(ls); j++ {
			a, b := ls[i], ls[j]
			d := math.Abs(a.theta - b.theta)
			if d > math.Pi/2 { // across θ = 0: flip b
				b = line{b.theta - math.Pi, -b.rho}
				d = math.Abs(a.theta - b.theta)
			}
			if d > angleTol {
				continue
			}
			sep := math.Abs(a.rho - b.rho)
			for k, dim := range dims {
				if math.Abs(sep/dim-1) <= stackSizeTolerance {
					pairs = append(pairs, pair{a, b, (a.theta + b.theta) / 2, k})
				}
			}
		}
	}
	var cands []rectangle
	for i := range pairs {
		for j := i + 1; j < len(pairs); j++ {
			p, o := pairs[i], pairs[j]
			if p.dim/2 != o.dim/2 || p.dim == o.dim { // one shape's short and long sides
				continue
			}
			d := math.Abs(math.Mod(math.Abs(p.theta-o.theta), math.Pi) - math.Pi/2)
			if d > angleTol {
				continue
			}
			q, ok := models.Quad{}, true
			for k, ab := range [4][2]line{{p.a, o.a}, {o.a, p.b}, {p.b, o.b}, {o.b, p.a}} {
				pt, hit := crossing(ab[0].theta, ab[0].rho, ab[1].theta, ab[1].rho)
				if !hit {
					ok = false
					break
				}
				q[k] = pt
			}
			if !ok {
				continue
			}
			if sup, good := em.support(q); good && grey.plainBorder(q, inset) {
				cands = append(cands, rectangle{quad: q, shape: shapes[p.dim/2], support: sup})
			}
		}
	}
	sort.Slice(cands, func(i, j int) bool { return cands[i].support > cands[j].support })
	var out []rectangle
	for _, cd := range cands {
		if covered(cd.quad, quadsOfRects(out)) {
			continue
		}
		out = append(out, cd)
	}
	return out
}

func quadsOfRects(rs []rectangle) []models.Quad {
	out := make([]models.Quad, len(rs))
	for i, r := range rs {
		out[i] = r.quad
	}
	return out
}

// edgeMap is a thickened edge map of a part of the top-down image.
type edgeMap struct {
	pix  []byte
	w, h int
	off  image.Point // of the part in the top-down image
}

// on reports whether the top-down pixel p lies on an edge (false outside
// the part).
func (e edgeMap) on(x, y float64) bool {
	ix, iy := int(math.Round(x))-e.off.X, int(math.Round(y))-e.off.Y
	if ix < 0 || iy < 0 || ix >= e.w || iy >= e.h {
		return false
	}
	return e.pix[iy*e.w+ix] != 0
}

// support gives the share of a quad's border lying on edges; ok is false
// when a side falls short of stackSideSupport or the whole of
// stackMeanSupport.
func (e edgeMap) support(q models.Quad) (float64, bool) {
	var total, hits int
	for i := range q {
		a, b := q[i], q[(i+1)%4]
		n := int(math.Hypot(b.X-a.X, b.Y-a.Y) / 2)
		if n < 2 {
			return 0, false
		}
		h := 0
		for j := 0; j <= n; j++ {
			t := float64(j) / float64(n)
			if e.on(a.X+t*(b.X-a.X), a.Y+t*(b.Y-a.Y)) {
				h++
			}
		}
		if float64(h) < stackSideSupport*float64(n+1) {
			return 0, false
		}
		total += n + 1
		hits += h
	}
	s := float64(hits) / float64(total)
	return s, s >= stackMeanSupport
}

// card turns a rectangle into the card it shows. A landscape card lying on
// another card (its whole border shows over the other's) is a tapped unit;
// one that other cards lie on, or that lies alone, is a site: sites are
// landscape and stand on nothing, tapped units are landscape too but
// nearly always stand on a site.
func (r rectangle) card(found []placed) stackedCard {
	q := clockwiseFromTopLeft(r.quad)
	sc := stackedCard{quad: q, kind: r.shape.kind}
	if !landscape(q) {
		return sc
	}
	onAnother := false
	for _, f := range found {
		if overlapsFromAbove(q, f.quad) {
			onAnother = true
			break
		}
	}
	switch {
	case r.shape.kind == models.KindToken:
		sc.tapped = true
	case onAnother:
		sc.tapped = true
	default:
		sc.kind = models.KindSite
	}
	return sc
}

// overlapsFromAbove reports whether q, whose whole border shows, overlaps
// o without holding it whole: q then lies on o, not o on q.
func overlapsFromAbove(q, o models.Quad) bool {
	in := 0
	for _, p := range o {
		if inside(p, q) {
			in++
		}
	}
	if in == 4 {
		return false // o lies within q: on it, or a token on a site
	}
	if in > 0 || inside(o.Center(), q) {
		return true
	}
	for _, p := range q {
		if inside(p, o) {
			return true
		}
	}
	return false
}

// clockwiseFromTopLeft orders a rectangle's corners clockwise (image y
// down) from the one nearest the image's top-left corner.
func clockwiseFromTopLeft(q models.Quad) models.Quad {
	c := q.Center()
	pts := q
	sort.Slice(pts[:], func(i, j int) bool {
		return math.Atan2(pts[i].Y-c.Y, pts[i].X-c.X) < math.Atan2(pts[j].Y-c.Y, pts[j].X-c.X)
	})
	start := 0
	for i, p := range pts {
		if p.X+p.Y < pts[start].X+pts[start].Y {
			start = i
		}
	}
	var out models.Quad
	for i := range out {
		out[i] = pts[(start+i)%4]
	}
	return out
}

// observation reports the card as an unidentified one, like unknownCard's,
// turned a quarter when it is taken for a tapped unit.
func (s stackedCard) observation(v *view) models.CardObservation {
	o := unknownCard{quad: s.quad, kind: s.kind}.observation(v)
	if s.tapped {
		o.Rotation = models.RotationFor(o.Owner, true)
		o.Tapped = true
	}
	return o
}

// crossing gives where two lines x·cos θ + y·sin θ = ρ cross.
func crossing(t1, r1, t2, r2 float64) (models.Point, bool) {
	a, b, c, d := math.Cos(t1), math.Sin(t1), math.Cos(t2), math.Sin(t2)
	det := a*d - b*c
	if math.Abs(det) < 1e-6 {
		return models.Point{}, false
	}
	return models.Point{X: (r1*d - b*r2) / det, Y: (a*r2 - r1*c) / det}, true
}

// value gives the grey level at the top-down pixel (x, y), ok false
// outside the part.
func (e edgeMap) value(x, y float64) (byte, bool) {
	ix, iy := int(math.Round(x))-e.off.X, int(math.Round(y))-e.off.Y
	if ix < 0 || iy < 0 || ix >= e.w || iy >= e.h {
		return 0, false
	}
	return e.pix[iy*e.w+ix], true
}

// plainBorder reports whether, a little inside each side of the quad, the
// grey image is one plain band (a card's printed border, black or white):
// stackBorderPlain of the samples along each side within
// stackBorderLevels of the side's median. A rectangle that edges of
// several cards happen to make crosses their faces there instead.
func (e edgeMap) plainBorder(q models.Quad, inset float64) bool {
	c := q.Center()
	var in models.Quad
	for i, p := range q { // each corner moved inset along both sides towards the centre
		dx, dy := c.X-p.X, c.Y-p.Y
		n := math.Hypot(dx, dy)
		in[i] = models.Point{X: p.X + dx/n*inset*math.Sqrt2, Y: p.Y + dy/n*inset*math.Sqrt2}
	}
	var vals []int
	for i := range in {
		a, b := in[i], in[(i+1)%4]
		n := int(math.Hypot(b.X-a.X, b.Y-a.Y) / 2)
		vals = vals[:0]
		for j := 1; j < n; j++ { // corners left out: the other side's band
			t := float64(j) / float64(n)
			if g, ok := e.value(a.X+t*(b.X-a.X), a.Y+t*(b.Y-a.Y)); ok {
				vals = append(vals, int(g))
			}
		}
		if len(vals) < n/2 {
			return false
		}
		sorted := append([]int(nil), vals...)
		sort.Ints(sorted)
		med := sorted[len(sorted)/2]
		near := 0
		for _, g := range vals {
			if g-med <= stackBorderLevels && med-g <= stackBorderLevels {
				near++
			}
		}
		if float64(near) < stackBorderPlain*float64(len(vals)) {
			return false
		}
	}
	return true
}
