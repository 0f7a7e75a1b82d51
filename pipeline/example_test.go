package pipeline_test

import (
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"

	"github.com/tablecam/tablecam/pipeline"
	"gocv.io/x/gocv"
)

// A folder of numbered images plays in the order of the numbers; a file that
// is not an image is reported as a corrupt frame, and the stream goes on.
func ExampleOpenFrames() {
	dir, _ := os.MkdirTemp("", "frames")
	defer os.RemoveAll(dir)
	for _, n := range []int{2, 10} {
		f, _ := os.Create(filepath.Join(dir, fmt.Sprintf("frame_%d.png", n)))
		png.Encode(f, image.NewGray(image.Rect(0, 0, 64, 48)))
		f.Close()
	}
	os.WriteFile(filepath.Join(dir, "frame_7.png"), []byte("not a picture"), 0o644)

	src, err := pipeline.OpenFrames(dir, 10)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer src.Close()
	mat := gocv.NewMat()
	defer mat.Close()
	for {
		fr, err := src.Read(&mat)
		if errors.Is(err, io.EOF) {
			break
		}
		name := filepath.Base(fr.Name)
		if errors.Is(err, pipeline.ErrCorruptFrame) {
			fmt.Printf("frame %d (%s): corrupt, skipped\n", fr.Index, name)
			continue
		}
		fmt.Printf("frame %d (%s) at %.1f s: %dx%d\n", fr.Index, name, fr.Time, mat.Cols(), mat.Rows())
	}
	// Output:
	// frame 0 (frame_2.png) at 0.0 s: 64x48
	// frame 1 (frame_7.png): corrupt, skipped
	// frame 2 (frame_10.png) at 0.2 s: 64x48
}
