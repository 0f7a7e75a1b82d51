package live

import (
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"

	"github.com/tablecam/tablecam/ui"
)

// Snapshots writes the overlay as PNG files, one every Every frames.
type Snapshots struct {
	Dir   string
	Every int
	// Written counts the files written.
	Written int

	painter *ui.Painter
	frame   *image.RGBA
	last    int
}

// NewSnapshots makes the folder and a writer of w×h snapshots.
func NewSnapshots(dir string, every, w, h int) (*Snapshots, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("snapshots: %w", err)
	}
	return &Snapshots{Dir: dir, Every: every, painter: ui.NewPainter(), frame: image.NewRGBA(image.Rect(0, 0, w, h)), last: -1}, nil
}

// Due reports whether frame is one to snapshot.
func (s *Snapshots) Due(frame int) bool {
	return s.Every > 0 && frame != s.last && (s.last < 0 || frame/s.Every != s.last/s.Every)
}

// Write paints v and writes it as frame-NNNNNN.png; it gives the file's path.
func (s *Snapshots) Write(v ui.View) (string, error) {
	s.last = v.Update.Frame
	s.painter.Paint(s.frame, v)
	path := filepath.Join(s.Dir, fmt.Sprintf("frame-%06d.png", v.Update.Frame))
	f, err := os.Create(path)
	if err != nil {
		return "", fmt.Errorf("snapshot: %w", err)
	}
	if err := png.Encode(f, s.frame); err != nil {
		f.Close()
		return "", fmt.Errorf("snapshot %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("snapshot %s: %w", path, err)
	}
	s.Written++
	return path, nil
}
