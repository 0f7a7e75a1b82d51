package synth

import (
	"math"
	"math/rand"
)

// Foreign objects: things other than cards and hands that lie on the table
// and may cover part of the realm (a phone, a cup, a dice bag, a deck box,
// a pen, a sheet of paper). Each is a flat shape in the mat plane given by
// a signed distance (negative inside), shaded by kind, casting a soft
// shadow that grows with its height.
type objectKind int

const (
	objPhone objectKind = iota
	objCup
	objBag
	objDeckBox
	objPen
	objPaper
	objectKinds
)

type object struct {
	kind objectKind
	// centre, unit axis (cos, sin), and half sizes along and across it
	cx, cy, ux, uy float64
	hw, hh, corner float64
	colour, accent [3]float64
	lit            bool    // a phone's screen is on
	height         float64 // mm above the mat: the shadow's offset and softness
	wobble         [3]float64
	handleA        float64 // a cup's handle direction (radians)
	noise          *valueNoise
	// bounding box of the object and its shadow in mat mm
	minX, minY, maxX, maxY float64
}

// objectShadowMM bounds how far an object's shadow falls from it, in units
// of the stage's shadow offset.
const objectShadowMax = 12.0

// local turns a mat point into the object's frame.
func (o *object) local(x, y float64) (a, b float64) {
	dx, dy := x-o.cx, y-o.cy
	return dx*o.ux + dy*o.uy, -dx*o.uy + dy*o.ux
}

// roundRectSD is the signed distance to a rounded rectangle of half sizes
// hw, hh and corner radius r centred at the origin.
func roundRectSD(a, b, hw, hh, r float64) float64 {
	qx, qy := math.Abs(a)-hw+r, math.Abs(b)-hh+r
	out := math.Hypot(math.Max(qx, 0), math.Max(qy, 0))
	return out + math.Min(math.Max(qx, qy), 0) - r
}

// sd is the object's signed distance at a mat point, in mm.
func (o *object) sd(x, y float64) float64 {
	a, b := o.local(x, y)
	switch o.kind {
	case objCup:
		d := math.Hypot(a, b) - o.hw
		// The handle: a short thick segment sticking out of the rim.
		ha, hb := math.Cos(o.handleA), math.Sin(o.handleA)
		t := math.Max(0, math.Min(o.hw*0.55, a*ha+b*hb-o.hw*0.8))
		px, py := (o.hw*0.8+t)*ha, (o.hw*0.8+t)*hb
		return math.Min(d, math.Hypot(a-px, b-py)-o.hw*0.2)
	case objBag:
		th := math.Atan2(b, a)
		r := o.hw * (1 + 0.12*math.Sin(2*th+o.wobble[0]) + 0.07*math.Sin(3*th+o.wobble[1]) + 0.04*math.Sin(5*th+o.wobble[2]))
		return math.Hypot(a, b) - r
	case objPen:
		t := math.Max(-o.hw, math.Min(o.hw, a))
		return math.Hypot(a-t, b) - o.hh
	default:
		return roundRectSD(a, b, o.hw, o.hh, o.corner)
	}
}

