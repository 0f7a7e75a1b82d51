package pipeline

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"
)

// encoded draws a 320×200 test picture and encodes it as ext (".jpg" or
// ".png").
func encoded(t *testing.T, ext gocv.FileExt) []byte {
	t.Helper()
	img := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(40, 120, 60, 0), 200, 320, gocv.MatTypeCV8UC3)
	defer img.Close()
	gocv.Rectangle(&img, image.Rect(60, 40, 200, 160), color.RGBA{230, 220, 200, 0}, -1)
	gocv.Circle(&img, image.Pt(240, 100), 40, color.RGBA{20, 30, 200, 0}, -1)
	buf, err := gocv.IMEncode(ext, img)
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Close()
	return append([]byte(nil), buf.GetBytes()...)
}

// ReadImage reads whole images, and refuses one cut short (see imagefile)
// or not an image at all as a corrupt frame, naming the file.
func TestReadImage(t *testing.T) {
	jpg, png := encoded(t, gocv.JPEGFileExt), encoded(t, gocv.PNGFileExt)
	for _, c := range []struct {
		name      string
		data      []byte
		truncated bool // ErrTruncatedImage
		corrupt   bool // ErrCorruptFrame
	}{
		{"whole JPEG", jpg, false, false},
		{"JPEG cut in its scan", jpg[:len(jpg)*6/10], true, true},
		{"whole PNG", png, false, false},
		{"PNG cut short", png[:len(png)/2], true, true},
		{"not an image", []byte("hello, not a picture"), false, true},
		{"empty file", nil, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "frame.img")
			if err := os.WriteFile(path, c.data, 0o644); err != nil {
				t.Fatal(err)
			}
			img, err := ReadImage(path)
			if err == nil {
				defer img.Close()
			}
			if got := errors.Is(err, ErrTruncatedImage); got != c.truncated {
				t.Errorf("ErrTruncatedImage %v, want %v (err %v)", got, c.truncated, err)
			}
			if got := errors.Is(err, ErrCorruptFrame); got != c.corrupt {
				t.Errorf("ErrCorruptFrame %v, want %v (err %v)", got, c.corrupt, err)
			}
			switch {
			case err != nil && !bytes.HasPrefix([]byte(err.Error()), []byte(path+": ")):
				t.Errorf("error %q does not start with the file's name", err)
			case err == nil && (img.Cols() != 320 || img.Rows() != 200 || img.Channels() != 3):
				t.Errorf("read %d×%d×%d, want 320×200×3", img.Cols(), img.Rows(), img.Channels())
			}
		})
	}
	if _, err := ReadImage(filepath.Join(t.TempDir(), "missing.jpg")); !errors.Is(err, fs.ErrNotExist) || errors.Is(err, ErrCorruptFrame) {
		t.Errorf("a missing file: %v, want fs.ErrNotExist and not a corrupt frame", err)
	}
}

// A folder of numbered frames, one of them cut short (a frame still being
// written when read): that frame is skipped as corrupt, naming its file,
// and the others are read.
func TestFramesOneCutShort(t *testing.T) {
	dir := t.TempDir()
	jpg := encoded(t, gocv.JPEGFileExt)
	for i, data := range [][]byte{jpg, jpg[:len(jpg)/2], jpg} {
		if err := os.WriteFile(filepath.Join(dir, []string{"0001.jpg", "0002.jpg", "0003.jpg"}[i]), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	src, err := OpenFrames(dir, 10)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	m := gocv.NewMat()
	defer m.Close()
	var read []string
	for {
		fr, err := src.Read(&m)
		if errors.Is(err, ErrCorruptFrame) {
			if !errors.Is(err, ErrTruncatedImage) || !bytes.Contains([]byte(err.Error()), []byte("0002.jpg")) {
				t.Errorf("frame %s skipped with %v, want it named and cut short", fr.Name, err)
			}
			continue
		}
		if err != nil {
			break
		}
		read = append(read, filepath.Base(fr.Name))
	}
	if len(read) != 2 || read[0] != "0001.jpg" || read[1] != "0003.jpg" {
		t.Errorf("read %v, want 0001.jpg and 0003.jpg", read)
	}
}
