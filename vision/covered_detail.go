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
// detail taken out of both (detailScores), within 4 and 8 mm; the
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

// detailScratch holds detailScores' buffers from call to call.
type detailScratch struct {
	o   []float64
	vis []bool
	sat [4][]float64
	pp  pixelPairs
}

// detailScores gives, for each radius r of radii, the partial correlation
// of the detail of what shows in the window with face's, at a turn and a
// level-0 shift (see nameMinEvidence): each visible pixel less the mean of
// the visible pixels within r pixels each way, in the window, the face and
// the mean site face alike, where at least a third of those pixels are
// visible. A score is 0, no evidence either way, when fewer than
// detailMinPixels are so, or the detail is flat. The window and the
// summed-area tables are read once for all radii.
func (w *siteWindow) detailScores(faces *siteFaces, face, turn, dx, dy int, radii []int, scores []float64) {
	sc := &faces.detail
	pp := w.pairs(faces, 0, dx, dy, &sc.pp)
	tw, th := faces.w[0], faces.h[0]
	t := faces.faceAt(0, turn, face)
	m := faces.mean[0][turn]
	if len(sc.o) != tw*th {
		sc.o, sc.vis = make([]float64, tw*th), make([]bool, tw*th)
		for i := range sc.sat {
			sc.sat[i] = make([]float64, (tw+1)*(th+1))
		}
	}
	o, vis := sc.o, sc.vis
	clear(vis)
	for _, run := range pp.runs {
		for k := int32(0); k < run.n; k++ {
			o[run.face+k] = float64(w.px[0][run.win+k])
			vis[run.face+k] = true
		}
	}
	// Summed-area tables of the visible pixels: their count, and their sums
	// in the window, the face and the mean face (row and column 0 stay 0).
	W := tw + 1
	cnt, sumO, sumT, sumM := sc.sat[0], sc.sat[1], sc.sat[2], sc.sat[3]
	for y := 0; y < th; y++ {
		var rc, ro, rt, rm float64
		for x := 0; x < tw; x++ {
			i := y*tw + x
			if vis[i] {
				rc++
				ro += o[i]
				rt += float64(t[i])
				rm += float64(m[i])
			}
			j := (y+1)*W + x + 1
			cnt[j] = cnt[j-W] + rc
			sumO[j] = sumO[j-W] + ro
			sumT[j] = sumT[j-W] + rt
			sumM[j] = sumM[j-W] + rm
		}
	}
	for k, r := range radii {
		var n, so, st, sm, soo, stt, smm, sot, som, stm float64
		least := float64((2*r + 1) * (2*r + 1))
		// The visible pixels in the order of the face's rows, as the runs
		// list them.
		for _, run := range pp.runs {
			y := int(run.face) / tw
			y0, y1 := max(y-r, 0), min(y+r+1, th)
			a, b := y0*W, y1*W
			for i := int(run.face); i < int(run.face+run.n); i++ {
				x := i - y*tw
				x0, x1 := max(x-r, 0), min(x+r+1, tw)
				nv := cnt[b+x1] - cnt[a+x1] - cnt[b+x0] + cnt[a+x0]
				if 3*nv < least {
					continue
				}
				do := o[i] - (sumO[b+x1]-sumO[a+x1]-sumO[b+x0]+sumO[a+x0])/nv
				dt := float64(t[i]) - (sumT[b+x1]-sumT[a+x1]-sumT[b+x0]+sumT[a+x0])/nv
				dm := float64(m[i]) - (sumM[b+x1]-sumM[a+x1]-sumM[b+x0]+sumM[a+x0])/nv
				n++
				so, st, sm = so+do, st+dt, sm+dm
				soo, stt, smm = soo+do*do, stt+dt*dt, smm+dm*dm
				sot, som, stm = sot+do*dt, som+do*dm, stm+dt*dm
			}
		}
		scores[k] = partialOf(n, so, st, sm, soo, stt, smm, sot, som, stm)
	}
}

// partialOf is the partial correlation of o with t, m taken out of both,
// from their sums over n pixels (0 when too few or flat: see
// detailScores).
func partialOf(n, so, st, sm, soo, stt, smm, sot, som, stm float64) float64 {
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
