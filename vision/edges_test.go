package vision

import (
	"fmt"
	"image"
	"testing"

	"gocv.io/x/gocv"
)

// TestCannyIsOpenCVs checks that canny marks exactly the edges OpenCV's
// Canny marks, on blurred and sharp stills, on noise (where most pixels
// pass the low threshold), on images narrower than the eight pixels done at
// once, and with the thresholds given the wrong way round.
func TestCannyIsOpenCVs(t *testing.T) {
	type input struct {
		name      string
		img       gocv.Mat
		low, high float64
	}
	var inputs []input
	for _, name := range []string{"0003", "0042"} {
		frame, cal, _ := stillFrame(t, name)
		defer frame.Close()
		v, err := newView(cal.Corners, cal.Geometry, frame.Cols(), frame.Rows(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		top := v.warp(frame)
		defer top.Close()
		gray := grayOf(top)
		defer gray.Close()
		blur := gocv.NewMat()
		defer blur.Close()
		gocv.GaussianBlur(gray, &blur, image.Pt(5, 5), 0, 0, gocv.BorderReplicate)
		inputs = append(inputs, input{name + " blurred", blur, 40, 120}, input{name + " sharp", gray, 40, 120}, input{name + " swapped", blur, 120.7, 40.2})
	}
	noise := gocv.NewMatWithSize(203, 301, gocv.MatTypeCV8UC1)
	defer noise.Close()
	gocv.RandU(&noise, gocv.NewScalar(0, 0, 0, 0), gocv.NewScalar(256, 0, 0, 0))
	inputs = append(inputs, input{"noise", noise, 40, 120}, input{"noise low", noise, 300, 600})
	for _, size := range []image.Point{{1, 1}, {5, 3}, {7, 9}, {13, 2}} {
		small := gocv.NewMatWithSize(size.Y, size.X, gocv.MatTypeCV8UC1)
		defer small.Close()
		gocv.RandU(&small, gocv.NewScalar(0, 0, 0, 0), gocv.NewScalar(256, 0, 0, 0))
		inputs = append(inputs, input{fmt.Sprintf("noise %dx%d", size.X, size.Y), small, 40, 120})
	}
	d := newEdgeDetector()
	defer d.close()
	for _, in := range inputs {
		want := gocv.NewMat()
		gocv.Canny(in.img, &want, float32(in.low), float32(in.high))
		for _, simd := range []bool{true, false} {
			got := gocv.NewMat()
			if err := d.cannySIMD(in.img, &got, in.low, in.high, simd); err != nil {
				t.Fatal(err)
			}
			diff := gocv.NewMat()
			gocv.BitwiseXor(got, want, &diff)
			if n := gocv.CountNonZero(diff); n != 0 {
				t.Errorf("%s (AVX2 %v): %d of %d pixels differ from OpenCV's Canny (%d edge pixels)", in.name, simd, n, in.img.Rows()*in.img.Cols(), gocv.CountNonZero(want))
			}
			diff.Close()
			got.Close()
		}
		if in.name == "0003 blurred" && gocv.CountNonZero(want) < 1000 {
			t.Errorf("%s: only %d edge pixels; the comparison wants a frame with edges", in.name, gocv.CountNonZero(want))
		}
		want.Close()
	}
}
