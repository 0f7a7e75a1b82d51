package pipeline

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablecam/tablecam/calibration"
	"gocv.io/x/gocv"
)

// liveScript is scriptSource as a camera: live, its Read waiting at frame
// waitAt until gate is closed, and from there on giving a frame every
// cameraFrameGap, as a camera gives them at its frame rate.
type liveScript struct {
	*scriptSource
	waitAt int
	gate   chan struct{}
}

// cameraFrameGap is the fake camera's time between frames after its gate.
const cameraFrameGap = 3 * time.Millisecond

func (l *liveScript) Read(dst *gocv.Mat) (Frame, error) {
	l.mu.Lock()
	at := l.next
	l.mu.Unlock()
	switch {
	case at == l.waitAt:
		<-l.gate
	case at > l.waitAt:
		time.Sleep(cameraFrameGap)
	}
	return l.scriptSource.Read(dst)
}

func (l *liveScript) Live() bool { return true }

// A camera's frames keep coming while the realm is looked for: each is sent
// with "looking for the realm…" (the overlay does not freeze on the frame
// the search started on), the search runs once, not once a frame, and the
// realm it finds is taken with a later frame, whose cards are then read.
func TestRealmFoundBesideLiveFrames(t *testing.T) {
	src := &liveScript{scriptSource: &scriptSource{n: len(script())}, waitAt: 30, gate: make(chan struct{})}
	cfg := scriptConfig(t, src, filepath.Join(t.TempDir(), "j.jsonl"), &syncBuffer{})
	cfg.Corners = nil
	release := make(chan struct{})
	var searches atomic.Int32
	cfg.FindRealm = func(frame gocv.Mat, _ calibration.Options) (*calibration.Calibration, error) {
		searches.Add(1)
		<-release
		return calibration.FromCorners(corners, frame.Cols(), frame.Rows())
	}
	s, err := Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	looking, read := 0, 0
	timeout := time.After(20 * time.Second) // a guard against the loop waiting for the search, not a speed check
	for released := false; ; {
		select {
		case u, ok := <-s.Updates():
			if !ok {
				if err := s.Wait(); err != nil {
					t.Fatal(err)
				}
				if n := searches.Load(); n != 1 {
					t.Errorf("the realm was searched %d times, want once", n)
				}
				if read == 0 {
					t.Error("no frame was read once the realm was found")
				}
				return
			}
			switch {
			case u.Status == "looking for the realm…":
				looking++
			case u.State.Players != nil:
				read++
			}
			if !released && looking >= 10 {
				// Ten frames came while the search ran: let it end, and
				// the camera go on.
				released = true
				close(release)
				close(src.gate)
			}
		case <-timeout:
			t.Fatalf("the frame loop waited for the realm search: %d frames shown while it ran", looking)
		}
	}
}
