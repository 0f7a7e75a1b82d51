package synth

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"

	"github.com/tablecam/tablecam/models"
)

// GameOptions tunes WriteGame.
type GameOptions struct {
	// Width and Height of the video; 960×540 when zero. (At 1280×720 even
	// JPEG quality 22 takes about 27 KB a frame, so a game of several turns
	// at 30 fps would not fit the 20 MB a bundled demo may take.)
	Width, Height int
	// FPS of the video; 30 when zero.
	FPS int
	// Turns of the scripted game; 6 when zero.
	Turns int
	// MaxBytes caps the video file: the highest JPEG quality of a ladder
	// whose file fits is kept. 20 MB (20,000,000 bytes) when zero.
	MaxBytes int64
	// Frames, when set, also writes every frame as frames/NNNNN.jpg (JPEG
	// quality 90), for tools that read numbered frames.
	Frames bool
	// Progress, when set, is called after each frame.
	Progress func(done, total int)
}

// Timing of a hand reach, in frames at 30 fps (scaled for other rates).
const (
	holdFrames  = 16 // the board holds still between changes (0.53 s)
	enterFrames = 3  // the hand comes in
	stayFrames  = 9  // and stays over the cell (0.3 s)
	leaveFrames = 3  // and goes
	startFrames = 20 // still board before the first reach and after the last
)

// GameTruth is the ground truth of a recorded game (truth.json).
type GameTruth struct {
	Video    string               `json:"video"`
	FPS      int                  `json:"fps"`
	Width    int                  `json:"width"`
	Height   int                  `json:"height"`
	Frames   int                  `json:"frame_count"`
	Seed     int64                `json:"seed"`
	Quality  int                  `json:"jpeg_quality"`
	Geometry models.RealmGeometry `json:"geometry"`
	// Corners are the realm's corners at rest (A1, E1, E4, A4); each frame
	// adds its own sub-pixel jitter.
	Corners      models.Quad `json:"corners"`
	RealmToImage Homography  `json:"realm_to_image"`
	South        string      `json:"south_avatar"`
	North        string      `json:"north_avatar"`
	// Events in order, each with the frame and time at which the change
	// became visible (the first frame without the hand that made it).
	// turn_start and turn_end have no picture: turn_start carries the last
	// still frame before the turn's first reach, turn_end the last still
	// frame of the turn.
	Events []models.Event `json:"events"`
	// DeliberateWarnings are rule breaks the script commits on purpose.
	DeliberateWarnings []DeliberateWarning `json:"deliberate_warnings"`
	// Notes lists the reaches that must not become events.
	Quiet []QuietMoment `json:"quiet"`
	// PerFrame holds every frame: hand frames are marked and carry no board.
	PerFrame []FrameTruth `json:"frames"`
}

// QuietMoment is a hand pass, a nudge or a flicker: visible, but no event.
type QuietMoment struct {
	Kind      string `json:"kind"`
	FromFrame int    `json:"from_frame"`
	ToFrame   int    `json:"to_frame"`
}

// FrameTruth is one frame of a recorded game.
type FrameTruth struct {
	Frame   int         `json:"frame"`
	Time    float64     `json:"time"`
	Hand    bool        `json:"hand,omitempty"`
	Flicker bool        `json:"flicker,omitempty"`
	Corners models.Quad `json:"corners"`
	// Board maps a cell name to its cards, bottom first; nil on hand frames.
	Board map[string][]BoardCard `json:"board,omitempty"`
}

// BoardCard is a card of the stable board.
type BoardCard struct {
	Name   string        `json:"name"`
	Owner  models.Player `json:"owner"`
	Tapped bool          `json:"tapped"`
}

// LoadGameTruth reads a recorded game's truth.json.
func LoadGameTruth(path string) (*GameTruth, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("game truth: %w", err)
	}
	var t GameTruth
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, fmt.Errorf("game truth %s: %w", path, err)
	}
	if t.FPS <= 0 || len(t.PerFrame) != t.Frames {
		return nil, fmt.Errorf("game truth %s: %d frames listed, frame_count %d, fps %d", path, len(t.PerFrame), t.Frames, t.FPS)
	}
	return &t, nil
}

// frameTimeline is what one frame shows.
type frameTimeline struct {
	state   int // index of the board state
	hand    *hand
	flicker float64 // gain multiplier, 1 normally
}

