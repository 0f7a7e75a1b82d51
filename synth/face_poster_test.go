package synth

import (
	"image"
	"testing"

	"github.com/tablecam/tablecam/models"
)

func TestParseFaceStyle(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    FaceStyle
		wantErr bool
	}{
		{"", StyleSample, false},
		{"sample", StyleSample, false},
		{"poster", StylePoster, false},
		{"fullart", StyleFullArt, false},
		{"Poster", "", true},
		{"photo", "", true},
	} {
		got, err := ParseFaceStyle(tc.in)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("ParseFaceStyle(%q) = %q, %v; want %q (error %v)", tc.in, got, err, tc.want, tc.wantErr)
		}
	}
}

// busyShare is the share of a face's pixels where the grey level changes by
// more than 24 levels to the next pixel right or down: texture, edges, text.
func busyShare(img *image.RGBA) float64 {
	grey := func(x, y int) int {
		p := img.Pix[img.PixOffset(x, y):]
		return (int(p[0])*3 + int(p[1])*6 + int(p[2])) / 10
	}
	b := img.Bounds()
	busy := 0
	for y := b.Min.Y; y < b.Max.Y-1; y++ {
		for x := b.Min.X; x < b.Max.X-1; x++ {
			g := grey(x, y)
			if abs(float64(grey(x+1, y)-g)) > 24 || abs(float64(grey(x, y+1)-g)) > 24 {
				busy++
			}
		}
	}
	return float64(busy) / float64(b.Dx()*b.Dy())
}

func TestPosterFaces(t *testing.T) {
	eachTestFace(t, func(c *models.Card, pal palette, fonts *faceFonts) {
		// What the style is for: far less texture than the sample look.
		poster, sample := busyShare(renderPosterFace(c, pal, 7, fonts)), busyShare(renderFace(c, pal, 7, fonts))
		if poster > sample/3 {
			t.Errorf("%s: %.1f%% of a poster face's pixels are busy, %.1f%% of the sample face's; want under a third", c.Name, 100*poster, 100*sample)
		}
	})
}

// rimSpread is the mean absolute difference in grey between neighbouring
// pixels along a ring inset px pixels inside a face's edge, on its straight
// sides (past the rounded corners): about zero on a printed frame, large
// where the art runs to the edge.
func rimSpread(img *image.RGBA, inset, corner int) float64 {
	grey := func(x, y int) float64 {
		p := img.Pix[img.PixOffset(x, y):]
		return float64(int(p[0])*3+int(p[1])*6+int(p[2])) / 10
	}
	b := img.Bounds()
	sum, n := 0.0, 0
	for x := b.Min.X + corner; x < b.Max.X-corner-1; x++ {
		for _, y := range []int{b.Min.Y + inset, b.Max.Y - 1 - inset} {
			sum += abs(grey(x+1, y) - grey(x, y))
			n++
		}
	}
	for y := b.Min.Y + corner; y < b.Max.Y-corner-1; y++ {
		for _, x := range []int{b.Min.X + inset, b.Max.X - 1 - inset} {
			sum += abs(grey(x, y+1) - grey(x, y))
			n++
		}
	}
	return sum / float64(n)
}

func TestFullArtFaces(t *testing.T) {
	eachTestFace(t, func(c *models.Card, pal palette, fonts *faceFonts) {
		a := renderFullArtFace(c, pal, 7, fonts)
		// What the style is for: the art, not a frame, meets the card's edge.
		corner := int(4 * FacePxPerMM)
		full, framed := rimSpread(a, 1, corner), rimSpread(renderFace(c, pal, 7, fonts), 1, corner)
		if framed > 0.5 || full < 2 {
			t.Errorf("%s: grey changes by %.1f levels a pixel along the full-art face's edge and %.1f along the framed one's; want ≥ 2 and ≤ 0.5", c.Name, full, framed)
		}
		// The corners are rounded: transparent outside them.
		if a.RGBAAt(0, 0).A != 0 || a.RGBAAt(a.Bounds().Dx()/2, 0).A != 255 {
			t.Errorf("%s: corner alpha %d, edge alpha %d; want 0 and 255", c.Name, a.RGBAAt(0, 0).A, a.RGBAAt(a.Bounds().Dx()/2, 0).A)
		}
	})
}
