package motionblur

// The sharpness of a step is measured without knowing its contrast: the
// rise over two pixels across it (where that rise peaks) against the rise
// over eight. A sharp step rises all at once (a ratio near 1); a step
// blurred by σ pixels has the ratio erf(1/σ√2)/erf(4/σ√2): 0.68 at σ = 1,
// 0.40 at σ = 2, 0.32 at σ = 3. The ninetieth percentile over an image's
// strong steps is its sharpness, so that a few soft shadows or printed
// gradients do not make a sharp image soft. A straight smear softens the
// steps met along it only (SharpnessAlong); vision measures its top-down
// image's rows and columns apart to scale its edge thresholds.
const (
	// stepRise is the least rise over eight pixels, in grey levels, of a
	// step counted.
	stepRise = 50
	// StepSampleEvery is the pixels between the lines sampled, StepsNeeded
	// the steps without which an image counts as sharp (nothing to tell).
	StepSampleEvery = 16
	StepsNeeded     = 64
	// StepReachPx is how far inside the part of an image that matters a
	// step's pixels must all lie: the long rise's reach, and two pixels
	// a warp's bilinear sampling blends with the black beyond.
	StepReachPx = 4 + 1 + 2
	// SharpnessBins is the number of bins of the ratios' histogram, over
	// [0, 2).
	SharpnessBins = 100
)

// LineSteps measures the steps of the n pixels pix[base], pix[base+step],
// … into hist (see above), and gives their number.
func LineSteps(pix []byte, base, step, n int, hist []int) (steps int) {
	const reach = 4 // half the long rise
	at := func(i int) int { return int(pix[base+i*step]) }
	// The rise over eight pixels changes little from one pixel to the
	// next: it is looked at every third pixel, and where it is steep,
	// at that pixel and its two neighbours.
	for c := reach + 1; c < n-reach-1; c += 3 {
		if long := at(c+reach) - at(c-reach); long < stepRise && long > -stepRise {
			continue
		}
		for x := c - 1; x <= c+1; x++ {
			long := at(x+reach) - at(x-reach)
			if long < stepRise && long > -stepRise {
				continue
			}
			short := at(x+1) - at(x-1)
			// Where the rise peaks: not less than the neighbours' rises.
			left, right := at(x)-at(x-2), at(x+2)-at(x)
			if short*long <= 0 || abs(short) < abs(left) || abs(short) < abs(right) {
				continue
			}
			hist[min(SharpnessBins-1, SharpnessBins*short/(2*long))]++
			steps++
		}
	}
	return steps
}

// Ninetieth gives the ninetieth percentile of a histogram of ratios (see
// above) holding n, at its bin's middle.
func Ninetieth(hist []int, n int) float64 {
	above := n / 10
	for b := SharpnessBins - 1; b >= 0; b-- {
		if above -= hist[b]; above < 0 {
			return 2 * (float64(b) + 0.5) / SharpnessBins
		}
	}
	return 0
}

// abs is the absolute value of x.
func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