// WriteGame scripts a game with the catalog's cards (see scriptGame), renders
// it as an MJPG .avi at dir/game.avi from a still camera, and writes
// truth.json and events.jsonl (game_start first, ready for `tablecam rules`).
func WriteGame(ctx context.Context, dir string, cat *models.Catalog, seed int64, opts GameOptions) (*GameTruth, error) {
	if opts.Width <= 0 || opts.Height <= 0 {
		opts.Width, opts.Height = 960, 540
	}
	if opts.FPS <= 0 {
		opts.FPS = 30
	}
	if opts.Turns <= 0 {
		opts.Turns = 6
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = 20_000_000
	}
	r, err := NewRenderer(cat)
	if err != nil {
		return nil, err
	}
	sc, err := scriptGame(cat, seed, opts.Turns)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("synth: game: %w", err)
	}
	if opts.Frames {
		if err := os.MkdirAll(filepath.Join(dir, "frames"), 0o755); err != nil {
			return nil, fmt.Errorf("synth: game: %w", err)
		}
	}
	rng := rand.New(rand.NewSource(seed ^ 0x5eed))
	scaleF := func(n int) int { return max(1, int(math.Round(float64(n)*float64(opts.FPS)/30))) }

	// A calm, steady setup: the camera looks down from the south with a mild tilt.
	pose := cameraPose{tilt: 12 + 8*rng.Float64(), yaw: (rng.Float64()*2 - 1) * 3, roll: (rng.Float64()*2 - 1) * 3,
		gridWidth: 0.84, distanceMM: 900}
	cam := newCamera(pose, r.geom, opts.Width, opts.Height)
	mat := r.randomMat(rng)
	mat.art = r.matArt(0)
	mat.grid = gridStyle{lineMM: 1.4, borderMM: 2.5, ink: mat.grid.ink, alpha: 0.55}
	photo := randomPhotometry(rng, opts.Width, opts.Height)
	photo.noiseSigma = 2
	photo.blurSigma = 0.9
	photo.glares = photo.glares[:min(len(photo.glares), 1)]
	photo.gain = 1
	photo.jpegQuality = 0

	// Board states and the frame timeline.
	states := []board{sc.start}
	var timeline []frameTimeline
	truth := &GameTruth{Video: "game.avi", FPS: opts.FPS, Width: opts.Width, Height: opts.Height, Seed: seed,
		Geometry: r.geom, Corners: cam.RealmCorners(r.geom), RealmToImage: cam.RealmToImage,
		South: sc.avatars[models.South].Name, North: sc.avatars[models.North].Name,
		DeliberateWarnings: []DeliberateWarning{}, Quiet: []QuietMoment{}}
	hold := func(n int) {
		for i := 0; i < n; i++ {
			timeline = append(timeline, frameTimeline{state: len(states) - 1, flicker: 1})
		}
	}
	stamp := func(evs []models.Event, frame int) []models.Event {
		out := make([]models.Event, len(evs))
		for i, e := range evs {
			f := frame
			t := math.Round(float64(frame)/float64(opts.FPS)*1000) / 1000
			e.Frame, e.Time = &f, &t
			out[i] = e
		}
		return out
	}
	hold(scaleF(startFrames))
	centre := func(c models.Cell) (float64, float64) {
		return (float64(c.Col) + 0.5) * r.geom.CellWidthMM, (float64(c.Row) + 0.5) * r.geom.CellHeightMM
	}
	warnIdx := 0
	for _, s := range sc.steps {
		firstFrame := len(timeline)
		truth.Events = append(truth.Events, stamp(s.before, max(firstFrame-1, 0))...)
		if s.kind == stepFlicker {
			n := scaleF(6)
			for i := 0; i < n; i++ {
				g := 0.72 + 0.1*math.Sin(float64(i))
				timeline = append(timeline, frameTimeline{state: len(states) - 1, flicker: g})
			}
			truth.Quiet = append(truth.Quiet, QuietMoment{Kind: "flicker", FromFrame: firstFrame, ToFrame: len(timeline) - 1})
			hold(scaleF(holdFrames))
			truth.Events = append(truth.Events, stamp(s.trail, len(timeline)-1)...)
			continue
		}
		// The hand comes from its player's side of the table.
		tx, ty := centre(s.target)
		tx += (rng.Float64()*2 - 1) * 15
		ty += (rng.Float64()*2 - 1) * 10
		ox, oy := tx+(rng.Float64()*2-1)*120, -matMarginY-450
		if s.player == models.North {
			oy = r.geom.HeightMM() + matMarginY + 450
		}
		shape := randomHandShape(rng)
		if s.player == models.North {
			shape.skin = skinTones[4]
		} else {
			shape.skin = skinTones[1]
		}
		enter, stay, leave := scaleF(enterFrames), scaleF(stayFrames), scaleF(leaveFrames)
		total := enter + stay + leave
		changeAt := enter + stay/2
		for i := 0; i < total; i++ {
			// How far in the hand is: 0 outside the frame, 1 at the target.
			var k float64
			switch {
			case i < enter:
				k = float64(i+1) / float64(enter)
			case i < enter+stay:
				k = 1
			default:
				k = 1 - float64(i-enter-stay+1)/float64(leave+1)
			}
			k = k * k * (3 - 2*k)
			hx := ox + (tx-ox)*(0.55+0.45*k)
			hy := oy + (ty-oy)*(0.55+0.45*k)
			h := buildHand(shape, ox, oy, hx, hy)
			if i == changeAt && s.kind != stepPass {
				states = append(states, s.after)
			}
			timeline = append(timeline, frameTimeline{state: len(states) - 1, hand: &h, flicker: 1})
		}
		visible := len(timeline)
		switch s.kind {
		case stepChange:
			truth.Events = append(truth.Events, stamp(s.events, visible)...)
			if s.note == "summoning sickness" && warnIdx < len(sc.warnings) {
				sc.warnings[warnIdx].Frame = visible
				warnIdx++
			}
		case stepPass:
			truth.Quiet = append(truth.Quiet, QuietMoment{Kind: "hand_pass", FromFrame: firstFrame, ToFrame: visible - 1})
		case stepNudge:
			truth.Quiet = append(truth.Quiet, QuietMoment{Kind: "nudge", FromFrame: firstFrame, ToFrame: visible - 1})
		}
		hold(scaleF(holdFrames))
		truth.Events = append(truth.Events, stamp(s.trail, len(timeline)-1)...)
	}
	hold(scaleF(startFrames))
	truth.DeliberateWarnings = append(truth.DeliberateWarnings, sc.warnings...)
	truth.Frames = len(timeline)

	// Camera jitter: a slow sub-pixel wander.
	jx, jy := newValueNoise(rng, 64), newValueNoise(rng, 64)
	jitter := func(f int) (float64, float64) {
		t := float64(f) / float64(opts.FPS)
		return (jx.at(t*1.7, 3.1) - 0.5) * 0.6, (jy.at(t*1.3, 7.7) - 0.5) * 0.6
	}

	// Render. Each board state is drawn once; hand frames redraw only the
	// pixels near the hand; every frame is shifted by its jitter and gets
	// its own sensor noise.
	ladder := []int{60, 50, 42, 35, 29, 24}
	writers := make([]*aviWriter, len(ladder))
	for i, q := range ladder {
		w, err := newAVIWriter(filepath.Join(dir, fmt.Sprintf(".game-q%d.avi", q)), opts.Width, opts.Height, opts.FPS, q)
		if err != nil {
			return nil, err
		}
		writers[i] = w
	}
	cleanup := func() {
		for i, w := range writers {
			if w != nil {
				w.close()
				os.Remove(filepath.Join(dir, fmt.Sprintf(".game-q%d.avi", ladder[i])))
			}
		}
	}
	var base *floatImage
	baseState := -1
	var st *stage
	for f, fr := range timeline {
		if err := ctx.Err(); err != nil {
			cleanup()
			return nil, err
		}
		if fr.state != baseState {
			st = r.boardStage(states[fr.state], cam, mat, photo)
			base = st.render()
			baseState = fr.state
		}
		img := base
		if fr.hand != nil {
			img = st.withHand(base, *fr.hand)
		}
		dx, dy := jitter(f)
		shifted := shiftImage(img, dx, dy)
		p := photo
		p.gain *= fr.flicker
		p.noiseSeed = seed*7919 + int64(f)
		p.apply(shifted)
		rgba, err := p.finish(shifted)
		if err != nil {
			cleanup()
			return nil, err
		}
		if opts.Frames {
			if err := writeJPEG(filepath.Join(dir, "frames", fmt.Sprintf("%05d.jpg", f)), rgba, 90); err != nil {
				cleanup()
				return nil, err
			}
		}
		for i, w := range writers {
			if w == nil {
				continue
			}
			if err := w.writeFrame(rgba); err != nil {
				cleanup()
				return nil, err
			}
			if w.size() > opts.MaxBytes && i < len(writers)-1 {
				// Too big already: drop this quality.
				w.close()
				os.Remove(filepath.Join(dir, fmt.Sprintf(".game-q%d.avi", ladder[i])))
				writers[i] = nil
			}
		}
		ft := FrameTruth{Frame: f, Time: math.Round(float64(f)/float64(opts.FPS)*1000) / 1000,
			Hand: fr.hand != nil, Flicker: fr.flicker != 1}
		for k, c := range truth.Corners {
			ft.Corners[k] = models.Point{X: c.X + dx, Y: c.Y + dy}
		}
		if fr.hand == nil {
			ft.Board = boardCells(states[fr.state])
		}
		truth.PerFrame = append(truth.PerFrame, ft)
		if opts.Progress != nil {
			opts.Progress(f+1, len(timeline))
		}
	}
	// Keep the best quality that fits.
	kept := -1
	for i, w := range writers {
		if w == nil {
			continue
		}
		if err := w.close(); err != nil {
			cleanup()
			return nil, err
		}
		writers[i] = nil
		tmp := filepath.Join(dir, fmt.Sprintf(".game-q%d.avi", ladder[i]))
		if kept < 0 {
			if err := os.Rename(tmp, filepath.Join(dir, "game.avi")); err != nil {
				return nil, fmt.Errorf("synth: game: %w", err)
			}
			kept = i
			continue
		}
		os.Remove(tmp)
	}
	truth.Quality = ladder[kept]
	if st, err := os.Stat(filepath.Join(dir, "game.avi")); err == nil && st.Size() > opts.MaxBytes {
		return nil, fmt.Errorf("synth: game: the video takes %d bytes even at JPEG quality %d, over the %d byte cap; script fewer turns or a smaller frame", st.Size(), truth.Quality, opts.MaxBytes)
	}
	if err := writeGameTruth(filepath.Join(dir, "truth.json"), truth); err != nil {
		return nil, err
	}
	if err := writeEvents(filepath.Join(dir, "events.jsonl"), truth); err != nil {
		return nil, err
	}
	return truth, nil
}

