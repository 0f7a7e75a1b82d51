package calibration

import (
	"image"
	"image/color"
	"math"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
)

// DrawGrid draws the realm grid onto img (a BGR frame of the calibration's
// size): the cell lines, the name of each cell at its centre and the four
// corner names, so people can check a calibration by eye.
func (c *Calibration) DrawGrid(img *gocv.Mat) {
	g := c.geometry()
	w, h := g.WidthMM(), g.HeightMM()
	thick := max(1, int(math.Round(float64(img.Cols())/640)))
	line := color.RGBA{0, 255, 255, 255}
	border := color.RGBA{255, 140, 0, 255}
	pt := func(x, y float64) image.Point {
		p := c.RealmToImage(models.Point{X: x, Y: y})
		return image.Pt(int(math.Round(p.X)), int(math.Round(p.Y)))
	}
	for i := 0; i <= models.Columns; i++ {
		x := float64(i) * g.CellWidthMM
		col := line
		if i == 0 || i == models.Columns {
			col = border
		}
		gocv.Line(img, pt(x, 0), pt(x, h), col, thick)
	}
	for j := 0; j <= models.Rows; j++ {
		y := float64(j) * g.CellHeightMM
		col := line
		if j == 0 || j == models.Rows {
			col = border
		}
		gocv.Line(img, pt(0, y), pt(w, y), col, thick)
	}
	scale := 0.5 * float64(thick)
	for _, cell := range models.AllCells() {
		p := pt((float64(cell.Col)+0.5)*g.CellWidthMM, (float64(cell.Row)+0.5)*g.CellHeightMM)
		label(img, cell.String(), p, scale, line)
	}
	for i, q := range realmCorners(g) {
		p := pt(q.X, q.Y)
		gocv.Circle(img, p, 4*thick, color.RGBA{255, 0, 255, 255}, -1)
		label(img, cornerNames[i], image.Pt(p.X+6*thick, p.Y-6*thick), scale*1.2, color.RGBA{255, 0, 255, 255})
	}
}

// label writes text centred on p with a dark outline.
func label(img *gocv.Mat, text string, p image.Point, scale float64, col color.RGBA) {
	size := gocv.GetTextSize(text, gocv.FontHersheySimplex, scale, 1)
	o := image.Pt(p.X-size.X/2, p.Y+size.Y/2)
	gocv.PutText(img, text, o, gocv.FontHersheySimplex, scale, color.RGBA{0, 0, 0, 255}, 3)
	gocv.PutText(img, text, o, gocv.FontHersheySimplex, scale, col, 1)
}
