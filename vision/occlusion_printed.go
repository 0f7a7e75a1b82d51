package vision

import (
	"encoding/binary"
	"image"
	"math"

	"github.com/tablecam/tablecam/models"

	"gocv.io/x/gocv"
)

// A playmat's art may itself be skin-toned in parts (a desert, a sunset
// sky, a mauve or pink horizon) while the mat's commonest colour, which
// skinMaskFrom clears, is another: such a part of the art reaches the
// realm's edge like an arm. But the realm's grid is printed over the art,
// and a hand lies over it: where a skin blob lies on both sides of a grid
// line, the line shows through the blob when the blob is art (the mask is
// cut along it, or the line is a ridge in brightness: darker or lighter
// than both sides by more than printedRidgeY), and is hidden (the blob
// bridges it) when the blob is a hand. A blob, with the blobs a line
// cuts it from, that crosses the lines at least printedMinCrossings times
// and lets them show at more than printedShowShare of those crossings is
// mat art, not a hand. Crossings on a card found say nothing (the card
// hides the line either way) and are not counted. A hand lying over
// skin-toned art makes one blob with it: its bridges keep the blob a hand
// unless the art's crossings far outnumber them.
//
// Measured at the hand tests' 0.5 px/mm on the sample stills and on 100
// scenes of an independent generator (60 + 40, 25 with a hand): hands let
// the lines show at 0–7% of their crossings (one 18%, one 24%), skin-toned
// art at 18–81% (on the mask alone; most above 40%). False alarms 11 → 2
// and 2 → 0 on the two sets, the sample stills unchanged. One hand was
// lost: on a mat whose grid lines glow skin-toned a finger's width on
// each side, the glow is one blob with the hand and shows the lines' bright
// cores all along them.
const (
	printedShowShare    = 0.35
	printedMinCrossings = 20
	printedRidgeY       = 15
)

// clearPrintedOver clears from skin (skinMask's mask: the top-down image
// at f times the view's scale whose pixel (0, 0) is the view's pixel
// origin) the blobs through which the realm's printed grid lines show
// (see printedShowShare). onCards marks the cards found when cards is
// set.
func clearPrintedOver(skin, ycc, onCards gocv.Mat, cards bool, v *view, origin image.Point, f float64) {
	sk, err := skin.DataPtrUint8()
	if err != nil {
		return
	}
	yc, err := ycc.DataPtrUint8()
	if err != nil || ycc.Channels() != 3 || len(yc) != 3*len(sk) {
		return
	}
	cols, rows := skin.Cols(), skin.Rows()
	var on []uint8
	if cards {
		if on, err = onCards.DataPtrUint8(); err != nil || len(on) != len(sk) {
			on = nil
		}
	}
	labels := gocv.NewMat()
	defer labels.Close()
	n := gocv.ConnectedComponents(skin, &labels)
	label, err := labels.DataPtrUint8()
	if err != nil || labels.Type() != gocv.MatTypeCV32S || len(label) < 4*rows*cols || n < 2 {
		return
	}
	at := func(p int) int { return int(binary.NativeEndian.Uint32(label[4*p:])) }
	groups := newBlobGroups(n)
	root := groups.root
	shows, hidden := make([]int, n), make([]int, n)
	// cross reads one crossing: pa and pb are the pixels on the line's two
	// sides, line the pixels across the line.
	cross := func(pa, pb int, line []int) {
		a, b := at(pa), at(pb)
		if a == 0 || b == 0 {
			return
		}
		whole := true
		lo, hi := 255, 0
		for _, p := range line {
			if on != nil && on[p] != 0 {
				return
			}
			whole = whole && sk[p] != 0
			lo, hi = min(lo, int(yc[3*p])), max(hi, int(yc[3*p]))
		}
		ya, yb := int(yc[3*pa]), int(yc[3*pb])
		ridge := lo < min(ya, yb)-printedRidgeY || hi > max(ya, yb)+printedRidgeY
		if whole && !ridge {
			hidden[a]++
			hidden[b]++
			return
		}
		shows[a]++
		shows[b]++
		groups.join(a, b)
	}
	s := v.pxPerMM * f
	half := gridLineMM * s
	// The sides are read two pixels beyond the line's band: at 0.5 px/mm
	// the band is three pixels, and the pixel beside it mixes line and art.
	ox, oy := float64(origin.X)*f, float64(origin.Y)*f
	var line []int
	for i := 0; i <= models.Columns; i++ {
		c := (v.marginMM+float64(i)*v.geo.CellWidthMM)*s - ox
		x0, x1 := int(math.Floor(c-half)), int(math.Ceil(c+half))
		if x0-2 < 0 || x1+2 >= cols {
			continue
		}
		for y := range rows {
			line = line[:0]
			for x := x0; x <= x1; x++ {
				line = append(line, y*cols+x)
			}
			cross(y*cols+x0-2, y*cols+x1+2, line)
		}
	}
	for i := 0; i <= models.Rows; i++ {
		c := (v.marginMM+float64(i)*v.geo.CellHeightMM)*s - oy
		y0, y1 := int(math.Floor(c-half)), int(math.Ceil(c+half))
		if y0-2 < 0 || y1+2 >= rows {
			continue
		}
		for x := range cols {
			line = line[:0]
			for y := y0; y <= y1; y++ {
				line = append(line, y*cols+x)
			}
			cross((y0-2)*cols+x, (y1+2)*cols+x, line)
		}
	}
	// Each crossing was counted on both its sides: a group's sums count
	// it twice, which leaves the share as it is.
	groupShows, groupHidden := make([]int, n), make([]int, n)
	for i := 1; i < n; i++ {
		r := root(i)
		groupShows[r] += shows[i]
		groupHidden[r] += hidden[i]
	}
	art := make([]bool, n)
	any := false
	for r := 1; r < n; r++ {
		all := groupShows[r] + groupHidden[r]
		if all >= 2*printedMinCrossings && float64(groupShows[r]) > printedShowShare*float64(all) {
			art[r], any = true, true
		}
	}
	if !any {
		return
	}
	for p := range sk {
		if l := int(binary.NativeEndian.Uint32(label[4*p:])); l != 0 && art[root(l)] {
			sk[p] = 0
		}
	}
}