// boardStage turns a board into a stage under a fixed camera.
func (r *Renderer) boardStage(b board, cam Camera, mat matStyle, photo photometry) *stage {
	st := &stage{cam: cam, geom: r.geom, mat: mat, photo: photo, shadowX: 0.9, shadowY: -0.7}
	for _, p := range b.pieces {
		face, err := r.face(p.card)
		if err != nil {
			continue
		}
		rot := 0
		if p.owner == models.North {
			rot = 180
		}
		if p.tapped {
			rot += 90
		}
		cx := (float64(p.cell.Col)+0.5)*r.geom.CellWidthMM + p.dx
		cy := (float64(p.cell.Row)+0.5)*r.geom.CellHeightMM + p.dy
		c := p.cell
		st.sprites = append(st.sprites, &sprite{card: p.card, face: face, cx: cx, cy: cy, angle: float64(rot) + p.jitter,
			owner: p.owner, rotation: rot, tapped: p.tapped, cell: &c})
	}
	st.chooseLevels()
	return st
}

// withHand copies base and redraws the pixels the hand or its shadow may touch.
func (st *stage) withHand(base *floatImage, h hand) *floatImage {
	out := &floatImage{w: base.w, h: base.h, pix: append([]float32(nil), base.pix...)}
	st.hands = []hand{h}
	defer func() { st.hands = nil }()
	// The hand's box in the image, grown for its shadow.
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	pad := 6 * math.Hypot(st.shadowX, st.shadowY)
	for _, c := range [4][2]float64{{h.minX - pad, h.minY - pad}, {h.maxX + pad, h.minY - pad}, {h.maxX + pad, h.maxY + pad}, {h.minX - pad, h.maxY + pad}} {
		x, y := st.cam.RealmToImage.Apply(c[0], c[1])
		minX, maxX = math.Min(minX, x), math.Max(maxX, x)
		minY, maxY = math.Min(minY, y), math.Max(maxY, y)
	}
	x0, x1 := clampInt(int(minX)-2, 0, base.w), clampInt(int(maxX)+2, 0, base.w)
	y0, y1 := clampInt(int(minY)-2, 0, base.h), clampInt(int(maxY)+2, 0, base.h)
	inv := st.cam.RealmToImage.Inverse()
	parallelRows(y1-y0, func(k int) {
		y := y0 + k
		for x := x0; x < x1; x++ {
			mx, my := inv.Apply(float64(x), float64(y))
			r, g, b := st.colourAt(mx, my)
			i := (y*base.w + x) * 3
			out.pix[i], out.pix[i+1], out.pix[i+2] = float32(r), float32(g), float32(b)
		}
	})
	return out
}

