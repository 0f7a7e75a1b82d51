package calibration

import (
	"errors"
	"fmt"
	"image"
	"math"
	"sort"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
)

// Options tune Detect.
type Options struct {
	// Geometry is the realm's cell size; zero means models.DefaultRealm().
	Geometry models.RealmGeometry
	// South is the image side the realm's south edge (A1–E1, the south
	// player's) is on: Bottom by default, Top for a camera looking from
	// the north side (--north-at-bottom), Left or Right for one at the
	// table's end (see Calibration and orientCorners).
	South Side
	// Markers requires the four ArUco markers; without it Detect uses them
	// when all four are seen and falls back to the grid lines otherwise.
	Markers bool
	// MarkerLayout says where the markers sit; zero means DefaultMarkerLayout().
	MarkerLayout MarkerLayout
}

func (o Options) geometry() models.RealmGeometry {
	if o.Geometry.CellWidthMM > 0 && o.Geometry.CellHeightMM > 0 {
		return o.Geometry
	}
	return models.DefaultRealm()
}

// minGridScore is the lowest grid score that Detect accepts as a realm. On
// the sample stills and 100 unseen synthetic scenes right answers score
// 0.38–0.9 after climbCorners, and most wrong lattices (a mat edge taken for
// the border, a row of card edges) 0.33–0.38: below the threshold Detect
// says "not found" rather than guess.
const minGridScore = 0.38

// minEdgeRidgeScore is the lowest ridgeScore of a lattice found on edges
// that Detect believes. On the sample stills and two unseen sets of scenes,
// right answers scored 0.4–1.5 but for two, and wrong ones (card edges taken
// for grid lines) below 0.11 but for one.
const minEdgeRidgeScore = 0.2

// minFaintGridScore is minGridScore for the sensitive second pass, whose
// extra edges give wrong lattices more support.
const minFaintGridScore = 0.40

// crossCheckMargin is how much higher (in ridge score, noise units) the
// profile search's lattice must score to replace a doubtful lattice found
// on edges.
const crossCheckMargin = 0.05

// crossCheckBelow is the ridge score under which a lattice found on edges
// is cross-checked by the profile search. It is a matter of cost, not of
// belief: the check runs on about one frame in nine (one in twenty-five
// below 1.0, which missed lattices with half the true column spacing or a
// line or two off at 1.05–1.12).
const crossCheckBelow = 1.2

// splitMargin is how close (in ridge score) a different lattice from the
// profile search may come to the edge lattice's score before the evidence
// counts as split between two grids. On the sample stills and twelve
// unseen or altered sets, the profile search's different lattices that
// rightly replaced a wrong edge lattice scored 0.29–0.87 higher; the one
// that wrongly replaced a wrong edge lattice (a dimmed still) 0.10 higher.
const splitMargin = 0.2

// crossCheck lets the profile search have a say on a lattice found on
// edges whose lines are not clearly drawn lines (card edges that happen to
// line up, the grid read at half its spacing along one direction while the
// other direction's long lines carry the score): the lattice whose lines
// are more clearly drawn lines wins, unless the profile search's is the
// same lattice moved by whole cells (the edge pass judged those aliases on
// edges, which an arm over the border or a grained table fools less).
// A different grid (neither the same lattice nor one moved by whole
// cells) wins only by splitMargin; when it scores about as well as the
// edge lattice, two grids explain the frame's lines about equally (the
// grid half lost in a dim corner or a crushed black, a lattice of half the
// spacing over the clearer half of the realm) and ok is false: a wrong
// realm is worse than none. A lattice the
// profile search does not believe itself has that say only against an edge
// lattice whose grid does not end at its border (see endsAtBorder): on a
// mat whose cells the cards nearly fill, what the cards leave of the lines
// makes such lattices about as clear as the realm the edges found, whose
// grid shows on most of its cells' sides and stops at its border. And a
// lattice the profile search does not believe itself replaces one of the
// same realm (see sameRealm) whose lines it shows more clearly: the edges
// found that realm, the profile search where its lines are (Canny edges
// of lines a wide-angle lens bows, fitted straight, can put the realm's
// corners a few percent of its width off). A different grid that bare
// (when not nil) says runs over bare cloth is no rival: the edge lattice
// stands (see bareGridLines).
func crossCheck(gray gocv.Mat, rm *ridgeMap, faint *edgeMap, g models.RealmGeometry, edge gridFit, bare func(homography) bool) (gridFit, bool) {
	rs := rm.ridgeScore(edge.h, g)
	if rs >= crossCheckBelow || rm.bentRidgeScore(edge.h, g) >= crossCheckBelow {
		// Clearly drawn lines, straight or bent a few pixels by the lens
		// (whose straight lattice the line profiles would beat with a
		// lattice of half the spacing over part of the realm).
		return edge, true
	}
	f, ok := detectFaint(gray, rm, faint, g, []gridFit{edge})
	if latticeTurned(edge.h, g) {
		// A turned lattice on edges: the profile search reads the frame
		// turned too, and its turned lattice stands in for the upright
		// one as in detectStraightVia (see detectFaintAs).
		ft, okt := detectFaintAs(gray, rm, faint, g, true, []gridFit{edge})
		if ft.h != (homography{}) && (okt && !ok || f.h == (homography{}) || ft.score > f.score+splitMargin) {
			f, ok = ft, okt
		}
	}
	if f.h == (homography{}) || shiftedAlias(edge.h, f.h, g) {
		return edge, true
	}
	margin := crossCheckMargin
	if !sameRealm(edge.h, f.h, g) {
		if f.score >= rs-splitMargin && !(ok && f.score > rs+splitMargin) && (ok || !rm.endsAtBorder(edge.h, g)) {
			// Unless the other grid's lines run over bare cloth (see
			// bareGridLines): then it is no rival.
			return edge, bare != nil && bare(f.h)
		}
		margin = splitMargin
	}
	if f.score <= rs+margin || !ok && !sameRealm(edge.h, f.h, g) {
		return edge, true
	}
	return gridFit{h: f.h, score: math.Min(1, f.score/ridgeLineCap)}, true
}

