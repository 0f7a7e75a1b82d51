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

	"github.com/tablecam/tablecam/ui/live"
)

// overlayBinary is the overlay window's program, built beside tablecam.
const overlayBinary = "tablecam-overlay"

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
	if err := o.Check(); err != nil {
		fmt.Fprintln(e.stderr, "tablecam:", err)
		return 2
	}
	if hasDisplay() {
		code, noWindow := runOverlay(ctx, e, o)
		if !noWindow {
			return code
		}
		fmt.Fprintln(e.stdout, "tablecam: the overlay could not open a window on this display: running headless, without the window")
	} else {
		fmt.Fprintln(e.stdout, "tablecam: no display (DISPLAY and WAYLAND_DISPLAY are unset): running headless, without the window")
	}
	// Nobody watches a headless run: read a recorded game as fast as it can be analysed.
	o.Fast = true
	feed, cat, err := live.Start(ctx, o, e.stderr)
	if err != nil {
		fmt.Fprintln(e.stderr, "tablecam:", err)
		return 1
	}
	if err := live.Headless(ctx, o, feed, cat, e.stdout, e.stderr); err != nil {
		fmt.Fprintln(e.stderr, "tablecam:", err)
		return 1
	}
	return 0
}

// hasDisplay reports whether a window can be opened.
func hasDisplay() bool { return os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != "" }

// runOverlay runs tablecam-overlay from beside this executable with the
// flags. noWindow reports that it failed because no window could be opened
// (a DISPLAY that points nowhere), so the caller can run headless instead.
func runOverlay(ctx context.Context, e env, o live.Options) (code int, noWindow bool) {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(e.stderr, "tablecam:", err)
		return 1, false
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	path := filepath.Join(filepath.Dir(exe), overlayBinary)
	if _, err := os.Stat(path); err != nil {
		fmt.Fprintf(e.stderr, "tablecam: the overlay window %s is missing: build it with make build\n", path)
		return 1, false
	}
	var tail tailBuffer
	cmd := exec.CommandContext(ctx, path, o.Args()...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = e.stdin, e.stdout, io.MultiWriter(e.stderr, &tail)
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0, false
	case ctx.Err() != nil:
		return 0, false
	case errors.As(err, &exit) && exit.ExitCode() > 0:
		return exit.ExitCode(), cannotOpenWindow(tail.String())
	}
	fmt.Fprintln(e.stderr, "tablecam:", err)
	return 1, false
}

// cannotOpenWindow recognizes, in the overlay's last words, the failures of
// a display that cannot be reached (Ebiten stops at start-up with GLFW's error).
func cannotOpenWindow(stderr string) bool {
	for _, sign := range []string{"glfw:", "Failed to open display", "DISPLAY environment variable"} {
		if strings.Contains(stderr, sign) {
			return true
		}
	}
	return false
}

// tailBuffer keeps the last 8 KiB written to it.
type tailBuffer struct{ b []byte }

func (t *tailBuffer) Write(p []byte) (int, error) {
	const keep = 8 << 10
	t.b = append(t.b, p...)
	if len(t.b) > keep {
		t.b = append([]byte(nil), t.b[len(t.b)-keep:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string { return string(t.b) }
