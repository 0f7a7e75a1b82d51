package vision

import (
	"image"
	"math"
	"math/bits"
	"sort"

	"gocv.io/x/gocv"
)

// phash is a 64-bit perceptual hash of a face: the signs, against their
// median, of the 8×8 lowest frequencies of the DCT of a 32×32 grey thumbnail.
// Faces that look alike have hashes a few bits apart.
type phash uint64

// distance is the number of differing bits.
func (h phash) distance(o phash) int { return bits.OnesCount64(uint64(h ^ o)) }

const phashSide = 32

// dctBasis[u][x] = cos((2x+1)uπ/64), the 1-D DCT-II basis on 32 samples.
var dctBasis = func() (b [8][phashSide]float64) {
	for u := 0; u < 8; u++ {
		for x := 0; x < phashSide; x++ {
			b[u][x] = math.Cos(float64(2*x+1) * float64(u) * math.Pi / (2 * phashSide))
		}
	}
	return b
}()

// phashOf hashes a grey face image of any size.
func phashOf(gray gocv.Mat) phash {
	small := gocv.NewMat()
	defer small.Close()
	gocv.Resize(gray, &small, image.Pt(phashSide, phashSide), 0, 0, gocv.InterpolationArea)
	px := small.ToBytes()
	// Rows first: tmp[y][u] = Σx px[y][x]·basis[u][x].
	var tmp [phashSide][8]float64
	for y := 0; y < phashSide; y++ {
		for u := 0; u < 8; u++ {
			var s float64
			for x := 0; x < phashSide; x++ {
				s += float64(px[y*phashSide+x]) * dctBasis[u][x]
			}
			tmp[y][u] = s
		}
	}
	var coef [64]float64
	for v := 0; v < 8; v++ {
		for u := 0; u < 8; u++ {
			var s float64
			for y := 0; y < phashSide; y++ {
				s += tmp[y][u] * dctBasis[v][y]
			}
			coef[v*8+u] = s
		}
	}
	sorted := append([]float64(nil), coef[1:]...) // the DC term only says how bright
	sort.Float64s(sorted)
	median := (sorted[31] + sorted[32]) / 2
	var h phash
	for i := 1; i < 64; i++ {
		if coef[i] > median {
			h |= 1 << i
		}
	}
	return h
}
