package calibration

import (
	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/motionblur"
)

// A camera moving during the exposure smears the grid's lines across the
// motion into bands as wide as the motion (see sharpen.go). When neither
// the frame as it is nor the sharpened frame gives a realm, the smear is
// looked for on the frame at the working width (see motionblur), and when
// one is found the grid is searched once more with the smear undone in
// each colour: the bands close back into lines. Every lattice found there
// passes the same tests as on the frame as it is, and the retry costs
// only frames that find no realm.

// detectUnsmeared is detectGrid on the frame at the working width with its
// motion smear undone, the lattice given in frame pixels, for a frame on
// which detectGrid gave h, score and err (no realm); when no smear is found,
// or no realm with it undone, it returns those unchanged.
func detectUnsmeared(frame gocv.Mat, g models.RealmGeometry, h homography, score float64, err error) (homography, float64, error) {
	work, scale := atWorkWidth(frame)
	defer work.Close()
	gray := gocv.NewMat()
	defer gray.Close()
	switch work.Channels() {
	case 1:
		work.CopyTo(&gray)
	case 4:
		gocv.CvtColor(work, &gray, gocv.ColorBGRAToGray)
	default:
		gocv.CvtColor(work, &gray, gocv.ColorBGRToGray)
	}
	m, ok := motionblur.Find(gray, nil)
	if !ok {
		return h, score, err
	}
	// The cepstrum's peak can read a smear a few percent short (dg 0036:
	// 11.7 px of 12), and the lines close only when it is undone nearly
	// whole: the undo is tried at the length read and a little longer.
	// A lattice is taken only when two of the lengths find it: undone
	// too far, the lines' echoes can pass for a lattice of their own.
	// The first two lengths are searched at once (each search takes
	// seconds); the third only when one of them found a lattice, as
	// otherwise no two can agree.
	search := func(k float64) gridTry {
		h, s, err := detectUnsmearedBy(work, m, k, g)
		return gridTry{h, s, err == nil}
	}
	var first [2]gridTry
	concurrently(func() { first[0] = search(1) }, func() { first[1] = search(1.05) })
	var found []gridTry
	for _, t := range first {
		if !t.ok {
			continue
		}
		if len(found) > 0 && sameRealm(found[0].h, t.h, g) {
			return toFrame(found[0].h, scale), found[0].score, nil
		}
		found = append(found, t)
	}
	if len(found) == 0 {
		return h, score, err
	}
	if t := search(1.1); t.ok {
		for _, f := range found {
			if sameRealm(f.h, t.h, g) {
				return toFrame(f.h, scale), f.score, nil
			}
		}
	}
	return h, score, err
}

// detectUnsmearedBy is detectGrid on work (a frame at the working width)
// with the smear m, made k times as long, undone in each colour.
func detectUnsmearedBy(work gocv.Mat, m motionblur.Smear, k float64, g models.RealmGeometry) (homography, float64, error) {
	try := work.Clone()
	defer try.Close()
	channels := gocv.Split(try)
	m.Length *= k
	for i := range channels {
		m.Undo(&channels[i])
	}
	gocv.Merge(channels, &try)
	for _, c := range channels {
		c.Close()
	}
	return detectGrid(try, g, segmentShare)
}
