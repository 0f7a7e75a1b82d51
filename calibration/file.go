package calibration

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// FileVersion is the version of the calibration JSON that Save writes. Load
// reads it and version 1, whose boolean "north_at_bottom" version 2 replaced
// by "south", the image side the realm's south edge is on (true is "top").
const FileVersion = 2

// ErrBadFile is wrapped by Load for a file that is not a calibration it can use.
var ErrBadFile = errors.New("bad calibration file")

// fileFormat is the JSON layout of a saved calibration.
type fileFormat struct {
	Version int `json:"version"`
	Calibration
	// NorthAtBottom is version 1's setting: true is South Top. Save
	// leaves it out.
	NorthAtBottom *bool `json:"north_at_bottom,omitempty"`
}

// Save writes the calibration as indented JSON, atomically (a temporary file
// renamed into place).
func (c *Calibration) Save(path string) error {
	b, err := json.MarshalIndent(fileFormat{Version: FileVersion, Calibration: *c}, "", "  ")
	if err != nil {
		return fmt.Errorf("calibration %s: %w", path, err)
	}
	b = append(b, '\n')
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("calibration %s: %w", path, err)
	}
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("calibration %s: %w", path, werr)
	}
	return nil
}

// Load reads a calibration saved by Save. A file that is not valid JSON, is
// truncated, has an unknown version or unusable corners gets an error naming
// the file and, where it can, the line.
func Load(path string) (*Calibration, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("calibration %s: %w", path, err)
	}
	return parseFile(path, b)
}

func parseFile(path string, b []byte) (*Calibration, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, fmt.Errorf("calibration %s: empty file: %w", path, ErrBadFile)
	}
	var head struct {
		Version       *int    `json:"version"`
		South         *string `json:"south"`
		NorthAtBottom *bool   `json:"north_at_bottom"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return nil, jsonError(path, b, err)
	}
	switch {
	case head.Version == nil:
		return nil, fmt.Errorf("calibration %s: no \"version\" (is this a tablecam calibration?): %w", path, ErrBadFile)
	case *head.Version != FileVersion && *head.Version != 1:
		return nil, fmt.Errorf("calibration %s: version %d is not supported (this tablecam reads versions 1 and %d; recalibrate with \"tablecam calibrate\"): %w",
			path, *head.Version, FileVersion, ErrBadFile)
	case *head.Version == 1 && head.South != nil:
		return nil, fmt.Errorf("calibration %s: \"south\" is not in version 1 (it has \"north_at_bottom\"; \"south\" came with version 2): %w", path, ErrBadFile)
	case *head.Version != 1 && head.NorthAtBottom != nil:
		return nil, fmt.Errorf("calibration %s: \"north_at_bottom\" is version 1's (version %d says which image side south is on with \"south\": bottom, top, left or right): %w",
			path, *head.Version, ErrBadFile)
	case *head.Version != 1 && head.South == nil:
		return nil, fmt.Errorf("calibration %s: no \"south\" (the image side the realm's south edge is on: bottom, top, left or right): %w", path, ErrBadFile)
	}
	if head.South != nil {
		if _, err := ParseSide(*head.South); err != nil {
			return nil, fmt.Errorf("calibration %s: \"south\": %w: %w", path, err, ErrBadFile)
		}
	}
	var f fileFormat
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, jsonError(path, b, err)
	}
	c := f.Calibration
	if f.NorthAtBottom != nil && *f.NorthAtBottom {
		c.South = Top
	}
	if c.Geometry.CellWidthMM == 0 && c.Geometry.CellHeightMM == 0 {
		return nil, fmt.Errorf("calibration %s: no \"geometry\": %w", path, ErrBadFile)
	}
	switch c.Method {
	case MethodAuto, MethodManual, MethodMarkers:
	default:
		return nil, fmt.Errorf("calibration %s: unknown method %q (want auto, manual or markers): %w", path, c.Method, ErrBadFile)
	}
	if err := ValidateCorners(c.Corners, c.ImageWidth, c.ImageHeight); err != nil {
		return nil, fmt.Errorf("calibration %s: %w", path, err)
	}
	if err := c.Reference.validate(); err != nil {
		return nil, fmt.Errorf("calibration %s: reference: %w", path, err)
	}
	if err := c.init(); err != nil {
		return nil, fmt.Errorf("calibration %s: %w", path, err)
	}
	return &c, nil
}

// jsonError names the file and the line of a JSON decoding error.
func jsonError(path string, b []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	off := int64(-1)
	switch {
	case errors.As(err, &syn):
		off = syn.Offset
	case errors.As(err, &typ):
		off = typ.Offset
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || err.Error() == "unexpected end of JSON input" {
		return fmt.Errorf("calibration %s: line %d: truncated file (unexpected end of JSON): %w", path, lineAt(b, int64(len(b))), ErrBadFile)
	}
	if off >= 0 {
		return fmt.Errorf("calibration %s: line %d: %v: %w", path, lineAt(b, off), err, ErrBadFile)
	}
	return fmt.Errorf("calibration %s: %v: %w", path, err, ErrBadFile)
}

// lineAt is the 1-based line holding byte offset off.
func lineAt(b []byte, off int64) int {
	if off > int64(len(b)) {
		off = int64(len(b))
	}
	// The offset points just past the bad byte: count the line it is on.
	if off > 0 && b[off-1] == '\n' && off == int64(len(b)) {
		off--
	}
	return bytes.Count(b[:off], []byte{'\n'}) + 1
}
