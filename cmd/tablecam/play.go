package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

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
		return runOverlay(ctx, e, o)
	}
	fmt.Fprintln(e.stdout, "tablecam: no display (DISPLAY and WAYLAND_DISPLAY are unset): running headless, without the window")
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

// runOverlay runs tablecam-overlay from beside this executable with the flags.
func runOverlay(ctx context.Context, e env, o live.Options) int {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(e.stderr, "tablecam:", err)
		return 1
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	path := filepath.Join(filepath.Dir(exe), overlayBinary)
	if _, err := os.Stat(path); err != nil {
		fmt.Fprintf(e.stderr, "tablecam: the overlay window %s is missing: build it with make build\n", path)
		return 1
	}
	cmd := exec.CommandContext(ctx, path, o.Args()...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = e.stdin, e.stdout, e.stderr
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit) && exit.ExitCode() > 0:
		return exit.ExitCode()
	case ctx.Err() != nil:
		return 0
	}
	fmt.Fprintln(e.stderr, "tablecam:", err)
	return 1
}
