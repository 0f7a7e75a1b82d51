// Command tablecam-overlay is the overlay window. It is a separate binary
// because Ebiten cannot be linked into a program that must also run without a
// display: tablecam starts it when a display is present.
//
// It takes the main job's flags (tablecam-overlay -h lists them): with none
// it plays the bundled sample game.
//
// When $TABLECAM_READY_FD names an open file descriptor (tablecam passes
// one), the overlay writes a line to it and closes it once its window has
// drawn its first frame. tablecam holds the overlay's messages back until
// then, so that a display that cannot be opened (Ebiten stops the program
// before main with a panic) ends in one clear line instead of a stack trace.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"syscall"

	"github.com/tablecam/tablecam/ui"
	"github.com/tablecam/tablecam/ui/audio"
	"github.com/tablecam/tablecam/ui/live"
	"github.com/tablecam/tablecam/ui/window"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run is the overlay: 0 when the window was closed, 1 on failure, 2 on bad flags.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var o live.Options
	fs := live.NewFlagSet("tablecam-overlay", &o, stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "tablecam-overlay: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if err := o.Check(); err != nil {
		fmt.Fprintln(stderr, "tablecam-overlay:", err)
		return 2
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	game, err := live.Start(ctx, o, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "tablecam-overlay:", err)
		return 1
	}
	player := audio.Open(stderr)
	defer player.Close()
	ov := ui.NewOverlay(game.Feed, game.OverlayOptions(o, player))
	w, h, _ := o.Dimensions() // checked by o.Check
	cfg := window.Config{Title: "tablecam", Width: w, Height: h, Overlay: ov, Updates: game.Feed.Updates(), Stream: o.Stream,
		Screenshot: o.Screenshot, ScreenshotAfter: o.ScreenshotAfter, Shown: readySignal(os.Getenv(live.ReadyFDVariable))}
	if o.SnapshotEvery > 0 {
		dir := o.Out
		if dir == "" {
			dir = live.DefaultSnapshotDir
		}
		snaps, err := live.NewSnapshots(dir, o.SnapshotEvery, w, h)
		if err != nil {
			fmt.Fprintln(stderr, "tablecam-overlay:", err)
			return 1
		}
		cfg.OnUpdate = func(v ui.View) {
			if snaps.Due(v.Update.Frame) {
				if _, err := snaps.Write(v); err != nil {
					fmt.Fprintln(stderr, "tablecam-overlay:", err)
				}
			}
		}
		defer func() { fmt.Fprintf(stdout, "wrote %d snapshots to %s\n", snaps.Written, dir) }()
	}
	werr := window.Run(ctx, cfg)
	cancel()
	if err := game.Feed.Wait(); err != nil && werr == nil {
		werr = err
	}
	if werr != nil {
		fmt.Fprintln(stderr, "tablecam-overlay:", werr)
		return 1
	}
	if o.Screenshot != "" {
		fmt.Fprintln(stdout, "wrote", o.Screenshot)
	}
	return 0
}

// readySignal gives the window's Shown hook for the descriptor named by fd
// ("" or not a number: no hook).
func readySignal(fd string) func() {
	n, err := strconv.Atoi(fd)
	if fd == "" || err != nil || n < 3 {
		return nil
	}
	return func() {
		f := os.NewFile(uintptr(n), "ready")
		if f == nil {
			return
		}
		fmt.Fprintln(f, "shown")
		f.Close()
	}
}
