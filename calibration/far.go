package calibration

import (
	"image"
	"math"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
)

// A camera far from the table (a streamer's wide shot) shows the realm
// small: its long side spans a quarter of the frame's width or less, and
// its lines, at half a pixel per millimetre, a pixel or so wide. Every
// length of the grid search is set for a realm that fills more of the
// frame (a lattice narrower than a quarter of the working width is never
// plausible, Hough segments shorter than 3.5% of it are never read), so
// such a realm is not found: on the independent scenes, eight frames at
// 0.5–0.96 px/mm, none found. Cut out round the mat and enlarged to the
// working width, the same frame is a realm of the size the search expects
// (four of the eight found, within 0.51% of the realm's width, on a window
// round the true realm with a quarter of its size added each side). Seen
// from afar, the table shows all round the mat, so the frame's border
// shows the table's colours, and the window is cut round every patch of
// colours the border does not show: the mat, or, when the mat is of about
// the table's colours (a dark blue-grey mat on a dark table, c1/0042 of
// the independent scenes), the cards lying on it, with a margin for the
// realm's cells they leave bare.
//
// How much the window enlarges the realm cuts both ways. Enlarged more,
// the realm's lengths are further above the search's least ones, and
// less of the table shows, whose own lines compete with the grid's (the
// checks of c4/0018 of the independent scenes); but a grid of thin faint
// lines is smeared wider than the line profiles' offsets read (see
// ridgeOffsets): the true lattice of c2/0033, faint lines on a mottled
// mat, scored 0.54 in ridge units enlarged 1.5 times, 0.11 enlarged 2.1
// times. So two windows are searched, each only when the one before found
// no realm: the window of the frame's shape round the patch, then the
// window of the patch's own shape. The second matters for any mat not
// as wide as the frame's shape round it: a mat turned a twelfth of a
// turn or more stands about as tall as it is wide (turned 33°, c4/0031,
// its patch 392 px wide and 424 tall), and the first window round it is
// up to 1.8 times as wide as the patch's own (a 16:9 frame), enlarged
// that much less, or refused as nearly the frame's width (see
// farMaxWindow; c4/0031 got none, and c4/0018's, 1.4 times as wide as its
// patch's, left the realm too small among the table's checks).

// Far-view search limits.
const (
	farSampleWidth  = 160   // px: width of the frame shrunk to find the patches (their noise averaged away)
	farBorder       = 0.06  // share of each side's length read as the table round the frame
	farLevels       = 32    // levels per colour channel of the table's colour histogram
	farTableShare   = 0.002 // least share of the border's pixels a colour bin holds to be the table's
	farMinPatch     = 0.002 // least share of the frame a patch of other colours covers (specks of noise do not)
	farMargin       = 0.25  // share of the patch's size the window adds on each side
	farMaxWindow    = 0.8   // largest window width, as a share of the frame's: enlarged by 1.25 at least
	farCornerMargin = 0.01  // share of the window's width a realm corner keeps inside its cut sides
)

// farWindows are the windows of the frame round the mat seen from afar
// (see above), in the order they are searched: the one of the frame's
// shape, then the one of the patch's own shape but never taller than wide
// (the search enlarges a window to the working width, and a window taller
// than wide would become a working image of more pixels than a frame's,
// slower, where a realm turned any way fits a square round it). None when
// the frame's border shows no table round a patch of other colours; a
// window is left out when it would enlarge the frame by less than
// 1/farMaxWindow, and the second when it is the first.
func farWindows(frame gocv.Mat) []image.Rectangle {
	fw, fh := frame.Cols(), frame.Rows()
	mask, ok := offTableMask(frame)
	if !ok {
		return nil
	}
	defer mask.Close()
	sw, sh := mask.Cols(), mask.Rows()
	labels, stats, centroids := gocv.NewMat(), gocv.NewMat(), gocv.NewMat()
	defer labels.Close()
	defer stats.Close()
	defer centroids.Close()
	nl := gocv.ConnectedComponentsWithStats(mask, &labels, &stats, &centroids)
	// The mat may be of about the table's colours (a dark mat on a dark
	// table) while its cards are not: the window holds every patch.
	var patch image.Rectangle
	for i := 1; i < nl; i++ {
		if float64(stats.GetIntAt(i, int(gocv.CC_STAT_AREA))) < farMinPatch*float64(sw*sh) {
			continue
		}
		x, y := int(stats.GetIntAt(i, int(gocv.CC_STAT_LEFT))), int(stats.GetIntAt(i, int(gocv.CC_STAT_TOP)))
		r := image.Rect(x, y, x+int(stats.GetIntAt(i, int(gocv.CC_STAT_WIDTH))), y+int(stats.GetIntAt(i, int(gocv.CC_STAT_HEIGHT))))
		patch = patch.Union(r)
	}
	if patch.Empty() {
		return nil
	}
	s := float64(fw) / float64(sw)
	x0, y0 := float64(patch.Min.X)*s, float64(patch.Min.Y)*s
	bw, bh := float64(patch.Dx())*s, float64(patch.Dy())*s
	cx, cy := x0+bw/2, y0+bh/2
	bw, bh = bw*(1+2*farMargin), bh*(1+2*farMargin)
	frameShaped := math.Max(bw, bh*float64(fw)/float64(fh))
	sizes := [][2]float64{ // width, height
		{frameShaped, frameShaped * float64(fh) / float64(fw)},
		{math.Max(bw, bh), bh},
	}
	var wins []image.Rectangle
	for _, size := range sizes {
		if r, ok := windowAround(cx, cy, size[0], size[1], fw, fh); ok && (len(wins) == 0 || r != wins[0]) {
			wins = append(wins, r)
		}
	}
	return wins
}