// sameRealm says whether lattices a and b put the realm's outline in the
// same place (in any of its symmetric orientations), to a twentieth of the
// realm's width: the same grid, read a little apart.
func sameRealm(a, b homography, g models.RealmGeometry) bool {
	return nearRealm(a, b, g, 0.05)
}

// nearRealm is sameRealm with every corner within frac of the realm's
// width.
func nearRealm(a, b homography, g models.RealmGeometry, frac float64) bool {
	qa, qb := quadOfLattice(a, g), quadOfLattice(b, g)
	tol := frac * (dist(qa[0], qa[1]) + dist(qa[2], qa[3])) / 2
	for _, o := range []models.Quad{qb, {qb[2], qb[3], qb[0], qb[1]}, {qb[1], qb[0], qb[3], qb[2]}, {qb[3], qb[2], qb[1], qb[0]}} {
		near := true
		for i := range o {
			if dist(o[i], qa[i]) > tol {
				near = false
				break
			}
		}
		if near {
			return true
		}
	}
	return false
}

// quadOfLattice is the realm's outline under lattice h.
func quadOfLattice(h homography, g models.RealmGeometry) models.Quad {
	var q models.Quad
	for i, p := range realmCorners(g) {
		q[i] = h.Apply(p)
	}
	return q
}

// climbed is how many of the best refined lattices climbCorners polishes.
const climbed = 2

// Detect finds the realm in a camera frame: from four ArUco markers when they
// are all visible, else from the grid lines and border of the mat. It returns
// an error wrapping ErrNotFound when there is no realm it can trust.
func Detect(frame gocv.Mat, opts Options) (*Calibration, error) {
	if frame.Empty() {
		return nil, errors.New("calibration: empty frame")
	}
	g := opts.geometry()
	w, h := frame.Cols(), frame.Rows()
	corners, found, err := detectMarkers(frame, g, opts.MarkerLayout)
	if err != nil && opts.Markers {
		return nil, err
	}
	method := MethodMarkers
	score := 1.0
	if !found {
		if opts.Markers {
			return nil, fmt.Errorf("calibration: the four ArUco markers (DICT_4X4_50 ids 0–3 at A1, E1, E4, A4) are not all visible: %w", ErrNotFound)
		}
		hm, s, err := detectGridChain(frame, g, segmentShare)
		if errors.Is(err, ErrNotFound) {
			// A realm seen from afar, too small for the search's
			// lengths: searched again on the window round the mat,
			// enlarged (see far.go).
			if hf, sf, ok := detectFar(frame, g, func(crop gocv.Mat, share float64) (homography, float64, error) {
				return detectGridChain(crop, g, share)
			}); ok {
				hm, s, err = hf, sf, nil
			} else if ho, so, ok := detectOnMat(frame, g); ok {
				// The table's own lines outnumber the grid's: read
				// the mat alone, the table smoothed away (see
				// onmat.go).
				hm, s, err = ho, so, nil
			} else if hd, sd, ok := detectDetrended(frame, g); ok {
				// Faint lines whose directions the frame's busier
				// parts outweigh (see detrended.go).
				hm, s, err = hd, sd, nil
			}
		}
		if err != nil {
			return nil, err
		}
		corners = orientCorners(hm, g, opts.South)
		method, score = MethodAuto, s
	}
	if err := ValidateCorners(corners, w, h); err != nil {
		return nil, fmt.Errorf("calibration: found corners are unusable (%v): %w", err, ErrNotFound)
	}
	c := &Calibration{
		Corners:     corners,
		ImageWidth:  w,
		ImageHeight: h,
		South:       opts.South,
		Geometry:    g,
		Method:      method,
		Score:       math.Round(score*1000) / 1000,
	}
	if err := c.init(); err != nil {
		return nil, err
	}
	c.SetReference(frame)
	return c, nil
}

// detectGridChain is Detect's search of the frame's grid with every retry
// (blur, lens, cloth, colour, stripes): the lattice in frame pixels and
// its score, or an error wrapping ErrNotFound. The searches of the frame
// as it is, in colour and past stripes read straight segments of share
// of the working width and longer (segmentShare, or farSegmentShare on
// the far camera's last try, see detectFar). The retries for blur, lens
// and cloth read those of segmentShare only, and run only then: on the
// last try they would repeat, seconds each, the searches the windows
// have had (the realms the last try finds on the independent scenes, it
// finds with the other three).
func detectGridChain(frame gocv.Mat, g models.RealmGeometry, share float64) (homography, float64, error) {
	hm, s, err := detectGrid(frame, g, share)
	retries := share == segmentShare
	if retries && errors.Is(err, ErrNotFound) {
		hm, s, err = detectUnsmeared(frame, g, hm, s, err) // see unsmear.go
	}
	if retries && errors.Is(err, ErrNotFound) {
		// Thin, faint lines mostly under cards: read over the
		// mat's cloth alone (see cloth.go). Or lines blurred wider
		// than the first sharpening undoes (see resharpen.go): the
		// last retry. Both run at once; the cloth's realm comes first.
		var cloth, resharpened gridTry
		concurrently(func() {
			cloth.h, cloth.score, cloth.ok = detectOnClothFrame(frame, g)
		}, func() {
			resharpened.h, resharpened.score, resharpened.ok = detectResharpened(frame, g)
		})
		switch {
		case cloth.ok:
			hm, s, err = cloth.h, cloth.score, nil
		case resharpened.ok:
			hm, s, err = resharpened.h, resharpened.score, nil
		}
	}
	if errors.As(err, new(noGridError)) {
		// Lines of about the cloth's grey, which differ from it
		// in hue (see chroma.go). Not when a lattice was found and
		// refused: two grids about equally clear stay refused.
		if hc, sc, ok := detectInColour(frame, g, share); ok {
			hm, s, err = hc, sc, nil
		} else if hp, sp, ok := detectPastStripes(frame, g, share); ok {
			// Or every long line of the frame is a striped
			// table's (see stripes.go).
			hm, s, err = hp, sp, nil
		}
	}
	return hm, s, err
}

