package window

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/ui"
)

// Config sets up the window.
type Config struct {
	Title string
	// Width and Height are the window's starting size (default 1280×720).
	Width, Height int
	// Overlay holds the overlay's state; Updates feeds it.
	Overlay *ui.Overlay
	Updates <-chan models.Update
	// Stream opens a borderless window for capture; with a transparent
	// background (the overlay's View.Background alpha 0) the window is transparent.
	Stream bool
	// Screenshot, when set, writes the window's screen to this PNG file once
	// ScreenshotAfter updates have been shown (at least one frame), then closes the window.
	Screenshot      string
	ScreenshotAfter int
	// OnUpdate, when set, is called with the overlay's view after each
	// update is received (for snapshots).
	OnUpdate func(v ui.View)
	// Input replaces Ebiten's keyboard and mouse (tests).
	Input InputSource
	// Clock gives the overlay's time in seconds (default: time since start).
	Clock func() float64
	// Shown, when set, is called once, after the first frame has been drawn:
	// the window is open (tablecam waits for it before passing the overlay's
	// messages on, so that a display that cannot be used fails quietly).
	Shown func()
}

// Game is the Ebiten game: Update takes updates and input into the overlay,
// Draw paints the overlay's view and uploads it.
type Game struct {
	ctx     context.Context
	cfg     Config
	painter *ui.Painter
	frame   *image.RGBA
	img     *ebiten.Image
	input   InputSource
	clock   func() float64
	ended   bool
	opened  bool
	shown   int
	drawn   int
	shotErr error
	done    bool
	// dirty says an update or input arrived since the last paint; painted
	// is when the last paint happened.
	dirty   bool
	painted float64
}

// repaintEvery is the longest a frame goes unpainted while nothing happens
// (pulses, call-outs and the caret still move at this rate).
const repaintEvery = 1.0 / 30

// NewGame makes the game for cfg; Run runs it in a window.
func NewGame(ctx context.Context, cfg Config) *Game {
	if cfg.Width <= 0 || cfg.Height <= 0 {
		cfg.Width, cfg.Height = 1280, 720
	}
	g := &Game{ctx: ctx, cfg: cfg, painter: ui.NewPainter(), input: cfg.Input, clock: cfg.Clock}
	if g.input == nil {
		g.input = &ebitenInput{}
	}
	if g.clock == nil {
		start := time.Now()
		g.clock = func() float64 { return time.Since(start).Seconds() }
	}
	g.resize(cfg.Width, cfg.Height)
	return g
}

// Run opens the window and runs until it is closed, ctx is done, or a
// screenshot has been written.
func Run(ctx context.Context, cfg Config) error {
	g := NewGame(ctx, cfg)
	ebiten.SetWindowTitle(cfg.Title)
	ebiten.SetWindowIcon([]image.Image{ui.AppIcon(16), ui.AppIcon(32), ui.AppIcon(64)})
	ebiten.SetWindowSize(g.cfg.Width, g.cfg.Height)
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	ebiten.SetRunnableOnUnfocused(true)
	ebiten.SetScreenClearedEveryFrame(false)
	opts := &ebiten.RunGameOptions{}
	if cfg.Stream {
		ebiten.SetWindowDecorated(false)
		opts.ScreenTransparent = cfg.Overlay.View(0).Background.A == 0
	}
	err := ebiten.RunGameWithOptions(g, opts)
	if errors.Is(err, ebiten.Termination) {
		err = nil
	}
	if err == nil {
		err = g.shotErr
	}
	return err
}

func (g *Game) resize(w, h int) {
	if g.frame != nil && g.frame.Rect.Dx() == w && g.frame.Rect.Dy() == h {
		return
	}
	g.frame = image.NewRGBA(image.Rect(0, 0, w, h))
	if g.img != nil {
		g.img.Deallocate()
		g.img = nil
	}
	g.cfg.Overlay.SetSize(g.frame.Rect)
}

