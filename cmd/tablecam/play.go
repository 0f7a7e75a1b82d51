package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/tablecam/tablecam/tracker"
	"github.com/tablecam/tablecam/ui/live"
)

// overlayBinary is the overlay window's program, built beside tablecam.
const overlayBinary = "tablecam-overlay"

// overlayStopDelay is how long a stopped overlay gets to close its journal
// before it is killed.
const overlayStopDelay = 10 * time.Second

// runPlay is the main job: the sample game (or --camera N, --video FILE) in
// the overlay with sound. With a display it runs tablecam-overlay, found
// beside this executable, passing the flags on; with none it says so and
// runs headless, writing snapshots of the overlay to a folder it names.
func runPlay(ctx context.Context, e env) int {
	var o live.Options
	fs := live.NewFlagSet("tablecam", &o, e.stderr)
	if err := fs.Parse(e.args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.stderr, "tablecam: unexpected argument %q (tablecam help lists the commands)\n", fs.Arg(0))
		return 2
	}
	journalNamed := o.Journal != ""
	if err := o.Check(); err != nil {
		fmt.Fprintln(e.stderr, "tablecam:", err)
		return 2
	}
	switch {
	case o.Resume:
		fmt.Fprintf(e.stderr, "tablecam: resuming the game in %s\n", o.Journal)
	case !journalNamed:
		if dir, err := tracker.DefaultJournalDir(); err == nil {
			if unfinished, _ := tracker.Unfinished(dir); len(unfinished) > 0 {
				fmt.Fprintf(e.stderr, "tablecam: a game a crash interrupted is in %s; starting a new one (tablecam --resume continues that one)\n", unfinished[0])
			}
		}
	}
	if hasDisplay() {
		if o.Journal == "" {
			// Name the game's journal here, so that when the overlay
			// fails after it has begun the game, the headless run below
			// continues that game instead of starting a second journal.
			if dir, err := tracker.DefaultJournalDir(); err == nil {
				o.Journal = tracker.NewJournalPath(dir, time.Now())
			}
		}
		_, err := os.Stat(o.Journal)
		journalBefore := err == nil
		code, noWindow := runOverlay(ctx, e, o)
		if noWindow == "" {
			return code
		}
		fmt.Fprintf(e.stdout, "tablecam: the overlay could not open a window on display %q (%s): running headless, without the window\n", displayName(), noWindow)
		if _, err := os.Stat(o.Journal); o.Journal != "" && err == nil && !journalBefore && !o.Resume {
			fmt.Fprintf(e.stdout, "tablecam: continuing the game the overlay began in %s\n", o.Journal)
			o.Resume = true
		}
	} else {
		fmt.Fprintln(e.stdout, "tablecam: no display (DISPLAY and WAYLAND_DISPLAY are unset): running headless, without the window")
	}
	// Nobody watches a headless run: read a recorded game as fast as it can be analysed.
	o.Fast = true
	game, err := live.Start(ctx, o, e.stderr)
	if err != nil {
		fmt.Fprintln(e.stderr, "tablecam:", err)
		return 1
	}
	if err := live.Headless(ctx, o, game, e.stdout, e.stderr); err != nil {
		fmt.Fprintln(e.stderr, "tablecam:", err)
		return 1
	}
	return 0
}

// hasDisplay reports whether a window can be opened.
func hasDisplay() bool { return os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != "" }

// displayName is the display the overlay would open.
func displayName() string {
	if d := os.Getenv("DISPLAY"); d != "" {
		return d
	}
	return os.Getenv("WAYLAND_DISPLAY")
}

// runOverlay runs tablecam-overlay from beside this executable with the
// flags. The overlay's messages are held back until its window is shown
// (it says so on a pipe, see tablecam-overlay's doc): when it fails before
// that because no window could be opened (a DISPLAY that points nowhere),
// its crash is not shown, and noWindow gives the reason, so that the caller
// can say it in one line and run headless instead.
func runOverlay(ctx context.Context, e env, o live.Options) (code int, noWindow string) {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(e.stderr, "tablecam:", err)
		return 1, ""
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	path := filepath.Join(filepath.Dir(exe), overlayBinary)
	if _, err := os.Stat(path); err != nil {
		fmt.Fprintf(e.stderr, "tablecam: the overlay window %s is missing: build it with make build\n", path)
		return 1, ""
	}
	return startOverlay(ctx, e, path, o.Args())
}

// startOverlay runs the overlay program at path; see runOverlay.
func startOverlay(ctx context.Context, e env, path string, args []string) (code int, noWindow string) {
	ready, readyW, err := os.Pipe()
	if err != nil {
		fmt.Fprintln(e.stderr, "tablecam:", err)
		return 1, ""
	}
	defer ready.Close()
	held := &heldWriter{w: e.stderr}
	cmd := exec.CommandContext(ctx, path, args...)
	// Stopped (Ctrl+C, SIGTERM), the overlay is asked to finish as it would
	// itself, closing the game's journal, rather than killed.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = overlayStopDelay
	cmd.Stdin, cmd.Stdout, cmd.Stderr = e.stdin, e.stdout, held
	cmd.ExtraFiles = []*os.File{readyW} // descriptor 3 in the overlay
	cmd.Env = append(os.Environ(), live.ReadyFDVariable+"=3")
	err = cmd.Start()
	readyW.Close()
	if err != nil {
		fmt.Fprintln(e.stderr, "tablecam:", err)
		return 1, ""
	}
	shown := make(chan struct{})
	go func() {
		defer close(shown)
		var b [16]byte
		if n, _ := ready.Read(b[:]); n > 0 {
			held.release()
		}
	}()
	err = cmd.Wait()
	<-shown
	var exit *exec.ExitError
	switch {
	case err == nil:
		held.release()
		return 0, ""
	case ctx.Err() != nil:
		held.release()
		return 0, ""
	case errors.As(err, &exit) && exit.ExitCode() > 0:
		if why := cannotOpenWindow(held.heldBack()); why != "" {
			return exit.ExitCode(), why
		}
		held.release()
		return exit.ExitCode(), ""
	}
	held.release()
	fmt.Fprintln(e.stderr, "tablecam:", err)
	return 1, ""
}

// cannotOpenWindow finds, in what the overlay wrote before its window was
// shown, the failure of a display that cannot be used (Ebiten stops at
// start-up with GLFW's error), and gives GLFW's reason; "" for none.
func cannotOpenWindow(stderr string) string {
	for _, line := range strings.Split(stderr, "\n") {
		line = strings.TrimSpace(strings.TrimPrefix(line, "panic:"))
		if why, ok := strings.CutPrefix(line, "glfw: "); ok {
			return strings.TrimSuffix(why, ": a platform-specific error occurred")
		}
	}
	for _, sign := range []string{"Failed to open display", "DISPLAY environment variable"} {
		if strings.Contains(stderr, sign) {
			return sign
		}
	}
	return ""
}

// heldWriter holds back what is written to it until release, then passes
// it on to w (what was held first).
type heldWriter struct {
	mu       sync.Mutex
	w        io.Writer
	held     []byte
	released bool
}

func (h *heldWriter) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.released {
		return h.w.Write(p)
	}
	h.held = append(h.held, p...)
	return len(p), nil
}

// release writes what was held back and lets what follows through.
func (h *heldWriter) release() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.released {
		return
	}
	h.released = true
	h.w.Write(h.held)
	h.held = nil
}

// heldBack is what has been held back so far.
func (h *heldWriter) heldBack() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return string(h.held)
}