// orientCorners reads the realm corners A1, E1, E4, A4 off a lattice
// homography: the order must turn counter-clockwise on screen (the realm is
// never seen mirrored), and the lattice's long axis (its Columns) runs east
// to west. Of the two long sides, south is the one towards the image side
// south (the user's setting: Bottom by default), whichever way the camera is
// turned in the image plane: a realm truly turned more than a quarter turn
// from that setting is read with south and north swapped, as the setting
// says. When the long sides face that side equally (the long axis within
// quarterTurnBand of the side's direction: a realm turned a quarter turn
// from the setting), which is south is a coin toss that the frame's noise
// would call differently from frame to frame; it is settled by the next
// side a quarter turn clockwise on screen (for Bottom, south is the long
// side on the image's left; for Top, on its right; for Left, at the top;
// for Right, at the bottom).
func orientCorners(h homography, g models.RealmGeometry, south Side) models.Quad {
	w, hh := g.WidthMM(), g.HeightMM()
	q := models.Quad{
		h.Apply(models.Point{X: 0, Y: 0}),
		h.Apply(models.Point{X: w, Y: 0}),
		h.Apply(models.Point{X: w, Y: hh}),
		h.Apply(models.Point{X: 0, Y: hh}),
	}
	var area float64
	for i := range q {
		j := (i + 1) % 4
		area += q[i].X*q[j].Y - q[j].X*q[i].Y
	}
	if area > 0 {
		q = models.Quad{q[1], q[0], q[3], q[2]}
	}
	ax, ay := southAxis(q)
	dx, dy := south.direction()
	along := ax*dx + ay*dy // > 0: A1–E1 is the long side towards south
	if math.Abs(along) <= math.Sin(quarterTurnBand)*math.Hypot(ax, ay) {
		// A quarter turn from the setting: the side a quarter turn
		// clockwise on screen from it ((dx, dy) turned by 90°, y down).
		along = ax*(-dy) + ay*dx
	}
	if along < 0 {
		q = models.Quad{q[2], q[3], q[0], q[1]}
	}
	return q
}

// quarterTurnBand is how near to the image's vertical (radians) the
// realm's long axis counts as turned a quarter turn (see orientCorners):
// within it, a camera placed at a table's side, whose detected corners
// move a pixel or two from frame to frame, keeps one reading.
const quarterTurnBand = 3 * math.Pi / 180

// detectGrid fits the realm lattice (Columns+1 by Rows+1 straight lines under
// one homography) to the frame's edges. It returns the homography from realm
// millimetres (in one of the realm's symmetric orientations) to image pixels.
// Its first search reads straight segments of share of the working width
// and longer (see segmentShare); its retries for the lens and blur when
// that finds no realm, those of segmentShare, and they run only when share
// is segmentShare (see detectGridChain).
func detectGrid(frame gocv.Mat, g models.RealmGeometry, share float64) (homography, float64, error) {
	var byProfiles bool
	h, score, k, err := detectStraightVia(frame, g, &byProfiles, share)
	if err == nil && k >= strongLensK {
		// The lens bows the lines so much that the corners read along
		// the bowed border lines are uncertain: the realm is read again
		// where the lines are straight (see lensretry.go).
		if hu, su, ok := detectThroughLens(frame, g, k); ok && sameRealm(hu, h, g) {
			return hu, su, nil
		}
	} else if err == nil && byProfiles {
		// Straight lines fitted to lines a lens bows can land a cell
		// off (see lensretry.go).
		if hl, sl, ok := lensOverProfiles(frame, g, h); ok {
			return hl, sl, nil
		}
	}
	if err == nil || !errors.Is(err, ErrNotFound) || share != segmentShare {
		return h, score, err
	}
	// A wide-angle lens bows the grid's lines too much for a straight
	// lattice to fit them (see lensretry.go); or the lines are too blurred
	// to show (see sharpen.go): not a grid refused. Or the edges' grid and
	// the line profiles' are about equally clear: the blur of a moving
	// camera may have taken the lines' depth (see sharpen.go). The
	// searches run at once, each taking seconds; the lens's realm comes
	// first.
	var split splitGridsError
	isSplit, noGrid := errors.As(err, &split), errors.As(err, new(noGridError))
	var lensed, sharpened gridTry
	concurrently(func() {
		lensed.h, lensed.score, lensed.ok = detectUndistorted(frame, g)
	}, func() {
		if isSplit || noGrid {
			sharpened.h, sharpened.score, sharpened.ok = detectSharpened(frame, g)
		}
	})
	switch {
	case lensed.ok:
		return lensed.h, lensed.score, nil
	case sharpened.ok && noGrid:
		return sharpened.h, sharpened.score, nil
	case sharpened.ok && isSplit && sameRealm(sharpened.h, split.edges, g):
		return onBandCentres(frame, sharpened.h, g), sharpened.score, nil
	}
	return h, score, err
}

// splitGridsError is the error of a search whose edges and line profiles
// found two different grids about equally clear (see crossCheck); edges
// is the edges' lattice, in frame pixels.
type splitGridsError struct {
	error
	edges homography
}

func (e splitGridsError) Unwrap() error { return e.error }

// noGridError is the error of a search that found no lattice it could
// believe at all (on edges, line profiles or marks), rather than one that
// refused a lattice it found (two grids about equally clear, cells of a
// shape no camera sees, the mat's edge or bare cloth in it).
type noGridError struct{ error }

func (e noGridError) Unwrap() error { return e.error }

// detectStraight is detectGrid for a lattice of straight lines (bowed by
// the lens by no more than a few pixels). It also gives the lens
// distortion k that onBentBorder read off the lattice's lines.
func detectStraight(frame gocv.Mat, g models.RealmGeometry) (homography, float64, float64, error) {
	return detectStraightVia(frame, g, nil, segmentShare)
}

