package vision

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"

	"gocv.io/x/gocv"
)

// A card lying across a printed grid line closes no outline of its own on
// the edge map: the line's edges run into the card's, and the contour
// around both is no rectangle. So the outline search follows the contours
// a second time, on a copy of the edge map with the grid lines taken out
// where they run alone: along each line, in pieces of lineStepMM, the band
// of columns (or rows) where the line's edges lie is found near where the
// calibration puts the line, and each row of the band (or column) is
// cleared unless an edge off the bands touches it from outside there: a
// card's side crossing the line keeps its edges. (A card whose side lies
// along a line loses that side in the copy; the first search, on the
// edges as they are, finds it as before.)

// lineSearchMM is how far from where the calibration puts a grid line its
// edges are looked for (a calibration off by a millimetre or two, a mat
// slightly bent, a line printed double).
const lineSearchMM = 5.0

// lineStepMM is the length of the pieces a grid line is followed in: short
// enough to follow a line the calibration puts a little askew, long enough
// for the line's edges to outnumber a card side's crossing them.
const lineStepMM = 25.0

// lineShownShare is how much of a piece a column (row) of the band must be
// edges along: a line shows along all of a piece that no card covers; a
// card's side crossing it marks a few pixels.
const lineShownShare = 0.3

// lineTouchPx is how far outside a band an edge pixel touches it.
const lineTouchPx = 1

// eraseGridLinesIn clears, in an edge map of view v (pix, w×h, stride
// bytes a row, its pixel (0, 0) the top-down pixel (0, 0)), the printed grid
// lines' edges that no other edge touches from outside the lines' bands.
// The map holds only 0 and 255 (an edge map's); the bands' pixels are
// marked lineMark while the touches are looked for.
func eraseGridLinesIn(pix []byte, w, h, stride int, v *view) {
	if v.geo.CellWidthMM <= 0 || v.geo.CellHeightMM <= 0 {
		return
	}
	s, m := v.pxPerMM, v.marginMM
	width, height := v.geo.WidthMM(), v.geo.HeightMM()
	g := lineGrid{pix: pix, w: w, h: h, stride: stride}
	reach := int(math.Ceil(lineSearchMM * s))
	step := int(math.Round(lineStepMM * s))
	gap := int(math.Round(lineGapMM * s))
	// Each line is followed a little past the realm's edge, where the
	// border lines' ends stick out by half their width.
	var bands []lineBand
	for x := 0.0; x <= width+1e-6; x += v.geo.CellWidthMM {
		c := int(math.Round((x + m) * s))
		bands = g.lineBands(bands, c, int(math.Round(m*s))-reach, int(math.Round((height+m)*s))+reach, reach, step, gap, false)
	}
	for y := 0.0; y <= height+1e-6; y += v.geo.CellHeightMM {
		r := int(math.Round((y + m) * s))
		bands = g.lineBands(bands, r, int(math.Round(m*s))-reach, int(math.Round((width+m)*s))+reach, reach, step, gap, true)
	}
	for _, b := range bands {
		g.mark(b, edgeMark, lineMark)
	}
	keeps := make([][]bool, len(bands))
	for i, b := range bands {
		keeps[i] = g.touched(b)
	}
	// What one band keeps stays, though another band crossing it clears
	// its own rows.
	for i, b := range bands {
		g.keepRows(b, keeps[i])
	}
	for _, b := range bands {
		g.mark(b, lineMark, 0)
	}
}

// An edge map's edge pixels, and those of a grid line's band while
// eraseGridLines runs.
const (
	edgeMark = 255
	lineMark = 128
)

// lineGrid is an edge map seen either way: across (a) and along (b) a
// line, a's axis being x for a vertical line and y for a horizontal one.
type lineGrid struct {
	pix          []byte
	w, h, stride int
}

// lineBand is the part of an edge map a piece of a grid line's edges lie
// in: from a0 to a1 across the line, from b0 to b1 (not included) along it.
type lineBand struct {
	a0, a1, b0, b1 int
	horizontal     bool
}

// extent gives the map's size across and along a line.
func (g lineGrid) extent(horizontal bool) (across, along int) {
	if horizontal {
		return g.h, g.w
	}
	return g.w, g.h
}

