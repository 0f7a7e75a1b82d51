package samples

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ErrNotFound is returned by Dir when no samples folder can be found.
var ErrNotFound = errors.New("samples folder not found (set TABLECAM_SAMPLES to the repository's samples/ folder)")

// Dir finds the bundled samples folder: $TABLECAM_SAMPLES, then ./samples,
// then samples/ beside or above the running executable (bin/tablecam in a checkout).
func Dir() (string, error) {
	var candidates []string
	if d := os.Getenv("TABLECAM_SAMPLES"); d != "" {
		candidates = append(candidates, d)
	}
	candidates = append(candidates, "samples")
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		dir := filepath.Dir(exe)
		candidates = append(candidates, filepath.Join(dir, "samples"), filepath.Join(dir, "..", "samples"))
	}
	for _, c := range candidates {
		if st, err := os.Stat(filepath.Join(c, "doc.go")); err == nil && !st.IsDir() {
			abs, err := filepath.Abs(c)
			if err != nil {
				return c, nil
			}
			return abs, nil
		}
	}
	return "", fmt.Errorf("%w; looked in %v", ErrNotFound, candidates)
}

// Path joins elem onto the samples folder.
func Path(elem ...string) (string, error) {
	d, err := Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(append([]string{d}, elem...)...), nil
}