// detectStraightVia is detectStraight that also sets *byProfiles (when not
// nil) to whether the lattice was read off line profiles (detectFaint)
// because no lattice on edges was trusted. It reads straight segments of
// share of the working width and longer (see segmentShare).
func detectStraightVia(frame gocv.Mat, g models.RealmGeometry, byProfiles *bool, share float64) (homography, float64, float64, error) {
	gray, scale := workingGray(frame)
	defer gray.Close()
	return detectStraightOn(frame, gray, scale, g, byProfiles, false, share)
}

// detectStraightOn is detectStraightVia reading the lines off gray, a
// blurred one-channel image of the frame at the working width (see
// workingGray; scale is the scale from frame pixels to it), and the
// colours of the cloth (see bare.go) off the frame itself, and straight
// segments of share of the working width and longer (see segmentShare).
func detectStraightOn(frame, gray gocv.Mat, scale float64, g models.RealmGeometry, byProfiles *bool, pastDominant bool, share float64) (homography, float64, float64, error) {
	return detectStraightReading(frame, gray, scale, g, byProfiles, segmentReading{pastDominant: pastDominant}, share)
}

// segmentReading says which of the frame's straight segments the searches
// read: those past the dominant direction only (see stripes.go), and
// those on the mat only, when onMat (in working points) is not nil (see
// onmat.go).
type segmentReading struct {
	pastDominant bool
	onMat        func(models.Point) bool
	// noise, when not nil, is the typical line response the search
	// takes for its own (see onmat.go).
	noise *[len(ridgeOffsets)]float64
	// detrendPencil has the search read the line profiles only (no
	// edges, no marks), their vanishing points lined up on the
	// response's peaks over its trend (see detrended.go).
	detrendPencil bool
}

// detectStraightReading is detectStraightOn reading the straight segments
// that reading says.
func detectStraightReading(frame, gray gocv.Mat, scale float64, g models.RealmGeometry, byProfiles *bool, reading segmentReading, share float64) (homography, float64, float64, error) {
	// A second, more sensitive pass runs only when the first finds no
	// realm it trusts (faint or blurred grid lines).
	// The sensitive edge map also judges between a lattice and its aliases
	// (see bestVariant) in the first pass.
	faint, err := newEdgeMap(gray, faintCannyLow, faintCannyHigh)
	if err != nil {
		return homography{}, 0, 0, fmt.Errorf("calibration: %w", err)
	}
	rm, err := newRidgeMap(gray)
	if err != nil {
		return homography{}, 0, 0, fmt.Errorf("calibration: %w", err)
	}
	rm.pastDominant = reading.pastDominant
	rm.onMat = reading.onMat
	if reading.noise != nil {
		rm.noise = *reading.noise
	}
	rm.segmentShare = share
	profilesOnly := reading.detrendPencil
	rm.detrendPencil = reading.detrendPencil
	var best gridFit
	var seeds []gridFit
	col, hasCol := newColourFrame(frame, scale)
	if hasCol {
		rm.colour = &col
	}
	fromMarks, viaProfiles, turned := false, false, false
	var refused []homography
	passes := edgePasses(rm)
	if profilesOnly {
		passes, err = nil, fmt.Errorf("calibration: the profiles only: %w", ErrNotFound)
	}
	for _, pass := range passes {
		best, err = fitGridOver(gray, faint, g, pass.th, pass.keep, share)
		if err == nil && math.Max(rm.ridgeScore(best.h, g), rm.bentRidgeScore(best.h, g)) < minEdgeRidgeScore {
			// Edges of cards and art line up into a lattice whose lines
			// are not drawn lines, even allowing the lines to bend a
			// little (a lens's barrel distortion, a mat not lying flat).
			err = fmt.Errorf("calibration: the grid found on edges is not drawn lines: %w", ErrNotFound)
		}
		if err == nil && cameraInconsistency(best.h, float64(gray.Cols()), float64(gray.Rows())) > maxCameraInconsistency {
			// Card edges and the mat's edge line up into a lattice of
			// cells no camera over a table sees in that shape.
			err = fmt.Errorf("calibration: the grid found on edges has cells of a shape no camera sees: %w", ErrNotFound)
		}
		if err == nil {
			break
		}
		if !math.IsInf(best.score, -1) && best.h != (homography{}) {
			seeds = append(seeds, best)
		}
	}
	if err != nil {
		// Grid lines too faint, blurred or broken for the edges: read them
		// off line profiles instead (see detectFaint).
		f, ok := detectFaint(gray, rm, faint, g, seeds)
		if !ok && f.h != (homography{}) {
			// A faint grid one of whose directions is half under
			// cards (see pinholeBordered).
			if hasCol {
				ok = pinholeBordered(rm, col, f, g)
			}
		}
		if !ok || f.score < ridgeLineCap-splitMargin {
			// A camera turned more than an eighth of a turn (see
			// detectFaintAs): its lattice replaces an upright one
			// only when its lines are more clearly drawn by
			// splitMargin.
			ft, okt := detectFaintAs(gray, rm, faint, g, true, seeds)
			if !okt && ft.h != (homography{}) && hasCol {
				okt = pinholeBordered(rm, col, ft, g)
			}
			if okt && (!ok || ft.score > f.score+splitMargin) {
				f, ok, turned = ft, true, true
			}
		}
		if ok {
			best = gridFit{h: f.h, score: math.Min(1, f.score/ridgeLineCap)}
			viaProfiles = true
			if byProfiles != nil {
				*byProfiles = true
			}
		} else if hm, n, ok := marksUnless(profilesOnly, rm, g); ok {
			// No lines at all: the cells' corners are marked by dots,
			// crosses or dashes that meet (see marks.go).
			best = gridFit{h: hm, score: float64(n) / float64((models.Columns+1)*(models.Rows+1))}
			fromMarks = true
		} else {
			return homography{}, best.score, 0, noGridError{err}
		}
	} else {
		best.h = polishOnLines(rm, best.h, g)
		bare := func(h homography) bool { return hasCol && bareGridLines(rm, col, h, g) }
		checked, agreed := crossCheck(gray, rm, faint, g, best, bare)
		if !agreed {
			return homography{}, best.score, 0, splitGridsError{
				error: fmt.Errorf("calibration: the edges and the line profiles find two different grids about as clearly: %w", ErrNotFound),
				edges: toFrame(best.h, scale),
			}
		}
		best = checked
		if hs := moveOnLines(rm, faint, best.h, g); hs != best.h {
			best = gridFit{h: hs, score: math.Min(1, rm.ridgeScore(hs, g)/ridgeLineCap)}
		}
	}
	settled, err := settleLattice(rm, col, hasCol, best, g, fromMarks)
	for retry := 0; errors.Is(err, errBareLines) && viaProfiles && retry < 2; retry++ {
		// The profile search's lattice of another spacing, its lines on
		// rows of tokens and over bare cloth: the realm's own lattice
		// may be the profile search's next best (see bareGridLines).
		refused = append(refused, best.h, settled.h)
		f, ok := detectFaintAs(gray, rm, faint, g, turned, seeds, refused...)
		if !ok {
			break
		}
		best = gridFit{h: f.h, score: math.Min(1, f.score/ridgeLineCap)}
		settled, err = settleLattice(rm, col, hasCol, best, g, false)
	}
	if err != nil {
		return homography{}, settled.score, 0, err
	}
	best = settled
	lensK := 0.0
	if !fromMarks {
		// The corners where the border lines, bowed by the lens, meet.
		var hb homography
		var ok bool
		if hb, lensK, ok = onBentBorder(rm, best.h, g); ok {
			best.h = hb
		}
	}
	return toFrame(best.h, scale), best.score, lensK, nil
}

