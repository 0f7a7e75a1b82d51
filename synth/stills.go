package synth

import (
	"context"
	"fmt"
	"image"
	"image/jpeg"
	"os"
	"path/filepath"

	"github.com/tablecam/tablecam/models"
)

// StillsOptions tunes WriteStills.
type StillsOptions struct {
	Scene SceneOptions
	// Quality of the JPEG files (85 when zero).
	Quality int
	// Progress, when set, is called after each scene.
	Progress func(done, total int)
}

// SceneSeed gives the seed of the i-th scene of a still set made from seed.
func SceneSeed(seed int64, i int) int64 { return seed*1_000_003 + int64(i) }

// WriteStills renders count scenes into dir as NNNN.jpg with NNNN.json truth.
func WriteStills(ctx context.Context, dir string, cat *models.Catalog, seed int64, count int, opts StillsOptions) error {
	r, err := NewRenderer(cat)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("synth: stills: %w", err)
	}
	q := opts.Quality
	if q <= 0 {
		q = 85
	}
	for i := 0; i < count; i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		sc, err := r.Scene(SceneSeed(seed, i), opts.Scene)
		if err != nil {
			return err
		}
		name := fmt.Sprintf("%04d", i)
		sc.Truth.Image = name + ".jpg"
		if err := writeJPEG(filepath.Join(dir, name+".jpg"), sc.Image, q); err != nil {
			return err
		}
		if err := sc.Truth.Save(filepath.Join(dir, name+".json")); err != nil {
			return err
		}
		if opts.Progress != nil {
			opts.Progress(i+1, count)
		}
	}
	return nil
}

func writeJPEG(path string, img image.Image, quality int) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("synth: %w", err)
	}
	if err := jpeg.Encode(f, img, &jpeg.Options{Quality: quality}); err != nil {
		f.Close()
		return fmt.Errorf("synth: %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("synth: %w", err)
	}
	return nil
}