// shiftImage moves the image by a sub-pixel offset (bilinear).
func shiftImage(src *floatImage, dx, dy float64) *floatImage {
	out := &floatImage{w: src.w, h: src.h, pix: make([]float32, len(src.pix))}
	fx, fy := math.Floor(dx), math.Floor(dy)
	u, v := float32(dx-fx), float32(dy-fy)
	ix, iy := int(fx), int(fy)
	w, h := src.w, src.h
	parallelRows(h, func(y int) {
		// Output (x, y) shows source (x - dx, y - dy).
		sy0 := clampInt(y-iy-1, 0, h-1)
		sy1 := clampInt(y-iy, 0, h-1)
		for x := 0; x < w; x++ {
			sx0 := clampInt(x-ix-1, 0, w-1)
			sx1 := clampInt(x-ix, 0, w-1)
			i00, i10 := (sy0*w+sx0)*3, (sy0*w+sx1)*3
			i01, i11 := (sy1*w+sx0)*3, (sy1*w+sx1)*3
			o := (y*w + x) * 3
			for c := 0; c < 3; c++ {
				top := src.pix[i00+c]*u + src.pix[i10+c]*(1-u)
				bot := src.pix[i01+c]*u + src.pix[i11+c]*(1-u)
				out.pix[o+c] = top*v + bot*(1-v)
			}
		}
	})
	return out
}