// marksUnless is detectMarks, or nothing found when skip.
func marksUnless(skip bool, rm *ridgeMap, g models.RealmGeometry) (homography, int, bool) {
	if skip {
		return homography{}, 0, false
	}
	return detectMarks(rm, g)
}

// toFrame is lattice h, found at the working width (see workingGray), in
// the pixels of a frame scale times smaller.
func toFrame(h homography, scale float64) homography {
	if scale == 1 {
		return h
	}
	return h.Then(homography{1 / scale, 0, 0, 0, 1 / scale, 0, 0, 0, 1})
}

// errBareLines is settleLattice's refusal of a lattice whose lines run
// over bare cloth (see bareGridLines).
var errBareLines = fmt.Errorf("calibration: lines of the grid found run over the bare mat: %w", ErrNotFound)

// errStopsShort is settleLattice's refusal of a lattice whose lines across
// its outer two rows or columns, or across all of it, show nowhere (see
// linesStopShort, oneAxisOnly).
var errStopsShort = fmt.Errorf("calibration: the grid found reaches past its drawn lines: %w", ErrNotFound)

// errCheckedCloth is settleLattice's refusal of a lattice laid on a
// tablecloth ruled in both directions (see onCheckedCloth).
var errCheckedCloth = fmt.Errorf("calibration: the grid found lies on a checked cloth, whose lines run through its cells too: %w", ErrNotFound)

// settleLattice moves a lattice found onto the realm's drawn lines and off
// the mat's edge (settleOnSides, ontoUnbrokenGrid, offTheMat) and refuses
// it when lines like its own run through its cells (errCheckedCloth), its
// cells are of a shape no camera sees, the mat's edge runs through it, its
// lines stop two cells short of its border or show along one axis only
// (errStopsShort), or they run over bare cloth (errBareLines).
func settleLattice(rm *ridgeMap, col colourFrame, hasCol bool, best gridFit, g models.RealmGeometry, fromMarks bool) (gridFit, error) {
	if !fromMarks && rm.onCheckedCloth(best.h, g) {
		// No move makes a lattice on a checked cloth the realm.
		return best, errCheckedCloth
	}
	// A lattice of marks already ends where the marks do; the drawn lines
	// settleOnSides weighs are not there.
	if hs := settleOnSides(rm, best.h, g); !fromMarks && hs != best.h {
		best = gridFit{h: hs, score: math.Min(1, rm.ridgeScore(hs, g)/ridgeLineCap)}
	}
	if hasCol && !fromMarks {
		// A border running over bare cloth where the grid's lines are
		// unbroken everywhere else (see bare.go).
		if hs := ontoUnbrokenGrid(rm, col, best.h, g); hs != best.h {
			best = gridFit{h: hs, score: math.Min(1, rm.ridgeScore(hs, g)/ridgeLineCap)}
		}
	}
	if cameraInconsistency(best.h, float64(rm.w), float64(rm.h)) > maxCameraInconsistency {
		return best, fmt.Errorf("calibration: the grid found has cells of a shape no camera sees: %w", ErrNotFound)
	}
	if hs, ok := offTheMat(rm, best.h, g); !ok {
		return best, fmt.Errorf("calibration: the mat's edge runs through the grid found: %w", ErrNotFound)
	} else if hs != best.h {
		best = gridFit{h: hs, score: math.Min(1, rm.ridgeScore(hs, g)/ridgeLineCap)}
	}
	if !fromMarks && (rm.linesStopShort(best.h, g) || rm.oneAxisOnly(best.h, g)) {
		// Stripes of the table beside the mat taken for the outer
		// rows of a lattice two cells past the realm, or for one
		// direction of lines with no lines across them (see
		// linesStopShort, oneAxisOnly).
		return best, errStopsShort
	}
	if hasCol && !fromMarks && bareGridLines(rm, col, best.h, g) {
		// Whole lines of the lattice over bare cloth, where the mat's
		// other lines are unbroken: half the spacing of the drawn
		// lines, or more of it (see bare.go).
		return best, errBareLines
	}
	return best, nil
}

