package imagefile_test

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"testing"

	"github.com/tablecam/tablecam/imagefile"
)

// picture is a 320×200 test picture with some detail to compress.
func picture() image.Image {
	img := image.NewRGBA(image.Rect(0, 0, 320, 200))
	for y := 0; y < 200; y++ {
		for x := 0; x < 320; x++ {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), uint8(x * y / 7), 255})
		}
	}
	return img
}

func jpegBytes(t *testing.T, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 85}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// withThumbnail puts a whole small JPEG (an EXIF thumbnail, as cameras
// write one) in an APP1 segment right after the start marker of jpg.
func withThumbnail(t *testing.T, jpg []byte) []byte {
	t.Helper()
	thumb := jpegBytes(t, image.NewGray(image.Rect(0, 0, 32, 24)))
	n := len(thumb) + 2 + 6
	out := append([]byte{}, jpg[:2]...)
	out = append(out, 0xFF, 0xE1, byte(n>>8), byte(n))
	out = append(out, "Exif\x00\x00"...)
	out = append(out, thumb...)
	return append(out, jpg[2:]...)
}

func TestCheck(t *testing.T) {
	jpg := jpegBytes(t, picture())
	var pb bytes.Buffer
	if err := png.Encode(&pb, picture()); err != nil {
		t.Fatal(err)
	}
	pngData := pb.Bytes()
	thumbed := withThumbnail(t, jpg)
	if _, err := jpeg.Decode(bytes.NewReader(thumbed)); err != nil {
		t.Fatalf("the JPEG with a thumbnail does not decode: %v", err)
	}
	for _, c := range []struct {
		name string
		data []byte
		cut  bool
	}{
		{"whole JPEG", jpg, false},
		{"JPEG with bytes after its end", append(append([]byte{}, jpg...), make([]byte, 300)...), false},
		{"JPEG with a thumbnail", thumbed, false},
		{"JPEG cut in its scan", jpg[:len(jpg)*6/10], true},
		{"JPEG cut before its end marker", jpg[:len(jpg)-2], true},
		{"JPEG with a thumbnail, cut in its scan", thumbed[:len(thumbed)*7/10], true},
		{"JPEG cut in its header", jpg[:40], true},
		{"whole PNG", pngData, false},
		{"PNG cut short", pngData[:len(pngData)/2], true},
		{"PNG cut in its end chunk", pngData[:len(pngData)-6], true},
		{"not an image", []byte("hello"), false},
		{"empty", nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := imagefile.Check(c.data)
			if got := errors.Is(err, imagefile.ErrTruncated); got != c.cut {
				t.Errorf("Check: %v; cut short %v, want %v", err, got, c.cut)
			}
		})
	}
}

func ExampleCheck() {
	var b bytes.Buffer
	_ = png.Encode(&b, image.NewGray(image.Rect(0, 0, 64, 48)))
	data := b.Bytes()
	fmt.Println(imagefile.Check(data))
	err := imagefile.Check(data[:len(data)/2])
	fmt.Println(errors.Is(err, imagefile.ErrTruncated))
	// Output:
	// <nil>
	// true
}