// boardCells lists a board's cards by cell, bottom first.
func boardCells(b board) map[string][]BoardCard {
	out := map[string][]BoardCard{}
	for _, p := range b.pieces {
		k := p.cell.String()
		out[k] = append(out[k], BoardCard{Name: p.card.Name, Owner: p.owner, Tapped: p.tapped})
	}
	return out
}

// writeGameTruth writes truth.json with one frame per line, so that the file
// stays small and readable.
func writeGameTruth(path string, t *GameTruth) error {
	frames := t.PerFrame
	t.PerFrame = nil
	head, err := json.MarshalIndent(t, "", "  ")
	t.PerFrame = frames
	if err != nil {
		return fmt.Errorf("synth: game truth: %w", err)
	}
	// Replace the trailing `"frames": null` with one line per frame.
	idx := bytes.LastIndex(head, []byte(`"frames": null`))
	if idx < 0 {
		return fmt.Errorf("synth: game truth: unexpected layout")
	}
	var b bytes.Buffer
	b.Write(head[:idx])
	b.WriteString("\"frames\": [\n")
	for i, f := range frames {
		line, err := json.Marshal(f)
		if err != nil {
			return fmt.Errorf("synth: game truth: %w", err)
		}
		b.WriteString("    ")
		b.Write(line)
		if i < len(frames)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("  ]\n}\n")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("synth: game truth: %w", err)
	}
	return nil
}

// writeEvents writes events.jsonl: game_start, then the game's events.
func writeEvents(path string, t *GameTruth) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("synth: %w", err)
	}
	w := bufio.NewWriter(f)
	start := models.Event{Type: models.GameStart, First: models.South,
		South: &models.Seat{Avatar: t.South, Cell: models.CellPtr(models.Cell{Col: 2, Row: 0})},
		North: &models.Seat{Avatar: t.North, Cell: models.CellPtr(models.Cell{Col: 2, Row: 3})}}
	for _, e := range append([]models.Event{start}, t.Events...) {
		line, err := json.Marshal(e)
		if err != nil {
			f.Close()
			return fmt.Errorf("synth: %w", err)
		}
		w.Write(line)
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("synth: %w", err)
	}
	return f.Close()
}
