package calibration

import (
	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
)

// A grid drawn in a colour about as light as the cloth under it shows in
// the grey frame a few grey levels deep at most: blue lines over a green
// meadow, or, on art painted in bands (a pale sky, green hills, sand),
// lines darker than one band and lighter than the next, whose ridge
// response changes sign from band to band. The lines differ from the
// cloth in hue all the same, and in the frame's opponent colour channels
// (blue against yellow, red against green) they show as lines of one
// polarity and about one depth over every band; the art's shading and a
// table's grain, mostly changes of lightness, fade there. So, as the last
// retry of Detect, on a frame where no search found a lattice at all (not
// where one was found and refused: two grids about equally clear stay
// refused, and in one channel one of them can look the clearer), the grid
// is searched on each of the two channels in place of the grey frame;
// every lattice found there passes the same tests as on the grey frame,
// the cloth's colours read off the frame itself, and the two channels
// must not find two different realms. The retry costs only frames that
// find no realm by any other way.

// opponentAxis is one opponent colour channel: the weights of the blue,
// green and red channels (BGR order) whose sum it is, about
// opponentOffset.
type opponentAxis [3]float64

// opponentAxes are the channels the colour retry searches, in order of
// preference: blue against yellow, and red against green.
func opponentAxes() []opponentAxis {
	return []opponentAxis{
		{1, -0.5, -0.5},
		{0, -1, 1},
	}
}

// opponentOffset is the grey level of a colourless pixel in an opponent
// channel. The channel keeps the frame's scale (one level per level of
// the frame's channels), so that Canny's thresholds and the line
// response's noise mean what they mean on the grey frame: a blue line
// over green hills, pale sky and sand measured 45–50 levels from the
// cloth in the blue–yellow channel, and 5 (of either sign) to 30 in grey.
const opponentOffset = 128

// opponentChannel is the frame's opponent colour channel a (8-bit, one
// channel, the frame's size), saturated at 0 and 255.
func opponentChannel(frame gocv.Mat, a opponentAxis) gocv.Mat {
	f := gocv.NewMat()
	defer f.Close()
	frame.ConvertTo(&f, gocv.MatTypeCV32FC3)
	ch := gocv.Split(f)
	defer func() {
		for _, c := range ch {
			c.Close()
		}
	}()
	sum := gocv.NewMat()
	defer sum.Close()
	gocv.AddWeighted(ch[0], a[0], ch[1], a[1], 0, &sum)
	gocv.AddWeighted(sum, 1, ch[2], a[2], 0, &sum)
	out := gocv.NewMat()
	sum.ConvertToWithParams(&out, gocv.MatTypeCV8U, 1, opponentOffset)
	return out
}

// detectInColour is the colour retry (see above): the realm found on the
// frame's opponent channels, in frame pixels. The two channels are
// searched at once; ok is false when neither finds a realm, or when they
// find two different ones (a wrong realm is worse than none). share is
// the least length of the segments read (see segmentShare).
func detectInColour(frame gocv.Mat, g models.RealmGeometry, share float64) (homography, float64, bool) {
	if frame.Channels() < 3 {
		return homography{}, 0, false
	}
	axes := opponentAxes()
	tries := make([]gridTry, len(axes))
	searches := make([]func(), len(axes))
	for i, a := range axes {
		searches[i] = func() {
			tries[i].h, tries[i].score, tries[i].ok = detectOnOpponent(frame, a, g, share)
		}
	}
	concurrently(searches...)
	found, ok := agreedTry(tries, g)
	return found.h, found.score, ok
}

// detectOnOpponent is detectStraight on the frame's opponent channel a
// in place of its grey, held to what the last retries are held to (see
// heldRetry).
func detectOnOpponent(frame gocv.Mat, a opponentAxis, g models.RealmGeometry, share float64) (homography, float64, bool) {
	return heldRetry(frame, g, func(f gocv.Mat) (homography, float64, float64, error) {
		return straightOnOpponent(f, a, g, share)
	})
}

// straightOnOpponent is detectStraight reading the lines off the frame's
// opponent channel a.
func straightOnOpponent(frame gocv.Mat, a opponentAxis, g models.RealmGeometry, share float64) (homography, float64, float64, error) {
	ch := opponentChannel(frame, a)
	defer ch.Close()
	gray, scale := workingGray(ch)
	defer gray.Close()
	return detectStraightOn(frame, gray, scale, g, nil, false, share)
}
