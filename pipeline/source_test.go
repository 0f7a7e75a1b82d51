package pipeline

import (
	"errors"
	"image"
	"image/color"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

// writeVideo writes n frames of 160 × 120 as an MJPG .avi and gives its path.
func writeVideo(t *testing.T, n int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "game.avi")
	w, err := gocv.VideoWriterFile(path, "MJPG", 30, 160, 120, true)
	if err != nil {
		t.Skip("no MJPG writer:", err)
	}
	for i := 0; i < n; i++ {
		m := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(40, 90, 60, 0), 120, 160, gocv.MatTypeCV8UC3)
		gocv.Circle(&m, image.Pt(10+i*4, 60), 12, color.RGBA{230, 200, 40, 0}, -1)
		if err := w.Write(m); err != nil {
			t.Fatal(err)
		}
		m.Close()
	}
	w.Close()
	return path
}

// readAll reads a video to its end: the frames read, the frames skipped as
// corrupt, and the error it ended with.
func readAll(t *testing.T, path string) (read, corrupt int, end error) {
	t.Helper()
	src, err := OpenVideo(path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	m := gocv.NewMat()
	defer m.Close()
	for {
		_, err := src.Read(&m)
		switch {
		case err == nil:
			read++
		case errors.Is(err, ErrCorruptFrame):
			corrupt++
		default:
			return read, corrupt, err
		}
	}
}

// A video cut short ends where it was cut, with an error that names the
// file and says so (io.EOF all the same: the game read so far stands); one
// damaged in the middle goes on past the damage; a whole one ends plainly.
func TestVideoCutShortOrDamaged(t *testing.T) {
	path := writeVideo(t, 40)
	if read, corrupt, end := readAll(t, path); read != 40 || corrupt != 0 || end != io.EOF {
		t.Fatalf("whole video: %d frames read, %d corrupt, ended with %v; want 40, 0, io.EOF", read, corrupt, end)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(t.TempDir(), "cut.avi")
	if err := os.WriteFile(cut, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	read, _, end := readAll(t, cut)
	if read == 0 || read >= 40 || !errors.Is(end, io.EOF) || end == io.EOF ||
		!strings.Contains(end.Error(), cut) || !strings.Contains(end.Error(), "of the 40") {
		t.Errorf("video cut in half: %d frames read, ended with %v; want some, and an error naming the file and its 40 frames", read, end)
	}
	damaged := filepath.Join(t.TempDir(), "damaged.avi")
	bad := append([]byte(nil), data...)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := len(bad) / 3; i < len(bad)/3+len(bad)/40; i++ {
		bad[i] = byte(rng.Uint32())
	}
	if err := os.WriteFile(damaged, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	if read, corrupt, end := readAll(t, damaged); read < 30 || !errors.Is(end, io.EOF) {
		t.Errorf("video damaged at a third: %d frames read, %d corrupt, ended with %v; want at least 30 read to its end", read, corrupt, end)
	}
}