// moveOnLines moves a lattice found on edges by one cell when that shows
// more clearly as drawn lines (see preferShiftOnLines, with the sensitive
// edge map faint as the independent evidence), then snaps the moved
// lattice's lines to their edges, as the edge pass does (the move was
// climbed in coarse steps only, and the lines it gained may sit a few
// pixels off), and polishes it onto the lines' centres. It returns h when
// no move is better.
func moveOnLines(rm *ridgeMap, faint *edgeMap, h homography, g models.RealmGeometry) homography {
	hs, _ := preferShiftOnLines(rm, faint, h, g, false)
	if hs == h {
		return h
	}
	if hr := refineGrid(faint, hs, g, []int{8, 7, 6}); plausible(hr, g, float64(rm.w), float64(rm.h)) && rm.ridgeScore(hr, g) > rm.ridgeScore(hs, g) {
		hs = hr
	}
	return polishOnLines(rm, hs, g)
}

// edgePass is one search of the edges for the lattice: its Canny
// thresholds, and which of the straight segments found it reads (all when
// keep is nil).
type edgePass struct {
	th   cannyThresholds
	keep func(segment) bool
}

// edgePasses are the edge searches in the order they are tried, each
// only when the ones before it found no lattice of drawn lines: all the
// segments at the usual thresholds, then at the sensitive ones (faint or
// blurred grid lines), then at the usual thresholds again over the
// segments that run along thin drawn lines only (see onDrawnLine): the
// stripes of a tablecloth or a table's planks outnumber the grid's lines
// in the frame and take every lattice hypothesis.
func edgePasses(rm *ridgeMap) []edgePass {
	passes := []edgePass{
		{th: cannyThresholds{cannyLow, cannyHigh, minGridScore}},
		{th: cannyThresholds{faintCannyLow, faintCannyHigh, minFaintGridScore}},
		{th: cannyThresholds{cannyLow, cannyHigh, minGridScore}, keep: onDrawnLine(rm)},
	}
	if rm.onMat != nil {
		// Only the segments on the mat (see onmat.go).
		onMat := onMatSegment(rm.onMat)
		for i, p := range passes {
			passes[i].keep = bothKept(onMat, p.keep)
		}
	}
	return passes
}

// cannyThresholds are the low and high thresholds of one Canny pass.
type cannyThresholds struct {
	low, high float32
	minScore  float64 // the lowest grid score accepted from this pass
}

// fitGridOver is one pass of detectGrid with the given Canny thresholds
// (for the full-size edge map and the half-size Hough image alike), over
// the straight segments that keep accepts only (all of them when keep is
// nil). faint is the edge map of the sensitive pass, which decides between
// the best lattice and its aliases. It reads straight segments of share
// of the working width and longer (see segmentShare).
func fitGridOver(gray gocv.Mat, faint *edgeMap, g models.RealmGeometry, th cannyThresholds, keep func(segment) bool, share float64) (gridFit, error) {
	em := faint
	if th.low != faintCannyLow || th.high != faintCannyHigh {
		var err error
		if em, err = newEdgeMap(gray, th.low, th.high); err != nil {
			return gridFit{}, fmt.Errorf("calibration: %w", err)
		}
	}
	w, hgt := float64(gray.Cols()), float64(gray.Rows())
	readings, err := gridCandidates(em, gray, g, th, keep, share)
	if err != nil {
		return gridFit{}, err
	}
	// Each reading of the lines is fitted on its own, and the better fit
	// wins (see gridCandidates).
	best := gridFit{score: math.Inf(-1)}
	for _, fits := range readings {
		if f := bestRefined(em, fits, g, w, hgt); f.score > best.score {
			best = f
		}
	}
	if !math.IsInf(best.score, -1) {
		best = preferVariant(em, faint, best, g, w, hgt)
	}
	if best.score < th.minScore {
		return best, fmt.Errorf("calibration: best grid candidate matches only %.0f%% of the grid lines: %w", 100*math.Max(0, best.score), ErrNotFound)
	}
	return best, nil
}

// bestRefined refines lattice candidates on edge map em, polishes the best
// climbed of them by moving their corners (climbCorners) and refining them
// again, and gives the best (a score of -Inf when there are none).
func bestRefined(em *edgeMap, fits []gridFit, g models.RealmGeometry, w, hgt float64) gridFit {
	refined := make([]gridFit, 0, len(fits))
	for _, f := range fits {
		hm := refineGrid(em, f.h, g, []int{8, 7, 6})
		if !plausible(hm, g, w, hgt) {
			hm = f.h
		}
		refined = append(refined, gridFit{h: hm, score: scoreGrid(em, hm, g)})
	}
	sortFits(refined)
	for i := range refined[:min(len(refined), climbed)] {
		hm := refined[i].h
		ch, _ := climbCorners(func(h homography) float64 { return scoreGridStep(em, h, g, 10) }, hm, g, w, hgt, []float64{8, 4, 2, 1})
		if ch == hm {
			continue
		}
		rc := refineGrid(em, ch, g, []int{6, 5, 4})
		if !plausible(rc, g, w, hgt) {
			rc = ch
		}
		if sc := scoreGrid(em, rc, g); sc > refined[i].score {
			refined[i] = gridFit{h: rc, score: sc}
		}
	}
	best := gridFit{score: math.Inf(-1)}
	for _, f := range refined {
		if f.score > best.score {
			best = f
		}
	}
	return best
}

func sortFits(f []gridFit) {
	for i := 1; i < len(f); i++ {
		for j := i; j > 0 && f[j].score > f[j-1].score; j-- {
			f[j], f[j-1] = f[j-1], f[j]
		}
	}
}

// The smallest realm plausible accepts: its area as a share of the frame's,
// and its long side's mean length as a share of the frame's width (a
// realm seen from afar is searched again enlarged, see far.go).
const (
	minRealmArea   = 0.05
	minRealmAcross = 0.25
)

// realmAcross is the mean length of the realm outline q's long (south and
// north) sides.
func realmAcross(q models.Quad) float64 { return (dist(q[0], q[1]) + dist(q[2], q[3])) / 2 }