// lineBands appends the bands of a line at c across, from b0 to b1 along,
// piece by piece. Where the line lies is found over its whole length
// first: the run of columns (rows for a horizontal line) within reach of c
// that are edges along lineShownShare of it and hold the most edges,
// widened by the runs within gap of it (a wide line's two edges). In each
// piece, the band spans the columns within lineBendPx of that run that are
// edges along lineShownShare of the piece; a piece where none is (the line
// covered or faint there) has no band.
func (g lineGrid) lineBands(out []lineBand, c, b0, b1, reach, step, gap int, horizontal bool) []lineBand {
	across, along := g.extent(horizontal)
	a0, a1 := max(0, c-reach), min(across-1, c+reach)
	b0, b1 = max(0, b0), min(along, b1)
	if a0 >= a1 || b0 >= b1 {
		return out
	}
	// Each piece's counts, and the whole line's.
	n := a1 - a0 + 1
	pieces := (b1 - b0 + step - 1) / step
	counts := make([]int, n*(pieces+1))
	whole := counts[n*pieces:]
	for k := range pieces {
		piece := counts[k*n : (k+1)*n]
		g.countAcross(piece, a0, b0+k*step, min(b1, b0+(k+1)*step), horizontal)
		for i, count := range piece {
			whole[i] += count
		}
	}
	need := max(1, int(lineShownShare*float64(b1-b0)))
	line, ok := richestRun(whole, need, c-a0)
	if !ok {
		return out
	}
	line = widenRun(whole, need, line, gap)
	for k := range pieces {
		piece := counts[k*n : (k+1)*n]
		p, q := b0+k*step, min(b1, b0+(k+1)*step)
		need := max(1, int(lineShownShare*float64(q-p)))
		lo, hi := -1, -1
		for i := max(0, line[0]-lineBendPx); i <= min(n-1, line[1]+lineBendPx); i++ {
			if piece[i] >= need {
				if lo < 0 {
					lo = i
				}
				hi = i
			}
		}
		if lo >= 0 {
			out = append(out, lineBand{a0 + lo, a0 + hi, p, q, horizontal})
		}
	}
	return out
}

// lineBendPx is how far a piece of a grid line may lie from where the line
// lies over its whole length (a mat not quite flat, a lens's bend).
const lineBendPx = 3

// countAcross counts, for each place across a line from a0 on, the edge
// pixels from b0 to b1 along it, reading the map row by row, eight pixels
// at a time (an edge pixel is 255: its low bit counts it).
func (g lineGrid) countAcross(counts []int, a0, b0, b1 int, horizontal bool) {
	const lowBits = 0x0101010101010101
	clear(counts)
	if horizontal {
		for i := range counts {
			row := g.pix[(a0+i)*g.stride+b0 : (a0+i)*g.stride+b1]
			n := 0
			for len(row) >= 8 {
				n += bits.OnesCount64(binary.LittleEndian.Uint64(row) & lowBits)
				row = row[8:]
			}
			for _, p := range row {
				n += int(p & 1)
			}
			counts[i] = n
		}
		return
	}
	// Eight columns a word, each byte of a sum counting one column; a
	// byte holds at most 255, so the sums are emptied into counts that
	// often.
	words := len(counts) / 8
	var sums [8]uint64
	if words > len(sums) {
		words = len(sums)
	}
	flush := func() {
		for k := range words {
			for j := range 8 {
				counts[k*8+j] += int(sums[k] >> (8 * j) & 0xff)
			}
			sums[k] = 0
		}
	}
	for b := b0; b < b1; b++ {
		row := g.pix[b*g.stride+a0 : b*g.stride+a0+len(counts)]
		for k := range words {
			sums[k] += binary.LittleEndian.Uint64(row[k*8:]) & lowBits
		}
		for i := words * 8; i < len(row); i++ {
			counts[i] += int(row[i] & 1)
		}
		if (b-b0)%255 == 254 {
			flush()
		}
	}
	flush()
}

// lineGapMM is how far apart two runs of a line's band may lie: a line
// wider than the edge map's thickening shows as two edges, one along
// either side.
const lineGapMM = 3.0

// widenRun widens run by the runs of counts at least need that lie within
// gap of it, on either side, one after another.
func widenRun(counts []int, need int, run [2]int, gap int) [2]int {
	for grown := true; grown; {
		grown = false
		for i := run[0] - 1; i >= max(0, run[0]-1-gap); i-- {
			if counts[i] >= need {
				run[0], grown = i, true
				break
			}
		}
		for i := run[1] + 1; i <= min(len(counts)-1, run[1]+1+gap); i++ {
			if counts[i] >= need {
				run[1], grown = i, true
				break
			}
		}
	}
	return run
}