// Update takes the updates waiting on the channel (without waiting for
// more) and the user's input.
func (g *Game) Update() error {
	if g.done || g.ctx.Err() != nil {
		return ebiten.Termination
	}
	now := g.clock()
	for !g.ended {
		select {
		case u, ok := <-g.cfg.Updates:
			if !ok {
				g.ended = true
				g.cfg.Overlay.Ended(now)
				continue
			}
			g.cfg.Overlay.Receive(u, now)
			g.shown++
			g.dirty = true
			if g.cfg.OnUpdate != nil {
				g.cfg.OnUpdate(g.cfg.Overlay.View(now))
			}
			continue
		default:
		}
		break
	}
	in := g.input.Poll(g.frame.Rect)
	if len(in.Chars) > 0 || len(in.Keys) > 0 || in.Click || in.Fullscreen || !samePoint(in.Mouse, g.cfg.Overlay.View(now).Mouse) {
		g.dirty = true
	}
	g.handle(in, now)
	return nil
}

func samePoint(a, b *image.Point) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

// handle passes one tick's input to the overlay.
func (g *Game) handle(in Input, now float64) {
	o := g.cfg.Overlay
	o.Mouse(in.Mouse)
	for _, k := range in.Keys {
		o.Key(k, in.Shift, now)
	}
	for _, r := range in.Chars {
		if o.Rune(r, now) == ui.ToggleFullscreen {
			in.Fullscreen = true
		}
	}
	if in.Click && in.Mouse != nil {
		o.Click(*in.Mouse, now)
	}
	if in.Fullscreen {
		ebiten.SetFullscreen(!ebiten.IsFullscreen())
	}
}

// Draw paints the overlay and uploads it to the screen. When nothing has
// happened it repaints at most 30 times a second: the screen keeps the last
// frame in between.
func (g *Game) Draw(screen *ebiten.Image) {
	now := g.clock()
	b := screen.Bounds()
	if g.dirty || now-g.painted >= repaintEvery || g.frame.Rect.Dx() != b.Dx() || g.frame.Rect.Dy() != b.Dy() || g.img == nil {
		g.DrawFrame(screen)
		g.dirty, g.painted = false, now
	}
	if !g.opened {
		g.opened = true
		if g.cfg.Shown != nil {
			g.cfg.Shown()
		}
	}
	if g.cfg.Screenshot != "" && g.shown >= max(1, g.cfg.ScreenshotAfter) && !g.done {
		g.drawn++
		if g.drawn >= 2 { // the frame after the update has been presented once
			g.shotErr = writeScreenshot(screen, g.cfg.Screenshot)
			g.done = true
		}
	}
}

// DrawFrame paints the overlay's current view onto dst.
func (g *Game) DrawFrame(dst *ebiten.Image) {
	b := dst.Bounds()
	g.resize(b.Dx(), b.Dy())
	if g.img == nil {
		g.img = ebiten.NewImage(b.Dx(), b.Dy())
	}
	g.painter.Paint(g.frame, g.cfg.Overlay.View(g.clock()))
	g.img.WritePixels(g.frame.Pix)
	dst.Clear()
	dst.DrawImage(g.img, nil)
}

// Layout paints at the window's size, so text stays sharp when it is resized.
func (g *Game) Layout(outsideWidth, outsideHeight int) (int, int) {
	return max(outsideWidth, 320), max(outsideHeight, 180)
}

// Frame is the last frame painted (before upload).
func (g *Game) Frame() *image.RGBA { return g.frame }

// writeScreenshot reads back the screen's pixels and writes them as a PNG.
func writeScreenshot(screen *ebiten.Image, path string) error {
	b := screen.Bounds()
	img := image.NewRGBA(b)
	screen.ReadPixels(img.Pix)
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("screenshot: %w", err)
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return fmt.Errorf("screenshot %s: %w", path, err)
	}
	return f.Close()
}
