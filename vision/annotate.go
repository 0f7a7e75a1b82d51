package vision

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// Colours of the annotation.
var (
	gridColour    = color.RGBA{255, 255, 255, 0}
	southColour   = color.RGBA{40, 200, 255, 0} // sky blue
	northColour   = color.RGBA{255, 150, 40, 0} // orange
	unknownColour = color.RGBA{255, 40, 40, 0}  // red: not identified
	occludedTint  = color.RGBA{200, 0, 0, 0}
)

// Annotate draws what vision read onto a copy of the frame, for people to
// check it: the realm grid and cell names, each card's outline with its
// face's top edge drawn thick, its name, owner and rotation, a "TAPPED" mark,
// and a red banner when a hand covers the realm. Unknown cards are outlined
// in red. The caller closes the result.
func Annotate(frame gocv.Mat, obs models.FrameObservation, cal *calibration.Calibration) gocv.Mat {
	out := frame.Clone()
	if out.Channels() == 1 {
		gocv.CvtColor(out, &out, gocv.ColorGrayToBGR)
	}
	scale := math.Max(0.4, float64(out.Cols())/1600)
	if cal != nil {
		if v, err := newView(cal.Corners, cal.Geometry, out.Cols(), out.Rows(), Options{MarginMM: -1}); err == nil {
			drawGrid(&out, v, scale)
		}
	}
	for _, c := range obs.Cards {
		drawOutline(&out, c)
	}
	// The labels after every outline, each where it covers no other label:
	// a unit and the site under it share a centre.
	var taken []image.Rectangle
	for _, c := range obs.Cards {
		taken = append(taken, drawLabel(&out, c, scale, taken))
	}
	if obs.Occluded {
		gocv.Rectangle(&out, image.Rect(0, 0, out.Cols(), int(36*scale)+8), occludedTint, -1)
		text(&out, "OCCLUDED: a hand or object covers the realm", image.Pt(8, int(28*scale)), scale, color.RGBA{255, 255, 255, 0})
	}
	return out
}

func drawGrid(img *gocv.Mat, v *view, scale float64) {
	g := v.geo
	line := func(a, b models.Point) {
		gocv.Line(img, pt(a), pt(b), gridColour, 1)
	}
	for c := 0; c <= models.Columns; c++ {
		x := float64(c) * g.CellWidthMM
		line(v.imageOfMM(x, 0), v.imageOfMM(x, g.HeightMM()))
	}
	for r := 0; r <= models.Rows; r++ {
		y := float64(r) * g.CellHeightMM
		line(v.imageOfMM(0, y), v.imageOfMM(g.WidthMM(), y))
	}
	for _, cell := range models.AllCells() {
		p := v.imageOfMM(float64(cell.Col)*g.CellWidthMM+4, float64(cell.Row+1)*g.CellHeightMM-4)
		text(img, cell.String(), image.Pt(int(p.X), int(p.Y+14*scale)), scale*0.8, gridColour)
	}
}

// cardColour is the colour a card is drawn in: its owner's, or the
// unknown cards' red.
func cardColour(c models.CardObservation) color.RGBA {
	switch {
	case !c.Identified():
		return unknownColour
	case c.Owner == models.North:
		return northColour
	}
	return southColour
}

// drawOutline draws a card's outline, its face's top edge thick.
func drawOutline(img *gocv.Mat, c models.CardObservation) {
	col := cardColour(c)
	for i := range c.Quad {
		th := 2
		if i == 0 {
			th = 5 // the face's top edge
		}
		gocv.Line(img, pt(c.Quad[i]), pt(c.Quad[(i+1)%4]), col, th)
	}
}

// drawLabel writes a card's name, owner, rotation and confidence on a black
// box at its centre, or as near below or above it as the box covers none
// of the boxes taken; it returns the box.
func drawLabel(img *gocv.Mat, c models.CardObservation, scale float64, taken []image.Rectangle) image.Rectangle {
	col := cardColour(c)
	label := c.NameOr("unknown")
	detail := fmt.Sprintf("%s rot %d conf %.2f", c.Owner, c.Rotation, c.Confidence)
	if c.Tapped {
		detail += " TAPPED"
	}
	w := max(textWidth(label, scale), textWidth(detail, scale*0.8))
	centre := c.Quad.Center()
	box := labelBox(image.Pt(int(centre.X)-w/2, int(centre.Y)), w, scale, taken, image.Rect(0, 0, img.Cols(), img.Rows()))
	org := image.Pt(box.Min.X+2, box.Min.Y+int(16*scale))
	gocv.Rectangle(img, box, color.RGBA{0, 0, 0, 0}, -1)
	text(img, label, org, scale, col)
	text(img, detail, image.Pt(org.X, org.Y+int(18*scale)), scale*0.8, col)
	return box
}

// labelBox places a label box of text width w whose first line's baseline
// starts at org: there, or moved down or up by whole box heights (the
// nearest first) to where it covers none of the boxes taken, within the
// image bounds when it fits. With no such place near, it stays at org.
func labelBox(org image.Point, w int, scale float64, taken []image.Rectangle, bounds image.Rectangle) image.Rectangle {
	at := image.Rect(org.X-2, org.Y-int(16*scale), org.X+w+2, org.Y+int(22*scale))
	h := at.Dy() + 2
	for step := range 9 {
		shift := (step + 1) / 2 * h
		if step%2 == 1 {
			shift = -shift // below first, then above
		}
		box := at.Add(image.Pt(0, -shift))
		if box.In(bounds) || !at.In(bounds) {
			if !overlapsAny(box, taken) {
				return box
			}
		}
	}
	return at
}

// overlapsAny reports whether r shares pixels with any of boxes.
func overlapsAny(r image.Rectangle, boxes []image.Rectangle) bool {
	for _, b := range boxes {
		if r.Overlaps(b) {
			return true
		}
	}
	return false
}

func text(img *gocv.Mat, s string, org image.Point, scale float64, col color.RGBA) {
	gocv.PutTextWithParams(img, s, org, gocv.FontHersheySimplex, 0.5*scale, col, max(1, int(scale+0.5)), gocv.LineAA, false)
}

func textWidth(s string, scale float64) int {
	sz := gocv.GetTextSize(s, gocv.FontHersheySimplex, 0.5*scale, max(1, int(scale+0.5)))
	return sz.X
}

func pt(p models.Point) image.Point { return image.Pt(int(math.Round(p.X)), int(math.Round(p.Y))) }
