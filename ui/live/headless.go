package live

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/ui"
	"github.com/tablecam/tablecam/ui/audio"
)

// Headless runs the overlay without a window: it follows the feed's
// updates, plays the cues when a sound device exists, and writes a snapshot
// every o.SnapshotEvery frames (default 30) into o.Out (default
// ./tablecam-snapshots). It returns when the feed ends or ctx is done.
func Headless(ctx context.Context, o Options, g *Game, stdout, stderr io.Writer) error {
	feed := g.Feed
	if o.SnapshotEvery <= 0 {
		o.SnapshotEvery = DefaultSnapshotEvery
	}
	if o.Out == "" {
		o.Out = DefaultSnapshotDir
	}
	w, h, err := o.Dimensions()
	if err != nil {
		return err
	}
	snaps, err := NewSnapshots(o.Out, o.SnapshotEvery, w, h)
	if err != nil {
		return err
	}
	player := audio.Open(stderr)
	defer player.Close()
	ov := ui.NewOverlay(feed, g.OverlayOptions(o, player))
	fmt.Fprintf(stdout, "writing a snapshot every %d frames to %s\n", o.SnapshotEvery, absOr(o.Out))
	start := time.Now()
	var last ui.View
	for {
		select {
		case <-ctx.Done():
			return finish(stdout, snaps, feed, last, ctx.Err())
		case u, ok := <-feed.Updates():
			now := time.Since(start).Seconds()
			if !ok {
				ov.Ended(now)
				last = ov.View(now)
				if snaps.Written == 0 || last.Update.Frame != snaps.last { // the final frame, unless just written
					if _, err := snaps.Write(last); err != nil {
						return err
					}
				}
				return finish(stdout, snaps, feed, last, nil)
			}
			ov.Receive(u, now)
			last = ov.View(now)
			if snaps.Due(u.Frame) {
				if _, err := snaps.Write(last); err != nil {
					return err
				}
			}
		}
	}
}

func finish(w io.Writer, snaps *Snapshots, feed Feed, last ui.View, err error) error {
	werr := feed.Wait()
	st := last.Update.State
	noun := "snapshots"
	if snaps.Written == 1 {
		noun = "snapshot"
	}
	fmt.Fprintf(w, "wrote %d %s to %s (last: frame %d, turn %d", snaps.Written, noun, absOr(snaps.Dir), last.Update.Frame, st.Turn)
	for _, pl := range models.Players {
		if ps, ok := st.Players[pl.String()]; ok && st.Turn > 0 {
			fmt.Fprintf(w, ", %s life %d", pl, ps.Life)
		}
	}
	fmt.Fprintln(w, ")")
	if err == nil {
		err = werr
	}
	if err == context.Canceled {
		err = nil
	}
	return err
}

func absOr(dir string) string {
	if wd, err := os.Getwd(); err == nil && len(dir) > 0 && dir[0] != '/' {
		return wd + "/" + dir
	}
	return dir
}
