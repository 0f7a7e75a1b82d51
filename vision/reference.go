package vision

import (
	"fmt"
	"image"
	"math"
	"os"
	"strings"

	"github.com/tablecam/tablecam/imagefile"
	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// reference is one catalog card's face as the analyzer knows it: upright
// (sites landscape), scaled to the size it has in the top-down image.
type reference struct {
	Slug string
	Kind models.CardKind
	W, H int // face size in pixels at the index scale
	Feat features
	// Late is how many of the last keypoints are the blurred copy's: they
	// go into the hash tables only where there is room (see newLSHIndex).
	Late int
	// Generic marks the keypoints that other faces have too (markGeneric).
	Generic []bool
	Hash    phash
	// Thumb is a site's grey face at half the index scale, row by row
	// (W/2 × H/2): what a covered site's visible ends are compared with.
	Thumb []byte
	// Look is the face in colour at lookPxPerMM, BGR row by row: what an
	// outline feature matching leaves unnamed is compared with
	// (appearance.go).
	Look []byte
	// Turned marks a token whose face is stored landscape (a token site,
	// which lies landscape like every site): indexed turned a quarter
	// clockwise to a token's portrait shape (see uprightImage), its
	// rotation and corners are reported for the face as stored (see
	// faceTurn).
	Turned bool
	card   *models.Card
}

// The blurred copy of each reference face: Gaussian, of this standard
// deviation (a 1280×720 webcam whose focus is a little off blurs a card by
// about a millimetre or more), and the number of its corners indexed.
const (
	blurredFaceSigmaMM  = 1.5
	blurredFaceFeatures = 150
)

// kindOf gives the shape class a catalog card has on the table.
func kindOf(c *models.Card) models.CardKind {
	switch {
	case isToken(c):
		return models.KindToken
	case c.Type == models.Site:
		return models.KindSite
	}
	return models.KindStandard
}

// faceSizeMM is the upright size of a card of that kind, width × height.
func faceSizeMM(k models.CardKind) (w, h float64) {
	switch k {
	case models.KindSite:
		return models.CardLongMM, models.CardShortMM
	case models.KindToken:
		return models.TokenShortMM, models.TokenLongMM
	}
	return models.CardShortMM, models.CardLongMM
}

// faceSizePx is faceSizeMM at a scale, rounded to whole pixels.
func faceSizePx(k models.CardKind, pxPerMM float64) (w, h int) {
	wm, hm := faceSizeMM(k)
	return int(math.Round(wm * pxPerMM)), int(math.Round(hm * pxPerMM))
}

// uprightFace reads a card's scan and returns its face upright in grey at
// the index scale. A site scanned portrait is turned to landscape, a token
// scanned landscape to portrait (turned: see uprightImage).
func uprightFace(c *models.Card, opts Options) (gocv.Mat, bool, error) {
	img, turned, err := uprightImage(c, opts, gocv.IMReadGrayScale)
	if err != nil {
		return gocv.Mat{}, false, err
	}
	w, h := faceSizePx(kindOf(c), opts.pxPerMM())
	face := gocv.NewMat()
	gocv.Resize(img, &face, image.Pt(w, h), 0, 0, gocv.InterpolationArea)
	img.Close()
	return face, turned, nil
}

// faceTurn turns what was found of reference ref (its rotation, and its
// corners from the indexed face's top-left clockwise) back to the face as
// its scan stores it: for a token indexed turned a quarter clockwise
// (reference.Turned), the stored face's top-left is the indexed face's
// top-right, and the face lies a quarter turn further clockwise.
func faceTurn(ref *reference, rot models.Rotation, quad models.Quad) (models.Rotation, models.Quad) {
	if !ref.Turned {
		return rot, quad
	}
	return (rot + 90) % 360, models.Quad{quad[1], quad[2], quad[3], quad[0]}
}

// uprightImage reads a card's scan (flags: grey or colour) at its own
// size, a site scanned portrait turned to landscape, a token scanned
// landscape (a token site) turned to portrait, a quarter clockwise:
// turned says so (see reference.Turned).
func uprightImage(c *models.Card, opts Options, flags gocv.IMReadFlag) (gocv.Mat, bool, error) {
	// The file is read once: checked whole (a scan cut short decodes, half
	// grey: no face to index), then decoded from the same bytes (IMDecode
	// turns by the EXIF orientation as IMRead does).
	unreadable := func() error { return fmt.Errorf("vision: reference face of %q: cannot read image %s", c.Name, c.Image) }
	data, err := os.ReadFile(c.Image)
	if err != nil {
		return gocv.Mat{}, false, unreadable()
	}
	if err := imagefile.Check(data); err != nil {
		return gocv.Mat{}, false, fmt.Errorf("vision: reference face of %q: %s: %w", c.Name, c.Image, err)
	}
	img, err := gocv.IMDecode(data, flags)
	if err != nil || img.Empty() {
		img.Close()
		return gocv.Mat{}, false, unreadable()
	}
	switch kind := kindOf(c); {
	case kind == models.KindToken && img.Cols() > img.Rows():
		// A token face drawn landscape (a token site): indexed in a
		// token's portrait shape, its face turned a quarter clockwise.
		return rotated(img, gocv.Rotate90Clockwise), true, nil
	case kind == models.KindSite && img.Rows() > img.Cols():
		code := gocv.Rotate90Clockwise
		if opts.PortraitSiteTopRight {
			code = gocv.Rotate90CounterClockwise
		}
		return rotated(img, code), false, nil
	}
	return img, false, nil
}

// rotated gives img turned by code, and closes img.
func rotated(img gocv.Mat, code gocv.RotateFlag) gocv.Mat {
	out := gocv.NewMat()
	gocv.Rotate(img, &out, code)
	img.Close()
	return out
}

// newReference indexes one card's face.
func newReference(c *models.Card, orb *gocv.ORB, opts Options) (reference, error) {
	face, turned, err := uprightFace(c, opts)
	if err != nil {
		return reference{}, err
	}
	defer face.Close()
	empty := gocv.NewMat()
	defer empty.Close()
	feat, err := detect(orb, face, empty)
	if err != nil {
		return reference{}, fmt.Errorf("vision: reference face of %q: %w", c.Name, err)
	}
	// A card far from a tilted camera is seen at half the resolution or
	// less: index the face as it looks then, too.
	soft := gocv.NewMat()
	defer soft.Close()
	for _, div := range []int{2, 3} {
		gocv.Resize(face, &soft, image.Pt(face.Cols()/div, face.Rows()/div), 0, 0, gocv.InterpolationArea)
		gocv.Resize(soft, &soft, image.Pt(face.Cols(), face.Rows()), 0, 0, gocv.InterpolationLinear)
		blurred, err := detect(orb, soft, empty)
		if err != nil {
			return reference{}, fmt.Errorf("vision: reference face of %q: %w", c.Name, err)
		}
		feat.Points = append(feat.Points, blurred.Points...)
		feat.Descs = append(feat.Descs, blurred.Descs...)
	}
	// A webcam out of focus, or a hand's motion, blurs a card more than a
	// far card's lower resolution does: index the face as it looks then,
	// too, but only its strongest corners, and only where the hash tables
	// have room: a blurred face's corners look alike, and would crowd out
	// the sharp ones (see reference.Late).
	blurOrb := newORB(blurredFaceFeatures)
	defer blurOrb.Close()
	sigma := blurredFaceSigmaMM * opts.pxPerMM()
	gocv.GaussianBlur(face, &soft, image.Pt(0, 0), sigma, sigma, gocv.BorderReplicate)
	blurred, err := detect(&blurOrb, soft, empty)
	if err != nil {
		return reference{}, fmt.Errorf("vision: reference face of %q: %w", c.Name, err)
	}
	feat.Points = append(feat.Points, blurred.Points...)
	feat.Descs = append(feat.Descs, blurred.Descs...)
	r := reference{Slug: c.Slug, Kind: kindOf(c), W: face.Cols(), H: face.Rows(), Feat: feat, Late: len(blurred.Descs), Hash: phashOf(face), Turned: turned, card: c}
	if r.Kind == models.KindSite {
		thumb := gocv.NewMat()
		gocv.Resize(face, &thumb, image.Pt(r.W/2, r.H/2), 0, 0, gocv.InterpolationArea)
		r.Thumb = thumb.ToBytes()
		thumb.Close()
	}
	if r.Look, err = lookOf(c, opts); err != nil {
		return reference{}, err
	}
	return r, nil
}

// isToken reports whether a card is a token: marked so by the catalog, or
// with "Token" among the words of its subtypes (some card lists give
// subtypes as one string, "Beast Token").
func isToken(c *models.Card) bool {
	if c.Token {
		return true
	}
	for _, s := range c.Subtypes {
		for _, w := range strings.Fields(s) {
			if strings.EqualFold(w, "token") {
				return true
			}
		}
	}
	return false
}