// shade gives the object's colour at a mat point inside it (sd < 0).
func (o *object) shade(x, y, sd float64) [3]float64 {
	a, b := o.local(x, y)
	mul := func(c [3]float64, k float64) [3]float64 { return [3]float64{c[0] * k, c[1] * k, c[2] * k} }
	mix := func(c, d [3]float64, t float64) [3]float64 {
		return [3]float64{c[0] + (d[0]-c[0])*t, c[1] + (d[1]-c[1])*t, c[2] + (d[2]-c[2])*t}
	}
	n := o.noise.at(a*0.15+50, b*0.15+50)
	switch o.kind {
	case objPhone:
		if roundRectSD(a, b, o.hw-3, o.hh-9, 3) < 0 {
			if o.lit {
				// A lit screen: a bright gradient with a few blocks on it.
				c := mix(o.accent, [3]float64{240, 240, 240}, 0.3*(b+o.hh)/(2*o.hh))
				if math.Mod(math.Abs(b)+o.wobble[0], 22) < 7 && math.Abs(a) < o.hw-8 {
					c = mul(c, 0.55)
				}
				return c
			}
			// Dark glass with a sheen.
			k := 1 + 0.8*math.Max(0, 1-math.Abs(a+b*0.5-o.wobble[0])/8)
			return mul(o.accent, k)
		}
		return mul(o.colour, 0.85+0.15*math.Min(1, -sd/3))
	case objCup:
		r := math.Hypot(a, b)
		switch {
		case r > o.hw+0.5: // the handle
			return mul(o.colour, 0.8+0.2*n)
		case r > o.hw-4: // the rim, lit on its top
			return mul(mix(o.colour, [3]float64{250, 250, 250}, 0.25), 0.9+0.2*(o.hw-r)/4)
		default: // the drink or the empty inside, darker towards the wall
			k := 0.55 + 0.35*(1-r/(o.hw-4))
			return mul(o.accent, k+0.1*n)
		}
	case objBag:
		// Cloth: folds towards the drawstring knot at the centre.
		th := math.Atan2(b, a)
		fold := 0.5 + 0.5*math.Sin(th*9+o.wobble[0]+0.05*math.Hypot(a, b))
		k := 0.7 + 0.25*fold*math.Min(1, math.Hypot(a, b)/15) + 0.15*(n-0.5)
		if math.Hypot(a, b) < 7 {
			return mul(o.accent, 0.9)
		}
		return mul(o.colour, k)
	case objDeckBox:
		if math.Abs(b) < o.hh*0.2 {
			return mul(o.accent, 0.95+0.1*n)
		}
		return mul(o.colour, 0.9+0.1*math.Min(1, -sd/4)+0.08*(n-0.5))
	case objPen:
		if a > o.hw*0.55 {
			return o.accent
		}
		return mul(o.colour, 0.75+0.35*(1-math.Abs(b)/o.hh))
	default: // paper: lines of text
		if math.Abs(a) < o.hw-12 && b > -o.hh+15 && b < o.hh-15 && math.Mod(b+o.hh, 7) < 1.6 &&
			o.noise.at(a*0.05+3, math.Floor((b+o.hh)/7)) > 0.3 {
			return mul(o.colour, 0.35)
		}
		return mul(o.colour, 0.97+0.03*n)
	}
}

// shadow gives how much an object darkens a mat point: 1 in the open, down
// to 0.6 in its shadow's core, soft at the edge.
func (o *object) shadow(x, y, shadowX, shadowY float64) float64 {
	off := math.Min(objectShadowMax, math.Max(1, o.height/6))
	soft := 1 + o.height*0.06
	d := o.sd(x-shadowX*off, y-shadowY*off)
	if d >= soft {
		return 1
	}
	t := math.Max(0, math.Min(1, (soft-d)/(2*soft)))
	return 1 - 0.4*t*t*(3-2*t)
}

// randomObjectColour is the colour of an object: now and then the mat's own
// colour where it lies or a card's off-white, else any colour.
func randomObjectColour(rng *rand.Rand, st *stage, x, y float64) [3]float64 {
	switch p := rng.Float64(); {
	case p < 0.25:
		r, g, b := st.matAt(x, y)
		k := 0.85 + 0.3*rng.Float64()
		return [3]float64{r * k, g * k, b * k}
	case p < 0.4:
		c := [][3]float64{{235, 230, 215}, {225, 215, 190}, {245, 245, 240}, {30, 30, 34}}[rng.Intn(4)]
		return c
	default:
		c := hsl(360*rng.Float64(), 0.15+0.75*rng.Float64(), 0.1+0.8*rng.Float64())
		return [3]float64{float64(c.R), float64(c.G), float64(c.B)}
	}
}

