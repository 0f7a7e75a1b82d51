package calibration

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"github.com/tablecam/tablecam/models"
)

// Errors wrapped by the functions of this package.
var (
	// ErrBadCorners means corners are malformed, degenerate, not convex,
	// in the wrong order or far outside the image.
	ErrBadCorners = errors.New("bad realm corners")
	// ErrBadGeometry means a realm geometry with a cell size that is not positive.
	ErrBadGeometry = errors.New("bad realm geometry")
	// ErrNotFound means no realm was found in the frame.
	ErrNotFound = errors.New("no realm found")
)

var colorBlack = color.RGBA{A: 255}

// cornerNames are the realm corners in the order of a Quad.
var cornerNames = [4]string{"A1", "E1", "E4", "A4"}

// ParseCorners reads four image points "x,y x,y x,y x,y" in the order A1
// (south-west), E1 (south-east), E4 (north-east), A4 (north-west). Points may
// also be separated by semicolons, and spaces around the commas are allowed.
func ParseCorners(s string) (models.Quad, error) {
	var q models.Quad
	norm := strings.NewReplacer(";", " ", "\t", " ", "\n", " ").Replace(s)
	// Tolerate "x, y" by gluing spaces that follow or precede a comma.
	for strings.Contains(norm, ", ") || strings.Contains(norm, " ,") {
		norm = strings.ReplaceAll(strings.ReplaceAll(norm, ", ", ","), " ,", ",")
	}
	fields := strings.Fields(norm)
	if len(fields) != 4 {
		return q, fmt.Errorf("corners %q: want 4 points \"x,y x,y x,y x,y\" (A1 E1 E4 A4), got %d: %w", s, len(fields), ErrBadCorners)
	}
	for i, f := range fields {
		xs, ys, ok := strings.Cut(f, ",")
		if !ok {
			return q, fmt.Errorf("corners %q: point %d (%s) %q is not \"x,y\": %w", s, i+1, cornerNames[i], f, ErrBadCorners)
		}
		x, errX := strconv.ParseFloat(xs, 64)
		y, errY := strconv.ParseFloat(ys, 64)
		if errX != nil || errY != nil || math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
			return q, fmt.Errorf("corners %q: point %d (%s) %q is not two numbers: %w", s, i+1, cornerNames[i], f, ErrBadCorners)
		}
		q[i] = models.Point{X: x, Y: y}
	}
	return q, nil
}

// ValidateCorners checks that q is a usable realm quad in a width×height
// image: a convex, non-degenerate quad in the order A1, E1, E4, A4 (which is
// counter-clockwise on screen), with every corner inside the image or at most
// a quarter of its size outside.
func ValidateCorners(q models.Quad, width, height int) error {
	if width <= 0 || height <= 0 {
		return fmt.Errorf("image size %dx%d: %w", width, height, ErrBadCorners)
	}
	w, h := float64(width), float64(height)
	for i, p := range q {
		if math.IsNaN(p.X) || math.IsNaN(p.Y) || math.IsInf(p.X, 0) || math.IsInf(p.Y, 0) {
			return fmt.Errorf("corner %s is not a number: %w", cornerNames[i], ErrBadCorners)
		}
		if p.X < -w/4 || p.X > w*5/4 || p.Y < -h/4 || p.Y > h*5/4 {
			return fmt.Errorf("corner %s (%g,%g) is far outside the %dx%d image: %w", cornerNames[i], p.X, p.Y, width, height, ErrBadCorners)
		}
	}
	minSide := math.Max(8, math.Min(w, h)/40)
	for i := range q {
		j := (i + 1) % 4
		if d := math.Hypot(q[j].X-q[i].X, q[j].Y-q[i].Y); d < minSide {
			return fmt.Errorf("corners %s and %s are only %.1f px apart (need ≥ %.0f): %w", cornerNames[i], cornerNames[j], d, minSide, ErrBadCorners)
		}
	}
	// Cross products at each corner: all must have the same sign (convex),
	// and that sign must be the screen-counter-clockwise one of A1→E1→E4→A4.
	neg, pos := 0, 0
	for i := range q {
		a, b, c := q[i], q[(i+1)%4], q[(i+2)%4]
		cross := (b.X-a.X)*(c.Y-b.Y) - (b.Y-a.Y)*(c.X-b.X)
		switch {
		case cross < 0:
			neg++
		case cross > 0:
			pos++
		}
	}
	if pos > 0 && neg > 0 || pos+neg < 4 {
		return fmt.Errorf("corners %v do not form a convex quad (give them in the order A1 E1 E4 A4 around the realm): %w", fmtQuad(q), ErrBadCorners)
	}
	if pos > 0 {
		// In image coordinates (y down), A1 bottom-left → E1 bottom-right →
		// E4 top-right turns with a negative cross product.
		return fmt.Errorf("corners %v go round the wrong way (a mirrored realm): give them in the order A1 (south-west), E1 (south-east), E4 (north-east), A4 (north-west): %w", fmtQuad(q), ErrBadCorners)
	}
	if area := q.Area(); area < w*h/400 {
		return fmt.Errorf("corners %v enclose only %.0f px² (need ≥ %.0f): %w", fmtQuad(q), area, w*h/400, ErrBadCorners)
	}
	return nil
}

// fmtQuad writes a quad the way ParseCorners reads it.
func fmtQuad(q models.Quad) string {
	var b strings.Builder
	for i, p := range q {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s,%s", strconv.FormatFloat(math.Round(p.X*10)/10, 'f', -1, 64), strconv.FormatFloat(math.Round(p.Y*10)/10, 'f', -1, 64))
	}
	return b.String()
}

// FormatCorners writes corners as "x,y x,y x,y x,y", the form ParseCorners reads.
func FormatCorners(q models.Quad) string { return fmtQuad(q) }
