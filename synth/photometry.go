package synth

import (
	"bytes"
	"image"
	"image/jpeg"
	"math"
	"math/rand"
	"runtime"
	"sync"
)

// glare is a specular highlight in image pixels.
type glare struct {
	x, y, rx, ry, angle, strength float64
}

// glareFast is a glare with its rotation precomputed.
type glareFast struct {
	glare
	cos, sin, reach float64
}

// photometry is what the light and the sensor do to a frame.
type photometry struct {
	gain         float64    // overall exposure
	gradX, gradY float64    // illumination gradient across the frame
	vignette     float64    // darkening towards the corners
	temp         [3]float64 // colour temperature multipliers
	glares       []glare
	blurSigma    float64 // optics, in pixels
	noiseSigma   float64 // sensor noise, in 8-bit levels
	jpegQuality  int     // 0: no JPEG round trip
	noiseSeed    int64
}

func randomPhotometry(rng *rand.Rand, w, h int) photometry {
	p := photometry{
		gain:       0.8 + 0.35*rng.Float64(),
		gradX:      (rng.Float64()*2 - 1) * 0.35,
		gradY:      (rng.Float64()*2 - 1) * 0.35,
		vignette:   0.1 + 0.3*rng.Float64(),
		blurSigma:  0.5 + 1.0*rng.Float64(),
		noiseSigma: 1.5 + 5*rng.Float64(),
		// Stills are stored as JPEG; this round trip matches what the file holds.
		jpegQuality: 80 + rng.Intn(13),
		noiseSeed:   rng.Int63(),
	}
	// Warm (tungsten) to cool (daylight) light.
	t := rng.Float64()*2 - 1
	p.temp = [3]float64{1 + 0.12*t, 1 + 0.02*math.Abs(t), 1 - 0.14*t}
	n := rng.Intn(3)
	for i := 0; i < n; i++ {
		p.glares = append(p.glares, glare{
			x: float64(w) * rng.Float64(), y: float64(h) * rng.Float64(),
			rx: 30 + 90*rng.Float64(), ry: 15 + 50*rng.Float64(),
			angle:    rng.Float64() * math.Pi,
			strength: 0.35 + 0.5*rng.Float64(),
		})
	}
	return p
}

// cleanPhotometry leaves the rendered pixels as they are.
func cleanPhotometry() photometry {
	return photometry{gain: 1, temp: [3]float64{1, 1, 1}}
}

// apply lights, blurs and adds noise to the frame in place.
func (p photometry) apply(f *floatImage) {
	if p.blurSigma > 0.05 {
		gaussianBlur(f, p.blurSigma)
	}
	w, h := f.w, f.h
	var glares []glareFast
	for _, g := range p.glares {
		glares = append(glares, glareFast{glare: g, cos: math.Cos(g.angle), sin: math.Sin(g.angle), reach: 3 * math.Max(g.rx, g.ry)})
	}
	var wg sync.WaitGroup
	workers := runtime.NumCPU()
	for k := 0; k < workers; k++ {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			for y := k; y < h; y += workers {
				// One noise stream per row keeps the result independent of scheduling.
				rng := newXorshift(uint64(p.noiseSeed)*0x9E3779B97F4A7C15 + uint64(y)*0xBF58476D1CE4E5B9 + 1)
				ny := float64(y)/float64(h) - 0.5
				for x := 0; x < w; x++ {
					nx := float64(x)/float64(w) - 0.5
					g := p.gain * (1 + p.gradX*nx*2 + p.gradY*ny*2) * (1 - p.vignette*(nx*nx+ny*ny)*2)
					spec := 0.0
					for _, gl := range glares {
						dx, dy := float64(x)-gl.x, float64(y)-gl.y
						if math.Abs(dx) > gl.reach || math.Abs(dy) > gl.reach {
							continue
						}
						c, s := gl.cos, gl.sin
						u, v := (dx*c+dy*s)/gl.rx, (-dx*s+dy*c)/gl.ry
						d := u*u + v*v
						if d < 9 {
							spec += gl.strength * math.Exp(-d)
						}
					}
					spec = math.Min(spec, 1)
					i := (y*w + x) * 3
					for c := 0; c < 3; c++ {
						v := float64(f.pix[i+c]) * g * p.temp[c]
						v += spec * (255 - math.Min(v, 255)) * 0.9
						if p.noiseSigma > 0 {
							v += rng.gauss() * p.noiseSigma * (0.6 + 0.4*math.Sqrt(math.Max(v, 0)/255))
						}
						f.pix[i+c] = float32(v)
					}
				}
			}
		}(k)
	}
	wg.Wait()
}