// plausible rejects lattices that are tiny, huge, far outside the image,
// folded, or of a shape no camera over the table would see.
func plausible(h homography, g models.RealmGeometry, w, hgt float64) bool {
	q := models.Quad{
		h.Apply(models.Point{X: 0, Y: 0}),
		h.Apply(models.Point{X: g.WidthMM(), Y: 0}),
		h.Apply(models.Point{X: g.WidthMM(), Y: g.HeightMM()}),
		h.Apply(models.Point{X: 0, Y: g.HeightMM()}),
	}
	for _, p := range q {
		if math.IsNaN(p.X) || math.IsNaN(p.Y) || p.X < -0.25*w || p.X > 1.25*w || p.Y < -0.25*hgt || p.Y > 1.25*hgt {
			return false
		}
	}
	if a := q.Area(); a < minRealmArea*w*hgt || a > 1.2*w*hgt {
		return false
	}
	// The mean length of the long (south and north) edges over that of the
	// short (west and east) edges is 5:3 top-down, up to 4.5 in a very flat
	// view from a player's side, and down to about 1 in a steep view from
	// the realm's east or west side (the camera may be turned any way in
	// the image plane). And the realm's long side spans at least a quarter
	// of the frame's width.
	across := realmAcross(q)
	along := (dist(q[1], q[2]) + dist(q[3], q[0])) / 2
	if along == 0 || across/along < 0.9 || across/along > 4.5 || across < minRealmAcross*w {
		return false
	}
	// Convex, and the denominator of h positive over the realm (not folded).
	sign := 0
	for i := range q {
		a, b, c := q[i], q[(i+1)%4], q[(i+2)%4]
		cross := (b.X-a.X)*(c.Y-b.Y) - (b.Y-a.Y)*(c.X-b.X)
		s := 1
		if cross < 0 {
			s = -1
		}
		if sign != 0 && s != sign {
			return false
		}
		sign = s
	}
	return true
}

// gridCandidates finds the best few lattice hypotheses (before refinement)
// from the edge map and the Canny edge image, for each reading of the two
// directions of lines: the columns' lines along the first and the rows'
// along the second, and the other way round. The camera may be turned any
// way in the image plane, so either reading can be the realm; each keeps
// its own best few, so that the many near copies of one reading's lattice
// never crowd out the other's. Only the straight segments that keep
// accepts, of share of the working width and longer (see segmentShare),
// are read (all of them when keep is nil).
func gridCandidates(em *edgeMap, gray gocv.Mat, g models.RealmGeometry, th cannyThresholds, keep func(segment) bool, share float64) ([][]gridFit, error) {
	w, hgt := float64(em.w), float64(em.h)
	minLen := leastSegment(share, w)
	segs := halfResSegments(gray, minLen, th)
	if keep != nil {
		segs = keptSegments(segs, keep)
	}
	if len(segs) < 4 {
		return nil, fmt.Errorf("calibration: too few straight lines in the frame (%d): %w", len(segs), ErrNotFound)
	}
	d1, d2, ok := dominantDirections(segs, 40*math.Pi/180)
	if !ok {
		return nil, fmt.Errorf("calibration: no two line directions in the frame: %w", ErrNotFound)
	}
	clusters := clusterSegments(segs, 2.5*math.Pi/180, 3)
	centre := models.Point{X: w / 2, Y: hgt / 2}
	const keepLines, keepHyps = 32, 150
	fa := newFamily(clusters, d1, d2, 40*math.Pi/180, centre, keepLines, minLen)
	fb := newFamily(clusters, d2, d1, 40*math.Pi/180, centre, keepLines, minLen)
	minSpacing := 0.02 * w
	maxSpan := 1.3 * math.Max(w, hgt)
	nx, ny := models.Columns+1, models.Rows+1
	type pairing struct {
		fx, fy family
	}
	var readings [][]gridFit
	for _, p := range []pairing{{fa, fb}, {fb, fa}} {
		hx := lattice1D(p.fx, nx, minSpacing, maxSpan, keepHyps)
		hy := lattice1D(p.fy, ny, minSpacing, maxSpan, keepHyps)
		// Rank each direction's hypotheses by the edges along their own
		// lines, framed by the other direction's best few (which only set
		// where along the lines to look), then pair the best of each.
		hx = rankByOwnLines(em, p.fx, hx, p.fy, hy, g, true, w, hgt)
		hy = rankByOwnLines(em, p.fy, hy, p.fx, hx, g, false, w, hgt)
		var fits []gridFit
		for _, a := range hx {
			for _, b := range hy {
				hm, ok := combine(p.fx, a, p.fy, b, g)
				if !ok || !plausible(hm, g, w, hgt) {
					continue
				}
				fits = append(fits, gridFit{h: hm, score: scoreGridStep(em, hm, g, 20)})
			}
		}
		if len(fits) == 0 {
			continue
		}
		// A coarse score ranks all; the best few are scored finely.
		sortFits(fits)
		if len(fits) > 12 {
			fits = fits[:12]
		}
		for i := range fits {
			fits[i].score = scoreGrid(em, fits[i].h, g)
		}
		sortFits(fits)
		if len(fits) > 8 {
			fits = fits[:8]
		}
		readings = append(readings, fits)
	}
	if len(readings) == 0 {
		return nil, fmt.Errorf("calibration: no realm grid among %d lines: %w", len(clusters), ErrNotFound)
	}
	return readings, nil
}

// The least length of the straight segments the grid search reads, as a
// share of the working width (see leastSegment). Shorter ones are mostly
// card art, dice and the table's grain, and the grid's lines, even broken
// by cards, are longer in a realm of the size the search expects. A realm
// seen from afar and enlarged (see far.go) may not be: its lines are
// blurred and broken into pieces shorter than that, read only on the
// far camera's last try (see detectFar), with farSegmentShare.
const (
	segmentShare    = 0.035
	farSegmentShare = 0.025
)