// richestRun finds, among the runs of counts at least need, the one
// holding the most, the nearest c of equals.
func richestRun(counts []int, need, c int) (run [2]int, ok bool) {
	bestSum, bestOff := 0, 0
	for i := 0; i < len(counts); {
		if counts[i] < need {
			i++
			continue
		}
		j, sum := i, 0
		for ; j < len(counts) && counts[j] >= need; j++ {
			sum += counts[j]
		}
		off := 0
		switch {
		case c < i:
			off = i - c
		case c > j-1:
			off = c - (j - 1)
		}
		if sum > bestSum || sum == bestSum && off < bestOff {
			run, bestSum, bestOff, ok = [2]int{i, j - 1}, sum, off, true
		}
		i = j
	}
	return run, ok
}

// rect gives the band's pixels in the map: columns x0 to x1, rows y0 to
// y1 (not included).
func (b lineBand) rect() (x0, x1, y0, y1 int) {
	if b.horizontal {
		return b.b0, b.b1, b.a0, b.a1 + 1
	}
	return b.a0, b.a1 + 1, b.b0, b.b1
}

// mark sets the band's pixels that are from to to.
func (g lineGrid) mark(b lineBand, from, to byte) {
	x0, x1, y0, y1 := b.rect()
	for y := y0; y < y1; y++ {
		row := g.pix[y*g.stride+x0 : y*g.stride+x1]
		for i, p := range row {
			if p == from {
				row[i] = to
			}
		}
	}
}

// touched tells, for each place along a band, whether an edge off every
// band lies within lineTouchPx outside it there (a pixel along either
// way): a card's side crossing the line, or lying against it.
func (g lineGrid) touched(b lineBand) []bool {
	across, along := g.extent(b.horizontal)
	stepAlong, stepAcross := g.stride, 1
	if b.horizontal {
		stepAlong, stepAcross = 1, g.stride
	}
	// beside[i]: an edge off the bands lies just outside the band at place
	// b.b0-1+i along it.
	lo, hi := max(0, b.b0-1), min(along-1, b.b1)
	beside := make([]bool, b.b1-b.b0+2)
	for bb := lo; bb <= hi; bb++ {
		base := bb * stepAlong
		for d := 1; d <= lineTouchPx && !beside[bb-b.b0+1]; d++ {
			if a := b.a0 - d; a >= 0 && g.pix[base+a*stepAcross] == edgeMark {
				beside[bb-b.b0+1] = true
			}
			if a := b.a1 + d; a < across && g.pix[base+a*stepAcross] == edgeMark {
				beside[bb-b.b0+1] = true
			}
		}
	}
	keep := make([]bool, b.b1-b.b0)
	for i := range keep {
		keep[i] = beside[i] || beside[i+1] || beside[i+2]
	}
	return keep
}

// keepRows turns a band's marked pixels back into edges where keep says
// so.
func (g lineGrid) keepRows(b lineBand, keep []bool) {
	x0, x1, y0, y1 := b.rect()
	for y := y0; y < y1; y++ {
		if !b.horizontal && !keep[y-b.b0] {
			continue
		}
		row := g.pix[y*g.stride+x0 : y*g.stride+x1]
		for i, p := range row {
			if p == lineMark && (!b.horizontal || keep[x0+i-b.b0]) {
				row[i] = edgeMark
			}
		}
	}
}

// withoutGridLines copies an edge map of view v into the finder's
// lineless map and takes the grid lines out of the copy (see
// eraseGridLinesIn).
func (o *outlineFinder) withoutGridLines(edges gocv.Mat, v *view) (gocv.Mat, error) {
	rows, cols := edges.Rows(), edges.Cols()
	dst := o.lineless.sized(rows, cols)
	edges.CopyTo(dst)
	pix, err := o.lineless.frame.DataPtrUint8()
	if err != nil {
		return gocv.Mat{}, fmt.Errorf("vision: edge map without grid lines: %w", err)
	}
	stride := cols + 2
	eraseGridLinesIn(pix[stride+1:], cols, rows, stride, v)
	return *dst, nil
}