// windowAround is the window ww by wh centred on cx, cy, moved inside a
// frame fw by fh; ok is false when it is wider than farMaxWindow of the
// frame's width, or empty.
func windowAround(cx, cy, ww, wh float64, fw, fh int) (image.Rectangle, bool) {
	if ww > farMaxWindow*float64(fw) {
		return image.Rectangle{}, false
	}
	left := math.Min(math.Max(0, cx-ww/2), float64(fw)-ww)
	top := math.Min(math.Max(0, cy-wh/2), float64(fh)-wh)
	r := image.Rect(int(left), int(top), int(left+ww), int(top+wh)).Intersect(image.Rect(0, 0, fw, fh))
	return r, !r.Empty()
}

// detectFar is the far camera's retry (see above): the realm search of
// the frame (search, reading straight segments of the share of the
// working width it is given and longer, see segmentShare) run on each
// window round the mat (see farWindows), enlarged as every frame narrower
// than the working width is, until one finds a realm; the lattice in frame
// pixels, and ok false when the realm found is refused (see
// takenFromWindow) or none is.
//
// When no realm is taken so, the windows are searched once more reading
// segments down to farSegmentShare, and the first realm found is taken
// unless a corner lies at a cut side. A realm a quarter to a half of the
// frame's width is enlarged only 1.3 to 2 times in its window, and its
// thin lines, blurred, mottled by the mat's art and broken by cards, can
// still show only in pieces shorter than the usual least length. On the
// independent scenes, four such realms (0.25 to 0.45 of the frame's
// width; c2/0006 found in colour, c2/0017 past stripes, c1/0023 and
// c4/0024 on line profiles) are found so, within 0.61% of their width,
// and none of the frames left without a realm gets a wrong one. The
// refusal of a realm of the size the frame's search believes does not
// hold on this try: that search never read segments this short, so its
// not believing the realm says nothing of them. The shorter segments are
// the last try, not the windows' first: on the usual ones, c1/0023's
// window gives a realm 17% off, refused for its size, and a frame whose
// realm is taken on the first try keeps it, at the same cost (c2/0033,
// whose window enlarged 1.5 times the first try finds, is lost when its
// windows read the shorter segments first).
func detectFar(frame gocv.Mat, g models.RealmGeometry, search func(gocv.Mat, float64) (homography, float64, error)) (homography, float64, bool) {
	wins := farWindows(frame)
	for _, share := range []float64{segmentShare, farSegmentShare} {
		for _, win := range wins {
			view := frame.Region(win)
			crop := view.Clone()
			view.Close()
			h, score, err := search(crop, share)
			crop.Close()
			if err != nil {
				continue
			}
			if h, score, ok := takenFromWindow(frame, win, g, h, score, share == segmentShare); ok {
				return h, score, true
			}
			break
		}
	}
	return homography{}, 0, false
}

