package vision

import (
	"math"
	"sort"
)

// A soft frame (a webcam out of focus, a low-resolution camera whose
// frame the top-down image enlarges, a far row of a tilted view) has its
// cards' sides spread over several pixels, and Canny's derivatives across
// them fall below the thresholds that suit a sharp frame: whole cards leave
// no edges. The outline searches' thresholds are therefore scaled by how
// sharp the steps of the top-down image are.
//
// The sharpness of a step is measured without knowing its contrast: the
// rise over two pixels across it (where that rise peaks) against the rise
// over eight. A sharp step rises all at once (a ratio near 1); a step
// blurred by σ pixels has the ratio erf(1/σ√2)/erf(4/σ√2): 0.68 at σ = 1,
// 0.40 at σ = 2, 0.32 at σ = 3. The ninetieth percentile over the image's
// strong steps is its sharpness, so that a few soft shadows or printed
// gradients do not make a sharp frame soft.

const (
	// sharpStep is the sharpness at and above which a frame gets the full
	// thresholds (the bundled stills and sample sets lie above it); softStep
	// is where the thresholds reach their floor, softestEdgeScale.
	sharpStep, softStep = 0.5, 0.36
	softestEdgeScale    = 0.375
	// stepRise is the least rise over eight pixels, in grey levels, of a
	// step counted; stepSampleEvery the rows (and columns) between the
	// lines sampled; stepsNeeded the steps without which a frame counts as
	// sharp (nothing to tell).
	stepRise        = 50
	stepSampleEvery = 12
	stepsNeeded     = 64
)

// stepSharpness gives the sharpness (see above) of a w×h grey image, pix
// row by row, with the number of steps it was measured on. ratios is a
// buffer to reuse (may be nil); it is returned grown.
func stepSharpness(pix []byte, w, h int, ratios []float64) (sharpness float64, steps int, buf []float64) {
	ratios = ratios[:0]
	const reach = 4 // half the long rise
	// One line of pixels: p(i) for i in [0, n).
	measure := func(n int, p func(i int) int) {
		for i := reach + 1; i < n-reach-1; i++ {
			long := p(i+reach) - p(i-reach)
			if long < stepRise && long > -stepRise {
				continue
			}
			short := p(i+1) - p(i-1)
			// Where the rise peaks: not less than the neighbours' rises.
			left, right := p(i)-p(i-2), p(i+2)-p(i)
			if abs(short) < abs(left) || abs(short) < abs(right) || short*long <= 0 {
				continue
			}
			ratios = append(ratios, float64(short)/float64(long))
		}
	}
	for y := stepSampleEvery / 2; y < h; y += stepSampleEvery {
		row := pix[y*w : (y+1)*w]
		measure(w, func(i int) int { return int(row[i]) })
	}
	for x := stepSampleEvery / 2; x < w; x += stepSampleEvery {
		measure(h, func(i int) int { return int(pix[i*w+x]) })
	}
	if len(ratios) < stepsNeeded {
		return 1, len(ratios), ratios
	}
	sort.Float64s(ratios)
	return ratios[len(ratios)*9/10], len(ratios), ratios
}

// edgeScale is the factor the outline searches' Canny thresholds are
// scaled by for an image of the given sharpness: 1 for a sharp one, down to
// softestEdgeScale for a soft one, linearly between.
func edgeScale(sharpness float64) float64 {
	switch {
	case sharpness >= sharpStep:
		return 1
	case sharpness <= softStep:
		return softestEdgeScale
	}
	t := (sharpness - softStep) / (sharpStep - softStep)
	return softestEdgeScale + t*(1-softestEdgeScale)
}

// cannyThresholds are the outline searches' Canny thresholds at the scale s
// (see edgeScale).
func cannyThresholds(s float64) (low, high float64) {
	return math.Round(40 * s), math.Round(120 * s)
}
