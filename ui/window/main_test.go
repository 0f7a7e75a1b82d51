package window

import (
	"os"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
)

// runner is an Ebiten game that runs the package's tests on its loop: a test
// hands it functions through onLoop, and they run inside Update, where
// drawing to images and reading their pixels back is allowed.
type runner struct {
	m       *testing.M
	code    int
	started bool
}

// jobs carries the tests' functions onto the game loop.
var jobs = make(chan func(), 1)

func (r *runner) Update() error {
	if !r.started {
		r.started = true
		go func() {
			r.code = r.m.Run()
			close(jobs)
		}()
	}
	for {
		select {
		case f, ok := <-jobs:
			if !ok {
				return ebiten.Termination
			}
			f()
		default:
			return nil
		}
	}
}

func (r *runner) Draw(*ebiten.Image)         {}
func (r *runner) Layout(w, h int) (int, int) { return 320, 180 }

// onLoop runs f on the game loop and waits for it.
func onLoop(f func()) {
	done := make(chan struct{})
	jobs <- func() { defer close(done); f() }
	<-done
}

// TestMain opens a real window (under Xvfb in `make test`) and runs the tests inside its loop.
func TestMain(m *testing.M) {
	ebiten.SetWindowTitle("tablecam window tests")
	ebiten.SetRunnableOnUnfocused(true)
	r := &runner{m: m}
	if err := ebiten.RunGame(r); err != nil && err != ebiten.Termination {
		panic(err)
	}
	os.Exit(r.code)
}