// finish turns the frame into 8-bit RGBA, through a JPEG round trip when asked.
func (p photometry) finish(f *floatImage) (*image.RGBA, error) {
	img := f.toRGBA()
	if p.jpegQuality <= 0 {
		return img, nil
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: p.jpegQuality}); err != nil {
		return nil, err
	}
	dec, err := jpeg.Decode(&buf)
	if err != nil {
		return nil, err
	}
	return toRGBA(dec), nil
}

// gaussianBlur blurs the image in place with a separable kernel.
func gaussianBlur(f *floatImage, sigma float64) {
	r := int(math.Ceil(sigma * 2.5))
	k := make([]float32, 2*r+1)
	var sum float32
	for i := -r; i <= r; i++ {
		k[i+r] = float32(math.Exp(-float64(i*i) / (2 * sigma * sigma)))
		sum += k[i+r]
	}
	for i := range k {
		k[i] /= sum
	}
	w, h := f.w, f.h
	tmp := make([]float32, len(f.pix))
	parallelRows(h, func(y int) {
		for x := 0; x < w; x++ {
			var a, b, c float32
			for t := -r; t <= r; t++ {
				xx := clampInt(x+t, 0, w-1)
				i := (y*w + xx) * 3
				kk := k[t+r]
				a += f.pix[i] * kk
				b += f.pix[i+1] * kk
				c += f.pix[i+2] * kk
			}
			o := (y*w + x) * 3
			tmp[o], tmp[o+1], tmp[o+2] = a, b, c
		}
	})
	parallelRows(h, func(y int) {
		for x := 0; x < w; x++ {
			var a, b, c float32
			for t := -r; t <= r; t++ {
				yy := clampInt(y+t, 0, h-1)
				i := (yy*w + x) * 3
				kk := k[t+r]
				a += tmp[i] * kk
				b += tmp[i+1] * kk
				c += tmp[i+2] * kk
			}
			o := (y*w + x) * 3
			f.pix[o], f.pix[o+1], f.pix[o+2] = a, b, c
		}
	})
}

func parallelRows(h int, fn func(y int)) {
	var wg sync.WaitGroup
	workers := runtime.NumCPU()
	for k := 0; k < workers; k++ {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			for y := k; y < h; y += workers {
				fn(y)
			}
		}(k)
	}
	wg.Wait()
}

// xorshift is a small fast generator for per-pixel noise.
type xorshift struct{ s uint64 }

func newXorshift(seed uint64) *xorshift {
	if seed == 0 {
		seed = 0x853c49e6748fea9b
	}
	return &xorshift{s: seed}
}

func (x *xorshift) next() uint64 {
	x.s ^= x.s << 13
	x.s ^= x.s >> 7
	x.s ^= x.s << 17
	return x.s
}

// gauss approximates a standard normal sample (sum of four uniforms).
func (x *xorshift) gauss() float64 {
	v := x.next()
	a := float64(v&0xFFFF) + float64((v>>16)&0xFFFF) + float64((v>>32)&0xFFFF) + float64(v>>48)
	// Four uniforms on [0, 65535]: mean 131070, variance 4·65536²/12.
	return (a - 131070) / 37837.2
}
