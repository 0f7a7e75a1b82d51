package vision

import "math"

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
	// step counted; stepSampleEvery the rows between the rows sampled; stepsNeeded the steps without which a frame counts as
	// sharp (nothing to tell).
	stepRise        = 50
	stepSampleEvery = 16
	stepsNeeded     = 64
)

// stepSharpness gives the sharpness (see above) of a w×h grey image, pix
// row by row, with the number of steps it was measured on. hist is a
// buffer to reuse (may be nil); it is returned.
func stepSharpness(pix []byte, w, h int, hist []int) (sharpness float64, steps int, buf []int) {
	if cap(hist) < sharpnessBins {
		hist = make([]int, sharpnessBins)
	}
	hist = hist[:sharpnessBins]
	clear(hist)
	const reach = 4 // half the long rise
	// Along sampled rows only: a lens's or a low resolution's blur spreads
	// a step the same way in every direction.
	for y := stepSampleEvery / 2; y < h; y += stepSampleEvery {
		row := pix[y*w : (y+1)*w]
		// The rise over eight pixels changes little from one pixel to the
		// next: it is looked at every third pixel, and where it is steep,
		// at that pixel and its two neighbours.
		for c := reach + 1; c < w-reach-1; c += 3 {
			if long := int(row[c+reach]) - int(row[c-reach]); long < stepRise && long > -stepRise {
				continue
			}
			for x := c - 1; x <= c+1; x++ {
				long := int(row[x+reach]) - int(row[x-reach])
				if long < stepRise && long > -stepRise {
					continue
				}
				short := int(row[x+1]) - int(row[x-1])
				// Where the rise peaks: not less than the neighbours' rises.
				left, right := int(row[x])-int(row[x-2]), int(row[x+2])-int(row[x])
				if short*long <= 0 || abs(short) < abs(left) || abs(short) < abs(right) {
					continue
				}
				hist[min(sharpnessBins-1, sharpnessBins*short/(2*long))]++
				steps++
			}
		}
	}
	if steps < stepsNeeded {
		return 1, steps, hist
	}
	// The ninetieth percentile, at its bin's middle.
	above := steps / 10
	for b := sharpnessBins - 1; b >= 0; b-- {
		if above -= hist[b]; above < 0 {
			return 2 * (float64(b) + 0.5) / sharpnessBins, steps, hist
		}
	}
	return 0, steps, hist
}

// sharpnessBins is the number of bins of the ratios' histogram, over [0, 2).
const sharpnessBins = 100

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