// newObject makes a random object near the realm: mostly partly over it,
// now and then only on the mat's margin or the table beside it.
func newObject(rng *rand.Rand, st *stage) object {
	w, h := st.geom.WidthMM(), st.geom.HeightMM()
	o := object{kind: objectKind(rng.Intn(int(objectKinds)))}
	if rng.Float64() < 0.75 {
		o.cx, o.cy = -50+(w+100)*rng.Float64(), -40+(h+80)*rng.Float64()
	} else {
		switch rng.Intn(3) {
		case 0:
			o.cx, o.cy = -90-40*rng.Float64(), h*rng.Float64()
		case 1:
			o.cx, o.cy = w+90+40*rng.Float64(), h*rng.Float64()
		default:
			o.cx, o.cy = w*rng.Float64(), -80-40*rng.Float64()
		}
	}
	a := 2 * math.Pi * rng.Float64()
	o.ux, o.uy = math.Cos(a), math.Sin(a)
	o.wobble = [3]float64{2 * math.Pi * rng.Float64(), 2 * math.Pi * rng.Float64(), 2 * math.Pi * rng.Float64()}
	o.handleA = 2 * math.Pi * rng.Float64()
	o.noise = newValueNoise(rng, 32)
	o.colour = randomObjectColour(rng, st, o.cx, o.cy)
	o.accent = randomObjectColour(rng, st, o.cx, o.cy)
	switch o.kind {
	case objPhone:
		o.hw, o.hh, o.corner, o.height = 34+4*rng.Float64(), 70+10*rng.Float64(), 8, 9
		o.lit = rng.Intn(2) == 0
		if !o.lit {
			o.accent = [3]float64{18, 20, 24}
		}
		if rng.Intn(2) == 0 {
			o.colour = [3]float64{25, 25, 28}
		}
	case objCup:
		o.hw, o.height = 38+10*rng.Float64(), 90
		o.hh = o.hw
		o.accent = [][3]float64{{60, 35, 20}, {120, 70, 30}, {190, 150, 90}, o.colour}[rng.Intn(4)]
	case objBag:
		o.hw, o.height = 45+20*rng.Float64(), 40
		o.hh = o.hw
	case objDeckBox:
		o.hw, o.hh, o.corner, o.height = 36+6*rng.Float64(), 47+6*rng.Float64(), 2, 70
	case objPen:
		o.hw, o.hh, o.height = 65+10*rng.Float64(), 4+2*rng.Float64(), 8
	default:
		sizes := [][2]float64{{74, 105}, {105, 148}, {50, 75}}
		s := sizes[rng.Intn(len(sizes))]
		o.hw, o.hh, o.corner, o.height = s[0], s[1], 0.5, 0.5
		if rng.Float64() < 0.7 {
			o.colour = [][3]float64{{240, 238, 230}, {235, 225, 195}, {250, 250, 250}}[rng.Intn(3)]
		}
	}
	r := math.Hypot(o.hw, o.hh)*1.3 + 2
	sh := math.Min(objectShadowMax, math.Max(1, o.height/6))*2 + 1 + o.height*0.06
	o.minX, o.maxX = o.cx-r-sh, o.cx+r+sh
	o.minY, o.maxY = o.cy-r-sh, o.cy+r+sh
	return o
}

// near reports whether a mat point may be inside the object or its shadow.
func (o *object) near(x, y float64) bool {
	return x >= o.minX && x <= o.maxX && y >= o.minY && y <= o.maxY
}

// covers reports whether the object covers a mat point.
func (o *object) covers(x, y float64) bool {
	return o.near(x, y) && o.sd(x, y) < 0
}

// addObjects puts foreign objects on the stage, from a random stream of
// their own (the rest of the scene is drawn the same without them): with
// the given chance one object, a second now and then, or an arm in a long
// sleeve that shows little skin.
func (st *stage) addObjects(seed int64, chance float64) {
	if chance <= 0 {
		return
	}
	rng := rand.New(rand.NewSource(seed ^ 0x0b1ec7))
	if rng.Float64() >= chance {
		return
	}
	n := 1
	if rng.Float64() < 0.2 {
		n = 2
	}
	for i := 0; i < n; i++ {
		if rng.Float64() < 1.0/8 {
			// A sleeved arm: the sleeve reaches down to about the wrist.
			side := []int{0, 0, 1, 2, 3}[rng.Intn(5)]
			tx := -20 + (st.geom.WidthMM()+40)*rng.Float64()
			ty := -10 + (st.geom.HeightMM()+20)*rng.Float64()
			hd := newHand(rng, side, tx, ty, st.geom)
			hd.sleeved = true
			c := randomObjectColour(rng, st, tx, ty)
			hd.sleeve = c
			hd.sleeveFrom = -20 + 30*rng.Float64()
			st.hands = append(st.hands, hd)
			continue
		}
		st.objects = append(st.objects, newObject(rng, st))
	}
}

// objectOverRealm reports whether any object covers part of the realm.
func (st *stage) objectOverRealm() bool {
	for i := range st.objects {
		for y := 0.0; y <= st.geom.HeightMM(); y += 4 {
			for x := 0.0; x <= st.geom.WidthMM(); x += 4 {
				if st.objects[i].covers(x, y) {
					return true
				}
			}
		}
	}
	return false
}
