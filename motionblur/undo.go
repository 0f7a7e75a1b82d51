package motionblur

import (
	"image"
	"image/color"
	"math"

	"gocv.io/x/gocv"
)

// Undo removes the smear from the grey image gray, in place, by a Wiener
// filter (see wienerNoise).
func (m Smear) Undo(gray *gocv.Mat) {
	w, h := gray.Cols(), gray.Rows()
	// Padded by reflection to a size the transform is quick at, so that
	// the image's sides do not wrap round onto each other.
	pad := int(math.Ceil(m.Length)) + 2
	W, H := gocv.GetOptimalDFTSize(w+2*pad), gocv.GetOptimalDFTSize(h+2*pad)
	padded := gocv.NewMat()
	defer padded.Close()
	gocv.CopyMakeBorder(*gray, &padded, pad, H-h-pad, pad, W-w-pad, gocv.BorderReflect, color.RGBA{})
	fl := gocv.NewMat()
	defer fl.Close()
	padded.ConvertTo(&fl, gocv.MatTypeCV32F)
	img := gocv.NewMat()
	defer img.Close()
	gocv.DFT(fl, &img, gocv.DftComplexOutput)

	// The smear, a line of the given length through the origin, has the
	// spectrum sinc(length·f), f the frequency along the line's direction:
	// real, as the line is symmetric. With πL·f = A(u) + B(v), the sines
	// and cosines of A and B are worked out once per column and per row.
	sinA, cosA := make([]float64, W), make([]float64, W)
	sinB, cosB := make([]float64, H), make([]float64, H)
	fA, fB := make([]float64, W), make([]float64, H)
	cos, sin := math.Cos(m.Angle), math.Sin(m.Angle)
	wrapped := func(k, n int) float64 { // frequency of DFT index k of n, in cycles per pixel
		if 2*k >= n {
			k -= n
		}
		return float64(k) / float64(n)
	}
	for u := range W {
		fA[u] = wrapped(u, W) * cos
		sinA[u], cosA[u] = math.Sincos(math.Pi * m.Length * fA[u])
	}
	for v := range H {
		fB[v] = wrapped(v, H) * sin
		sinB[v], cosB[v] = math.Sincos(math.Pi * m.Length * fB[v])
	}
	g, _ := img.DataPtrFloat32()
	for v := range H {
		row := g[2*v*W : 2*(v+1)*W]
		for u := range W {
			h := 1.0 // the smear's spectrum
			if f := fA[u] + fB[v]; f != 0 {
				h = (sinA[u]*cosB[v] + cosA[u]*sinB[v]) / (math.Pi * m.Length * f)
			}
			// The Wiener filter, scaled so that the image's mean (the
			// smear's spectrum is 1 there) passes unchanged.
			gain := float32(h * (1 + wienerNoise) / (h*h + wienerNoise))
			row[2*u] *= gain
			row[2*u+1] *= gain
		}
	}
	gocv.DFT(img, &fl, gocv.DftInverse|gocv.DftScale|gocv.DftRealOutput)
	roi := fl.Region(image.Rect(pad, pad, pad+w, pad+h))
	defer roi.Close()
	roi.ConvertTo(gray, gocv.MatTypeCV8U)
}
