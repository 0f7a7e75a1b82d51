package synth

import (
	"math"
	"math/rand"

	"github.com/tablecam/tablecam/models"
)

// capsule is a segment with a radius that may change along it.
type capsule struct {
	ax, ay, bx, by float64
	ra, rb         float64
}

// depth gives how far inside the capsule a point is, 0 outside, 1 on the axis.
func (c capsule) depth(x, y float64) float64 {
	dx, dy := c.bx-c.ax, c.by-c.ay
	l2 := dx*dx + dy*dy
	t := 0.0
	if l2 > 0 {
		t = ((x-c.ax)*dx + (y-c.ay)*dy) / l2
	}
	t = math.Max(0, math.Min(1, t))
	px, py := c.ax+t*dx, c.ay+t*dy
	r := c.ra + (c.rb-c.ra)*t
	d := math.Hypot(x-px, y-py)
	if d >= r {
		return 0
	}
	return 1 - d/r
}

// hand is a forearm and hand reaching over the mat from outside the frame,
// drawn as flat shapes in the mat plane.
type hand struct {
	parts                  []capsule
	skin                   [3]float64
	minX, minY, maxX, maxY float64
	// The wrist and the arm's direction towards the fingertips (a unit
	// vector), and a sleeve: from sleeveFrom mm behind the wrist back, the
	// arm has the sleeve's colour (none when sleeved is false).
	wristX, wristY, dirX, dirY float64
	sleeved                    bool
	sleeve                     [3]float64
	sleeveFrom                 float64
}

// sleeveColours are fabrics: dark and light, plain and bright.
var sleeveColours = [][3]float64{
	{30, 32, 40}, {40, 55, 110}, {150, 30, 35}, {90, 95, 100}, {200, 200, 195}, {45, 90, 60}, {190, 150, 60}, {110, 60, 130},
}

// dressSleeve puts the forearm in a sleeve of a random fabric, starting
// 30 to 150 mm behind the wrist.
func (h *hand) dressSleeve(rng *rand.Rand) {
	h.sleeved = true
	h.sleeve = sleeveColours[rng.Intn(len(sleeveColours))]
	h.sleeveFrom = 30 + 120*rng.Float64()
}

// colour gives the hand's colour at a mat point inside it: skin, or the
// sleeve's behind where it starts.
func (h *hand) colour(x, y float64) [3]float64 {
	if h.sleeved && (x-h.wristX)*h.dirX+(y-h.wristY)*h.dirY < -h.sleeveFrom {
		return h.sleeve
	}
	return h.skin
}

// skinTones spans light to dark skin.
var skinTones = [][3]float64{
	{232, 190, 160}, {214, 166, 130}, {190, 140, 100}, {160, 110, 75}, {120, 80, 55}, {88, 58, 42},
}

// newHand builds an arm entering from one side of the mat (0 south, 1 north,
// 2 west, 3 east) with its fingertips near (tx, ty) in mat mm.
func newHand(rng *rand.Rand, side int, tx, ty float64, geom models.RealmGeometry) hand {
	w, h := geom.WidthMM(), geom.HeightMM()
	var ox, oy float64
	switch side {
	case 0:
		ox, oy = tx+(rng.Float64()-0.5)*200, -matMarginY-420
	case 1:
		ox, oy = tx+(rng.Float64()-0.5)*200, h+matMarginY+420
	case 2:
		ox, oy = -matMarginX-420, ty+(rng.Float64()-0.5)*150
	default:
		ox, oy = w+matMarginX+420, ty+(rng.Float64()-0.5)*150
	}
	return buildHand(randomHandShape(rng), ox, oy, tx, ty)
}

// handShape is what stays the same while a hand moves.
type handShape struct {
	palmLen, armR float64
	fingers       [4]float64 // extra finger lengths
	thumbLeft     bool
	skin          [3]float64
}

func randomHandShape(rng *rand.Rand) handShape {
	return handShape{
		palmLen: 95.0 + 15*rng.Float64(), armR: 30 + 8*rng.Float64(),
		fingers:   [4]float64{10 * rng.Float64(), 10 * rng.Float64(), 10 * rng.Float64(), 10 * rng.Float64()},
		thumbLeft: rng.Intn(2) == 0, skin: skinTones[rng.Intn(len(skinTones))],
	}
}

// buildHand lays out an arm from the shoulder side (ox, oy) with its
// fingertips at (tx, ty), in mat mm.
func buildHand(sh handShape, ox, oy, tx, ty float64) hand {
	dx, dy := tx-ox, ty-oy
	l := math.Hypot(dx, dy)
	dx, dy = dx/l, dy/l
	nx, ny := -dy, dx
	palmLen := sh.palmLen
	wristX, wristY := tx-dx*palmLen, ty-dy*palmLen
	armR := sh.armR
	hd := hand{skin: sh.skin, wristX: wristX, wristY: wristY, dirX: dx, dirY: dy}
	hd.parts = append(hd.parts,
		capsule{ox, oy, wristX, wristY, armR + 12, armR},
		capsule{wristX, wristY, wristX + dx*palmLen*0.45, wristY + dy*palmLen*0.45, armR * 1.15, armR * 1.35},
	)
	// Four fingers and a thumb, slightly spread.
	knX, knY := wristX+dx*palmLen*0.5, wristY+dy*palmLen*0.5
	for i := 0; i < 4; i++ {
		off := (float64(i) - 1.5) * 17
		spread := (float64(i) - 1.5) * 0.12
		fdx, fdy := dx*math.Cos(spread)-dy*math.Sin(spread), dx*math.Sin(spread)+dy*math.Cos(spread)
		fl := palmLen*0.5 + sh.fingers[i] - math.Abs(float64(i)-1.5)*6
		bx, by := knX+nx*off, knY+ny*off
		hd.parts = append(hd.parts, capsule{bx, by, bx + fdx*fl, by + fdy*fl, 9, 7.5})
	}
	thumbSide := 1.0
	if sh.thumbLeft {
		thumbSide = -1
	}
	tbx, tby := wristX+dx*palmLen*0.15+nx*thumbSide*armR, wristY+dy*palmLen*0.15+ny*thumbSide*armR
	hd.parts = append(hd.parts, capsule{tbx, tby, tbx + (dx+nx*thumbSide*0.8)*40, tby + (dy+ny*thumbSide*0.8)*40, 11, 8})

	hd.minX, hd.minY, hd.maxX, hd.maxY = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range hd.parts {
		r := math.Max(p.ra, p.rb)
		hd.minX = math.Min(hd.minX, math.Min(p.ax, p.bx)-r)
		hd.maxX = math.Max(hd.maxX, math.Max(p.ax, p.bx)+r)
		hd.minY = math.Min(hd.minY, math.Min(p.ay, p.by)-r)
		hd.maxY = math.Max(hd.maxY, math.Max(p.ay, p.by)+r)
	}
	return hd
}

// depth gives how deep inside the hand a mat point is (0 outside).
func (h *hand) depth(x, y float64) float64 {
	if x < h.minX || x > h.maxX || y < h.minY || y > h.maxY {
		return 0
	}
	best := 0.0
	for _, p := range h.parts {
		if d := p.depth(x, y); d > best {
			best = d
		}
	}
	return best
}
