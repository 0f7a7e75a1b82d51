package vision

import (
	"errors"
	"fmt"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// Analyzer reads camera frames: it finds every card on the realm and around
// it, identifies each against the catalog, and flags frames a hand covers.
// An Analyzer keeps the last stable frame so that a frame in which nothing
// moved costs little (see Options.NoReuse); it is not safe for concurrent use.
type Analyzer struct {
	opts  Options
	cat   *models.Catalog
	index *catalogIndex
	det   *frameDetector
	// regionORB reads single card regions (identifyRegion).
	regionORB gocv.ORB
	outlines  *outlineFinder
	stable    *stableFrame
	images    frameImages
	scale     matScale // the mat's cell size, as the cards show it (scale.go)
	covered   coveredSearch
	names     nameChecker  // checks the names given against the frame (consistency.go)
	layouts   *cardLayouts // the catalog's mean faces, read at the first unknown card (layout.go)
	// laps, when set (by benchmarks), is told each time a stage of a
	// frame's reading ends.
	laps  interface{ lap(stage string) }
	muted *mutedBuffers // the muted cards' search (outline_muted.go)
	cast  lightCast     // the colour cast of the frame being read (light_cast.go)
	// beyond reads windows beyond the view's border (beyond_view.go).
	beyond beyondBuffers
	// faceTokens holds the faces' looks blurred as the camera shows them,
	// for the search for tokens on named cards, and its buffers
	// (token_on_face.go); shown the thumbnails of the cards of the frame
	// being read (shown_looks.go).
	faceTokens faceTokenBuffers
	shown      shownLooks
	// lowRes are the analyzers reading frames whose realm the camera shows
	// too small for this one's scale, by their scale; reader is the one
	// that read the last frame (readscale.go).
	lowRes map[float64]*Analyzer
	reader *Analyzer
	closed bool
}

// lap tells a.laps, if set, that a stage of the frame's reading ended.
func (a *Analyzer) lap(stage string) {
	if a.laps != nil {
		a.laps.lap(stage)
	}
}

// frameImages are the images of the frame being read, kept from frame to
// frame so that their buffers (megabytes each) are not allocated, and paged
// in, anew for every frame.
type frameImages struct {
	small, smallGray gocv.Mat // top-down colour and grey at half the resolution
	frameGray        gocv.Mat // the camera frame in grey where the warp reads it (view.grayFrameInto); elsewhere stale
	gray             gocv.Mat // top-down grey at full resolution
	// blurred and steps are sharpenIfSoft's buffers (sharpness.go).
	blurred gocv.Mat
	steps   []int
	// hand is small shrunk for the hand tests (occlusion.go), once a frame.
	hand handShrunk
}

func newFrameImages() frameImages {
	return frameImages{small: gocv.NewMat(), smallGray: gocv.NewMat(), frameGray: gocv.NewMat(), gray: gocv.NewMat(), blurred: gocv.NewMat(), hand: newHandShrunk()}
}

func (f *frameImages) close() {
	for _, m := range []*gocv.Mat{&f.small, &f.smallGray, &f.frameGray, &f.gray, &f.blurred} {
		m.Close()
	}
	f.hand.close()
}

// ErrNoCalibration is returned by Analyze when it has no realm corners to read the frame by.
var ErrNoCalibration = errors.New("vision: no calibration (realm corners) for the frame")

// ErrClosed is returned by Analyze after Close.
var ErrClosed = errors.New("vision: analyzer closed")

// ErrEmptyFrame is returned by Analyze for an empty image.
var ErrEmptyFrame = errors.New("vision: empty frame")

// NewAnalyzer indexes the catalog's reference faces, or reads the index from
// the disk cache when it was built for the same catalog content before.
func NewAnalyzer(cat *models.Catalog, opts Options) (*Analyzer, error) {
	if cat == nil {
		return nil, errors.New("vision: no catalog")
	}
	idx, err := buildIndex(cat, opts)
	if err != nil {
		return nil, err
	}
	keepFreedMemory()
	outlines := newOutlineFinder()
	outlines.loneSides = fewCornersToken(idx.refs)
	return &Analyzer{opts: opts, cat: cat, index: idx, det: newFrameDetector(opts.frameFeatures(), opts.pxPerMM()), regionORB: newORB(500), outlines: outlines, images: newFrameImages(), beyond: newBeyondBuffers()}, nil
}

// Close frees the analyzer's OpenCV objects. Closing it again does nothing.
func (a *Analyzer) Close() error {
	if a.closed {
		return nil
	}
	a.closed = true
	for _, r := range a.lowRes {
		r.Close()
	}
	if a.stable != nil {
		a.stable.close()
		a.stable = nil
	}
	a.det.close()
	a.regionORB.Close()
	a.outlines.close()
	a.images.close()
	a.beyond.close()
	if a.muted != nil {
		a.muted.close()
	}
	return nil
}

// Faces is the number of reference faces indexed.
func (a *Analyzer) Faces() int { return len(a.index.refs) }

// Analyze reads one frame (BGR) of a realm calibrated by cal.
func (a *Analyzer) Analyze(frame gocv.Mat, cal *calibration.Calibration) (models.FrameObservation, error) {
	if a.closed {
		return models.FrameObservation{}, ErrClosed
	}
	if frame.Empty() {
		return models.FrameObservation{}, ErrEmptyFrame
	}
	if cal == nil {
		return models.FrameObservation{}, ErrNoCalibration
	}
	r, err := a.readerFor(cal)
	if err != nil {
		return models.FrameObservation{}, err
	}
	a.reader = r
	if r != a {
		return r.Analyze(frame, cal)
	}
	v, err := newView(cal.Corners, a.scale.geometry(cal.Geometry), frame.Cols(), frame.Rows(), a.opts)
	if err != nil {
		return models.FrameObservation{}, fmt.Errorf("vision: calibration corners %v: %w", cal.Corners, err)
	}
	a.lap("view")
	obs, rescale, err := a.analyzeView(frame, v, true)
	if err == nil && rescale != (models.RealmGeometry{}) {
		obs, err = a.rereadAt(frame, cal, rescale)
	}
	return obs, err
}

// analyzeView reads a frame through the view v. When measure is set and
// the cards show that the view's cell size is clearly off, it stops right
// after the keypoint matching and returns the cell size they show instead
// of the frame's cards (rescale; zero otherwise): the frame is to be read
// again at that size.
func (a *Analyzer) analyzeView(frame gocv.Mat, v *view, measure bool) (obs models.FrameObservation, rescale models.RealmGeometry, err error) {
	// A half-resolution top-down image is enough to see a hand and to tell
	// whether anything moved; only a frame that changed is read in full.
	coarse := v.scaled(0.5)
	small, smallGray := a.images.small, a.images.smallGray
	corners := v.corners
	obs = models.FrameObservation{Mat: models.MatObservation{Found: true, Corners: &corners}, Cards: []models.CardObservation{}}

	reuse := !a.opts.NoReuse && a.stable != nil && a.stable.view.same(coarse)
	// Cards are read in grey only: the camera frame is turned grey first and
	// warped at full resolution, a third of the bytes of a colour warp (the
	// colour image is only wanted at half resolution, below). That one pass
	// through the frame, in order, brings it into the processor's caches,
	// where the warp finds it at once; the warp's own scattered reads would
	// wait for memory. Only the part the view shows is made grey (and so
	// brought in): the warps read no other.
	frameGray, gray := a.images.frameGray, a.images.gray
	var sharpness axisSharpness // gray's, once warped
	warpGray := func() error {
		if err := v.grayFrameInto(frame, &frameGray); err != nil {
			return err
		}
		if err := v.warpInto(frameGray, &gray); err != nil {
			return err
		}
		// A frame soft in every direction is sharpened (sharpness.go).
		_, sharpness, a.images.steps = sharpenIfSoft(&gray, &a.images.blurred, &frameGray, v, a.images.steps)
		// The soft search runs on a frame soft in both directions
		// however little it is enlarged (outline_soft.go).
		a.outlines.softFocus = sharpness.masked
		a.lap("grey full warp")
		return nil
	}
	// The hand test's colour image, and the grey one the steady test
	// compares, come first: the colour warp reads the frame while it is
	// still in the caches from its decoding, and the grey top-down image,
	// made after it, is still there when the keypoint search reads it
	// next (made before, the colour warp's reads pushed part of it out).
	a.images.hand.ok = false // small is warped anew
	if err := coarse.warpInto(frame, &small); err != nil {
		return obs, rescale, err
	}
	if err := bgrGrayInto(small, &smallGray); err != nil {
		return obs, rescale, err
	}
	a.lap("colour half warp")
	if !reuse {
		// The frame is read in full.
		if err := warpGray(); err != nil {
			return obs, rescale, err
		}
	}
	if reuse {
		obs.Occluded = handCoversShrunk(small, coarse, a.outlines.notFaint(a.stable.cards), a.cast, &a.images.hand)
		a.lap("hand")
		// While a hand is over the realm the tracker ignores the frame: keep
		// reporting the last stable cards rather than reading half-hidden ones.
		changed := !obs.Occluded && a.stable.changed(smallGray)
		a.lap("steady test")
		if !changed {
			if a.stable.wantsNames() {
				if err := warpGray(); err != nil {
					return obs, rescale, err
				}
				cards, _, err := a.readCards(frame, gray, sharpness.softer(), v, false)
				if err != nil {
					return obs, rescale, err
				}
				a.stable.takeNames(cards)
			}
			obs.Cards = append(obs.Cards, a.stable.cards...)
			return obs, rescale, nil
		}
	}
	if reuse {
		// Something moved: the frame is read in full after all.
		if err := warpGray(); err != nil {
			return obs, rescale, err
		}
	}
	cards, rescale, err := a.readCards(frame, gray, sharpness.softer(), v, measure)
	if err != nil || rescale != (models.RealmGeometry{}) {
		return obs, rescale, err
	}
	obs.Cards = cards
	obs.Occluded = handCoversShrunk(small, coarse, a.outlines.notFaint(cards), a.cast, &a.images.hand)
	a.lap("hand")
	if !a.opts.NoReuse && !obs.Occluded {
		if a.stable != nil {
			a.stable.close()
		}
		a.stable = newStableFrame(smallGray, coarse, cards)
		a.lap("stable frame")
	}
	return obs, rescale, nil
}

// grayOf converts a BGR image to grey (caller closes).
func grayOf(img gocv.Mat) gocv.Mat {
	gray := gocv.NewMat()
	grayInto(img, &gray)
	return gray
}

// grayInto converts a BGR image to grey in dst (a copy when it is grey
// already).
func grayInto(img gocv.Mat, dst *gocv.Mat) {
	if img.Channels() == 1 {
		img.CopyTo(dst)
		return
	}
	gocv.CvtColor(img, dst, gocv.ColorBGRToGray)
}

// readCards finds and identifies the cards of a top-down grey image, whose
// sharpness is given (as viewSharpness measures it, its softer axis's); the
// camera frame it was warped from through v is read again only beyond the
// view's border (beyond_view.go). When
// measure is set, the matched cards' size is checked against the view's
// cell size first: when they show another (rescale, not zero), it returns
// at once, without cards (see matScale.check).
func (a *Analyzer) readCards(frame, gray gocv.Mat, sharpness float64, v *view, measure bool) (cards []models.CardObservation, rescale models.RealmGeometry, err error) {
	a.shown.reset()
	f, err := a.det.detectLaps(gray, a.lap)
	if err != nil {
		return nil, rescale, err
	}
	a.lap("keypoints")
	matched, looked := a.index.matchFrameLooked(f, 1, a.lap)
	dets := a.index.withoutDuplicates(matched, f.Points)
	a.lap("matching: fits 2")
	if measure {
		if shown, off := a.scale.check(a.index, f, dets, v.geo); off {
			return nil, shown, nil
		}
		a.lap("scale check")
	}
	dets = append(dets, a.cardsBeyondBorder(frame, f, looked, dets, v)...) // beyond_view.go
	a.lap("beyond the border")
	dets = sizedAsTheirFellows(dets) // scale.go
	fits := a.placedFits(dets)
	a.cast = a.readCast(dets, fits, v) // light_cast.go
	a.lap("colour cast")
	dets = a.inTheirColours(dets, fits, v) // covered_tone.go
	cards = make([]models.CardObservation, 0, len(dets))
	var named []namedCard // checked against the frame at the end (consistency.go)
	var quads []models.Quad
	for _, d := range dets {
		named = append(named, namedCard{len(cards), d, false})
		cards = append(cards, a.observe(d, v))
		quads = append(quads, d.quad)
	}
	// Card outlines no match explains get a second look on their own: a
	// shortlist by perceptual hash, then feature matching. What still fits
	// no face is reported unknown.
	// (Card outlines need the full resolution: at 1 px/mm they break up.)
	found := a.placedFits(dets)
	unnamed := unnamedSites{} // found's sites found by their outline and not named
	unknown, err := a.outlines.findUnknownCards(gray, sharpness, v, quads)
	if err != nil {
		return nil, rescale, err
	}
	unknown = onCards(unknown, dets, f.Points, v.pxPerMM)
	a.lap("outline search")
	var held []unknownCard // token outlines not named: tokens, or panels of a face
	for _, u := range unknown {
		d, ok := a.nameOutlineOrLook(gray, u.quad, f, dets, v, found)
		if !ok && u.kind != models.KindToken {
			d, ok = a.nameAround(u.quad, v, quadsOfPlaced(found), &f) // look_around.go
		}
		if ok {
			named = append(named, namedCard{len(cards), d, d.score > 0})
			cards = append(cards, a.observe(d, v))
			found = append(found, placed{d.quad, a.index.refs[d.ref].Kind})
			continue
		}
		if u.kind == models.KindToken {
			held = append(held, u)
			continue
		}
		if onCellLines(u.quad, v) || a.showsOnlyMat(u.quad, v, namedQuads(named)) {
			continue
		}
		u, inPlay := a.turned(gray, v, u)
		unnamed.add(len(found), u, inPlay, len(cards))
		if inPlay {
			cards = append(cards, u.observation(v))
		}
		found = append(found, placed{u.quad, u.kind})
	}
	// Cards stacked on others show no closed outline of their own.
	shows := func(d *detection, q models.Quad) bool { return a.faceShowsWithin(f, d, q, v.pxPerMM) }
	stacked := a.outlines.findStackedCards(gray, v, f.Points, dets, found, shows)
	for _, u := range notPanels(held, append(found, placedOf(stacked)...), v.pxPerMM) { // unknown.go
		u, inPlay := a.turned(gray, v, u)
		if inPlay {
			cards = append(cards, u.observation(v))
		}
		found = append(found, placed{u.quad, u.kind})
	}
	for _, s := range stacked {
		// A stacked card's outline is built from the edges found about its
		// keypoints, and may lie off the card (look_around.go).
		onTop := quadsOfPlaced(found)
		d, ok := a.nameByLookBorne(s.unknown().quad, v, onTop, &f) // appearance.go
		if !ok {
			d, ok = a.nameAround(s.unknown().quad, v, onTop, &f)
		}
		if ok {
			named = append(named, namedCard{len(cards), d, true})
			cards = append(cards, a.observe(d, v))
			found = append(found, placed{d.quad, a.index.refs[d.ref].Kind})
			continue
		}
		if a.showsOnlyMat(s.unknown().quad, v, namedQuads(named)) {
			continue
		}
		u, inPlay := a.turned(gray, v, s.unknown())
		unnamed.add(len(found), u, inPlay, len(cards))
		if inPlay {
			cards = append(cards, u.observation(v))
		}
		found = append(found, placed{u.quad, u.kind})
	}
	// Tokens on stacks, found where no card was named and kept only when
	// named by their look (outline_tokens.go).
	for _, t := range a.outlines.findStackedTokens(gray, v, found, namedQuads(named)) {
		if d, ok := a.nameToken(t, v, quadsOfPlaced(found)); ok {
			named = append(named, namedCard{len(cards), d, false})
			cards = append(cards, a.observe(d, v))
			found = append(found, placed{d.quad, models.KindToken})
		}
	}
	// Tokens on named cards, where the card's face shows something else
	// of a token's size (token_on_face.go).
	a.lap("unexplained outlines")
	for _, t := range a.tokensOnFaces(f, v, named, found) {
		if d, ok := a.nameToken(t, v, quadsOfPlaced(found)); ok {
			named = append(named, namedCard{len(cards), d, false})
			cards = append(cards, a.observe(d, v))
			found = append(found, placed{d.quad, models.KindToken})
		}
	}
	a.lap("tokens on faces")
	// Faint cards whose sides show straight only at half resolution, looked
	// for once the tokens on stacks are found and kept only when named by
	// their look (outline_faint.go).
	for _, s := range a.outlines.lookAgainHalf(gray, v, f.Points, dets, found, shows) {
		if d, ok := a.nameByLookBorne(s.quad, v, quadsOfPlaced(found), &f); ok {
			named = append(named, namedCard{len(cards), d, true})
			cards = append(cards, a.observe(d, v))
			found = append(found, placed{d.quad, a.index.refs[d.ref].Kind})
			a.outlines.tookFaint(cards[len(cards)-1])
		}
	}
	// Cards alone on the mat showing three sides, the fourth too faint,
	// and cards whose fourth side shows over only part of its length,
	// kept only when named by their look (outline_three.go).
	for _, q := range a.outlines.oneSideFaint() {
		if covered(q, quadsOfPlaced(found)) {
			continue
		}
		if d, ok := a.nameByLookBorne(q, v, quadsOfPlaced(found), &f); ok {
			named = append(named, namedCard{len(cards), d, true})
			cards = append(cards, a.observe(d, v))
			found = append(found, placed{d.quad, a.index.refs[d.ref].Kind})
		}
	}
	// Cards of a far, soft frame that the soft search saw only by their
	// frames, kept only when named (outline_soft_frame.go): the first of a
	// card's outlines named is taken.
	for _, qs := range a.outlines.softFramed() {
		for _, q := range qs {
			if covered(q, quadsOfPlaced(found)) {
				break
			}
			if onCellLines(q, v) {
				continue // a cell's inside (outline_mat.go)
			}
			if d, ok := a.nameOutlineOrLook(gray, q, f, dets, v, found); ok {
				named = append(named, namedCard{len(cards), d, true})
				cards = append(cards, a.observe(d, v))
				found = append(found, placed{d.quad, a.index.refs[d.ref].Kind})
				break
			}
		}
	}
	a.lap("unexplained outlines")
	// A site under a unit centred on it shows only its two short ends.
	// A site whose outline was found but not named may be named so too.
	covered := a.findCoveredSites(gray, v, found, unnamed)
	a.lap("covered sites")
	sites := make([]placed, 0, len(covered)) // the covered sites new to found
	for _, s := range covered {
		at, replaces := len(cards), s.replaces >= 0
		if replaces {
			at = unnamed[s.replaces]
		}
		switch {
		case s.named && replaces && at >= 0:
			named = append(named, namedCard{at, s.det, false})
			cards[at] = a.observe(s.det, v)
			found[s.replaces].quad = s.det.quad
		case s.named:
			named = append(named, namedCard{len(cards), s.det, false})
			cards = append(cards, a.observe(s.det, v))
			sites = append(sites, placed{s.det.quad, models.KindSite})
		case !replaces && !a.showsOnlyMat(s.quad, v, namedQuads(named)):
			cards = append(cards, unknownCard{quad: s.quad, kind: models.KindSite}.observation(v))
			sites = append(sites, placed{s.quad, models.KindSite})
		}
	}
	// Muted cards, named by their look, once the covered sites are
	// (outline_muted.go).
	for _, d := range a.mutedCards(v, append(found[:len(found):len(found)], sites...)) {
		named = append(named, namedCard{len(cards), d, true})
		cards = append(cards, a.observe(d, v))
		found = append(found, placed{d.quad, a.index.refs[d.ref].Kind})
		a.outlines.tookFaint(cards[len(cards)-1])
	}
	// Cards partly under cards found (outline_under.go), once the sites
	// under units are: a unit on a site, the commonest stack, leaves the
	// site's ends showing, and the search for a card under others would
	// otherwise build one of them, the mat and the lines about them.
	// (The name check's found leaves the covered sites out.)
	all := append(found[:len(found):len(found)], sites...)
	for _, s := range a.outlines.findUnderCards(gray, v, all) {
		if d, ok := a.namePartUnder(s, v, all); ok {
			named = append(named, namedCard{len(cards), d, false})
			cards = append(cards, a.observe(d, v))
			found = append(found, placed{d.quad, a.index.refs[d.ref].Kind})
			continue
		}
		if a.showsOnlyMat(s.unknown().quad, v, namedQuads(named)) {
			continue
		}
		u, inPlay := a.turned(gray, v, s.unknown())
		if inPlay {
			cards = append(cards, u.observation(v))
		}
		found = append(found, placed{u.quad, u.kind})
	}
	a.lap("cards under cards")
	a.confirmNames(f, v, cards, named, found)
	a.lap("name check")
	sortObservations(cards)
	a.lap("report")
	return cards, rescale, nil
}

// unnamedSites maps the place in found of each card found by its outline,
// not named, that may be a site, to its place in the cards reported (-1
// when it is not reported). A landscape outline of a standard card's size
// that lies on a card is taken for a tapped unit (landscapeCard), but it
// may be the site under that card as well.
type unnamedSites map[int]int

// add records c, at place i in found, when it may be a site: reported
// (inPlay) as card at.
func (u unnamedSites) add(i int, c unknownCard, inPlay bool, at int) {
	if c.kind != models.KindSite && (c.kind != models.KindStandard || !landscape(c.quad)) {
		return
	}
	if !inPlay {
		at = -1
	}
	u[i] = at
}

// observe turns a matched card into what the analyzer reports.
func (a *Analyzer) observe(d detection, v *view) models.CardObservation {
	ref := &a.index.refs[d.ref]
	rot, quad := faceTurn(ref, d.rotation(), d.quad)
	o := models.CardObservation{
		Name: models.StrPtr(ref.card.Name), Slug: models.StrPtr(ref.card.Slug), Type: models.StrPtr(string(ref.card.Type)),
		Kind: ref.Kind, Token: ref.Kind == models.KindToken, Owner: rot.Owner(), Rotation: rot, Tapped: rot.Tapped(),
		Quad: v.toImageQuad(quad), Confidence: d.confidence(),
	}
	if c, ok := v.cellAt(d.quad.Center()); ok {
		o.Cell = &c
	}
	return o
}

// nameOutlineOrLook names a card outline no fit explains: by the frame's
// keypoints in it when their face also shows in its colours, else by its
// look (appearance.go), the cards found so far left out of it.
func (a *Analyzer) nameOutlineOrLook(gray gocv.Mat, q models.Quad, f features, dets []detection, v *view, found []placed) (detection, bool) {
	if d, ok := a.nameOutline(gray, q, f.Points, dets); ok && a.inItsColours(d, v, found) {
		return d, true
	}
	return a.nameByLookBorne(q, v, quadsOfPlaced(found), &f)
}