// leastSegment is the least length, in pixels, of the straight segments
// read at share of a working image w pixels wide: never under 20 pixels.
func leastSegment(share, w float64) float64 { return math.Max(20, share*w) }

// halfResSegments finds straight segments on a half-size edge image (the
// Hough transform is the slow step at full size) and scales them back.
func halfResSegments(gray gocv.Mat, minLen float64, th cannyThresholds) []segment {
	small := gocv.NewMat()
	defer small.Close()
	gocv.Resize(gray, &small, image.Pt(gray.Cols()/2, gray.Rows()/2), 0, 0, gocv.InterpolationArea)
	edges := gocv.NewMat()
	defer edges.Close()
	gocv.Canny(small, &edges, th.low, th.high)
	segs := houghSegments(edges, minLen/2)
	for i := range segs {
		segs[i].a = models.Point{X: segs[i].a.X*2 + 0.5, Y: segs[i].a.Y*2 + 0.5}
		segs[i].b = models.Point{X: segs[i].b.X*2 + 0.5, Y: segs[i].b.Y*2 + 0.5}
	}
	return segs
}

// Canny thresholds on the blurred grey frame: the first pass, and the more
// sensitive second pass for faint grid lines.
const (
	cannyLow, cannyHigh           = 20, 50
	faintCannyLow, faintCannyHigh = 10, 28
)

// rankedKeep is how many hypotheses per direction rankByOwnLines keeps.
const rankedKeep = 12

// rankByOwnLines scores each hypothesis of one direction by the support of
// its own lattice lines (less the lines just outside), framed by the best
// few hypotheses of the other direction, and keeps the best rankedKeep.
// isX says whether hyps are the lines of constant x.
func rankByOwnLines(em *edgeMap, f family, hyps []hyp1, other family, otherHyps []hyp1, g models.RealmGeometry, isX bool, w, hgt float64) []hyp1 {
	frames := otherHyps
	if len(frames) > 3 {
		frames = frames[:3]
	}
	var out []scoredItem[hyp1]
	for _, h := range hyps {
		best := math.Inf(-1)
		for _, o := range frames {
			var hm homography
			var ok bool
			if isX {
				hm, ok = combine(f, h, other, o, g)
			} else {
				hm, ok = combine(other, o, f, h, g)
			}
			if !ok || !plausible(hm, g, w, hgt) {
				continue
			}
			best = math.Max(best, familyScore(em, hm, g, isX))
		}
		if !math.IsInf(best, -1) {
			out = append(out, scoredItem[hyp1]{h, best})
		}
	}
	return keepBest(out, rankedKeep)
}

// scoredItem is an item with its score, for keepBest.
type scoredItem[T any] struct {
	item  T
	score float64
}

// keepBest gives the items of the keep highest scores, best first.
func keepBest[T any](all []scoredItem[T], keep int) []T {
	sort.Slice(all, func(i, j int) bool { return all[i].score > all[j].score })
	if len(all) > keep {
		all = all[:keep]
	}
	out := make([]T, len(all))
	for i, s := range all {
		out[i] = s.item
	}
	return out
}

// familyScore is scoreGrid restricted to the lines of one direction.
func familyScore(em *edgeMap, h homography, g models.RealmGeometry, isX bool) float64 {
	var hit, total float64
	inner := innerLines(g)
	outer := outerLines(g)
	if isX {
		inner, outer = inner[:models.Columns+1], outer[:2]
	} else {
		inner, outer = inner[models.Columns+1:], outer[2:]
	}
	for _, gl := range inner {
		f, _ := lineSupport(em, h, gl, 15, scoreRadius, false)
		hit += f
		total++
	}
	maxOut := 0.0
	for _, gl := range outer {
		f, _ := lineSupport(em, h, gl, 15, scoreRadius, false)
		maxOut = math.Max(maxOut, f)
	}
	return hit/total - 0.5*maxOut
}

func dist(a, b models.Point) float64 { return math.Hypot(b.X-a.X, b.Y-a.Y) }

// preferVariant replaces the best lattice by one of its aliases (bestVariant)
// when the alias, refined, covers more of the grid on both edge maps.
func preferVariant(em, faint *edgeMap, best gridFit, g models.RealmGeometry, w, hgt float64) gridFit {
	v := bestVariant(faint, best.h, g, w, hgt)
	if v == best.h {
		return best
	}
	rv := refineGrid(em, v, g, []int{8, 7, 6})
	if !plausible(rv, g, w, hgt) {
		rv = v
	}
	own := scoreGrid(em, rv, g)
	if own <= best.score || scoreGrid(faint, rv, g) <= scoreGrid(faint, best.h, g) {
		return best
	}
	return gridFit{h: rv, score: own}
}

// workWidth is the frame width (px) at which the grid is read: the
// lengths, radii and offsets in pixels throughout this package are stated
// for it. Wider frames are shrunk to it; narrower ones (a cheap webcam, a
// streamer's downscaled capture) are enlarged to it before they are
// blurred, so that a grid line one or two pixels wide keeps its contrast
// and every distance in pixels keeps its meaning in the realm.
const workWidth = 1280

// workingGray is the blurred grey frame at the working size (see
// workWidth) and the scale from frame pixels to it.
func workingGray(frame gocv.Mat) (gocv.Mat, float64) {
	w := frame.Cols()
	switch {
	case w > 1600:
		gray := grayFor(frame)
		scale := workWidth / float64(w)
		gocv.Resize(gray, &gray, image.Pt(workWidth, int(math.Round(float64(gray.Rows())*scale))), 0, 0, gocv.InterpolationArea)
		return gray, scale
	case w < workWidth:
		scale := workWidth / float64(w)
		big := gocv.NewMat()
		defer big.Close()
		gocv.Resize(frame, &big, image.Pt(workWidth, int(math.Round(float64(frame.Rows())*scale))), 0, 0, gocv.InterpolationLinear)
		return grayBlurred(big, grayBlurSigma/scale), scale
	}
	return grayFor(frame), 1
}