// takenFromWindow is lattice h, found in window win of the frame, in
// frame pixels, with its score; ok is false when it is refused. A realm
// with a corner at a side of the window that cuts the frame is refused:
// the window may have cut off part of the grid. So is one of a size the
// frame's own search judged (see plausible), when sized is true: the
// window found it only because it was enlarged less than a realm seen
// from afar, and the frame's search, reading the same lines, did not
// believe it (on the independent scenes, one such realm found in a
// window enlarged 1.28 times lay 17% off).
func takenFromWindow(frame gocv.Mat, win image.Rectangle, g models.RealmGeometry, h homography, score float64, sized bool) (homography, float64, bool) {
	h = h.Then(homography{1, 0, float64(win.Min.X), 0, 1, float64(win.Min.Y), 0, 0, 1})
	m := farCornerMargin * float64(win.Dx())
	fw, fh := frame.Cols(), frame.Rows()
	q := quadOfLattice(h, g)
	if sized && realmAcross(q) >= minRealmAcross*float64(fw) && q.Area() >= minRealmArea*float64(fw*fh) {
		return homography{}, 0, false
	}
	for _, p := range q {
		if win.Min.X > 0 && p.X < float64(win.Min.X)+m || win.Max.X < fw && p.X > float64(win.Max.X)-m ||
			win.Min.Y > 0 && p.Y < float64(win.Min.Y)+m || win.Max.Y < fh && p.Y > float64(win.Max.Y)-m {
			return homography{}, 0, false
		}
	}
	return h, score, true
}

// offTableMask marks the pixels of the frame, shrunk to farSampleWidth,
// whose colours the frame's border (the table round the mat) does not
// show, specks opened away and gaps closed; ok is false when the frame is
// not a colour frame of a few pixels at least. The caller closes the mask.
func offTableMask(frame gocv.Mat) (gocv.Mat, bool) {
	fw, fh := frame.Cols(), frame.Rows()
	if frame.Channels() != 3 || fw < 8 || fh < 8 {
		return gocv.Mat{}, false
	}
	sw := farSampleWidth
	sh := int(math.Round(float64(fh) * float64(sw) / float64(fw)))
	small := gocv.NewMat()
	defer small.Close()
	gocv.Resize(frame, &small, image.Pt(sw, sh), 0, 0, gocv.InterpolationArea)
	px, err := small.DataPtrUint8()
	if err != nil || len(px) < sw*sh*3 {
		return gocv.Mat{}, false
	}
	const levels = farLevels
	bin := func(i int) (int, int, int) {
		return int(px[i]) * levels / 256, int(px[i+1]) * levels / 256, int(px[i+2]) * levels / 256
	}
	// The table's colours: those of the frame's border.
	hist := make([]int, levels*levels*levels)
	bx, by := int(math.Ceil(farBorder*float64(sw))), int(math.Ceil(farBorder*float64(sh)))
	n := 0
	for y := 0; y < sh; y++ {
		for x := 0; x < sw; x++ {
			if x >= bx && x < sw-bx && y >= by && y < sh-by {
				continue
			}
			b, g, r := bin((y*sw + x) * 3)
			hist[(b*levels+g)*levels+r]++
			n++
		}
	}
	table := func(b, g, r int) bool {
		// A level either way: a colour on a bin's boundary falls on
		// either side of it from pixel to pixel.
		for db := -1; db <= 1; db++ {
			for dg := -1; dg <= 1; dg++ {
				for dr := -1; dr <= 1; dr++ {
					bb, gg, rr := b+db, g+dg, r+dr
					if bb < 0 || gg < 0 || rr < 0 || bb >= levels || gg >= levels || rr >= levels {
						continue
					}
					if float64(hist[(bb*levels+gg)*levels+rr]) >= farTableShare*float64(n) {
						return true
					}
				}
			}
		}
		return false
	}
	mask := gocv.NewMatWithSize(sh, sw, gocv.MatTypeCV8U)
	for y := 0; y < sh; y++ {
		for x := 0; x < sw; x++ {
			if b, g, r := bin((y*sw + x) * 3); !table(b, g, r) {
				mask.SetUCharAt(y, x, 255)
			}
		}
	}
	k := gocv.GetStructuringElement(gocv.MorphRect, image.Pt(3, 3))
	gocv.MorphologyEx(mask, &mask, gocv.MorphOpen, k)
	k.Close()
	k = gocv.GetStructuringElement(gocv.MorphRect, image.Pt(5, 5))
	gocv.MorphologyEx(mask, &mask, gocv.MorphClose, k)
	k.Close()
	return mask, true
}
