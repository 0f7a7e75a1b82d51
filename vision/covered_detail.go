package vision

import "math"

// A site the catalog lacks can still lead every face it has, by a clear
// lead, where a face of the catalog looks like it: two water sites share
// their art's tones, the threshold in their title bar and the words of
// their text box, and a few centimetres of the site's ends (all that
// shows beside a unit) correlate with either by 0.5 or so, while no other
// face comes near. What tells the two apart is the detail of the art and
// the title. So a covered site is named only when the detail of what
// shows agrees with the leading face's too, the more so the less its
// correlation leads: each visible pixel less the mean of the visible
// pixels around it (light and shade, a palette's tones, taken out), the
// partial correlation of what shows with the face, the mean site face's
// detail taken out of both (detailScore), within 4 and 8 mm; the
// correlation, twice the first and the second sum to nameMinEvidence at
// least. On the bundled stills and nine synthetic sets, full catalogs and
// first-20-face ones, the right faces of 893 covered sites named so sum
// to 1.36 and more, look-alikes of a site without a face to 0.93–1.29
// (one more, whose shown part is the text box and threshold all water
// sites share, 1.89: still named).
const (
	nameMinEvidence = 1.32 // the least sum of a named site's correlation, twice its detail correlation within 4 mm and that within 8 mm
	detailMinPixels = 50   // the fewest pixels a detail correlation is taken over
)

// detailScore gives the partial correlation of the detail of what shows
// in the window with face's, at a turn and a level-0 shift (see
// nameMinEvidence): each visible pixel less the mean of the visible pixels
// around it, in the window, the face and the mean site
// face alike, where at least a third of those pixels are visible, within
// r pixels each way. It is 0, no evidence either way, when fewer than
// detailMinPixels are so, or the detail is flat.
func (w *siteWindow) detailScore(faces *siteFaces, face, turn, dx, dy, r int) float64 {
	var buf pixelPairs
	pp := w.pairs(faces, 0, dx, dy, &buf)
	tw, th := faces.w[0], faces.h[0]
	t := faces.faceAt(0, turn, face)
	m := faces.mean[0][turn]
	o := make([]float64, tw*th)
	vis := make([]bool, tw*th)
	for _, run := range pp.runs {
		for k := int32(0); k < run.n; k++ {
			o[run.face+k] = float64(w.px[0][run.win+k])
			vis[run.face+k] = true
		}
	}
	// Summed-area tables of the visible pixels: their count, and their sums
	// in the window, the face and the mean face.
	W := tw + 1
	var sat [4][]float64
	for i := range sat {
		sat[i] = make([]float64, W*(th+1))
	}
	for y := 0; y < th; y++ {
		var row [4]float64
		for x := 0; x < tw; x++ {
			i := y*tw + x
			if vis[i] {
				row[0]++
				row[1] += o[i]
				row[2] += float64(t[i])
				row[3] += float64(m[i])
			}
			j := (y+1)*W + x + 1
			for k := range sat {
				sat[k][j] = sat[k][j-W] + row[k]
			}
		}
	}
	var n, so, st, sm, soo, stt, smm, sot, som, stm float64
	for y := 0; y < th; y++ {
		y0, y1 := max(y-r, 0), min(y+r+1, th)
		for x := 0; x < tw; x++ {
			i := y*tw + x
			if !vis[i] {
				continue
			}
			x0, x1 := max(x-r, 0), min(x+r+1, tw)
			box := func(a []float64) float64 { return a[y1*W+x1] - a[y0*W+x1] - a[y1*W+x0] + a[y0*W+x0] }
			nv := box(sat[0])
			if 3*nv < float64((2*r+1)*(2*r+1)) {
				continue
			}
			do := o[i] - box(sat[1])/nv
			dt := float64(t[i]) - box(sat[2])/nv
			dm := float64(m[i]) - box(sat[3])/nv
			n++
			so, st, sm = so+do, st+dt, sm+dm
			soo, stt, smm = soo+do*do, stt+dt*dt, smm+dm*dm
			sot, som, stm = sot+do*dt, som+do*dm, stm+dt*dm
		}
	}
	if n < detailMinPixels {
		return 0
	}
	vo, vt, vm := soo-so*so/n, stt-st*st/n, smm-sm*sm/n
	if vo <= 1e-9 || vt <= 1e-9 || vm <= 1e-9 {
		return 0
	}
	rot := (sot - so*st/n) / math.Sqrt(vo*vt)
	rom := (som - so*sm/n) / math.Sqrt(vo*vm)
	rtm := (stm - st*sm/n) / math.Sqrt(vt*vm)
	d := (1 - rom*rom) * (1 - rtm*rtm)
	if d <= 1e-9 {
		return 0
	}
	return (rot - rom*rtm) / math.Sqrt(d)
}
