package live

import (
	"context"
	"fmt"
	"io"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/pipeline"
	"github.com/tablecam/tablecam/ui"
)

// Feed is a running pipeline as the overlay sees it: updates to show, a
// controller for what the players type. *pipeline.Session is one.
type Feed interface {
	ui.Controller
	Updates() <-chan models.Update
	Wait() error
}

// Game is a game running for the overlay: the pipeline's feed, the catalog
// it names cards from, and what happened before when it resumes a game.
type Game struct {
	Feed    Feed
	Catalog *models.Catalog
	// History is what the overlay shows of a resumed game's past (nothing for a new game).
	History Resumed
}

// OverlayOptions gives the overlay's options for the flags o, playing cues on sound.
func (g *Game) OverlayOptions(o Options, sound ui.Sound) ui.Options {
	mode := ui.Normal
	if o.Stream {
		mode = ui.Stream
	}
	return ui.Options{Catalog: g.Catalog, Sound: sound, Mode: mode, Background: o.Background(), Volume: o.Volume, Muted: o.Mute,
		History: g.History.Events, Warnings: g.History.Warnings}
}

// Start loads the catalog and the calibration named by o and starts the
// pipeline. With o.Resume it first reads the last events of the game to
// resume, for the overlay to list.
func Start(ctx context.Context, o Options, log io.Writer) (*Game, error) {
	cat, err := models.LoadCatalog(o.Catalog)
	if err != nil {
		return nil, err
	}
	cfg := pipeline.Config{
		Video: o.Video, Camera: o.Camera, Frames: o.Frames, Catalog: cat, Journal: o.Journal, Resume: o.Resume,
		Realtime: !o.Fast, WithImages: true, Log: log,
	}
	if o.Calibration != "" {
		if cfg.Calibration, err = calibration.Load(o.Calibration); err != nil {
			return nil, err
		}
	}
	if o.Corners != "" {
		q, err := calibration.ParseCorners(o.Corners)
		if err != nil {
			return nil, fmt.Errorf("--corners: %w", err)
		}
		cfg.Corners = &q
	}
	if cfg.Geometry, err = o.Geometry(); err != nil {
		return nil, err
	}
	g := &Game{Catalog: cat}
	if o.Resume && o.Journal != "" {
		// Before the pipeline adds to the journal.
		if g.History, err = History(o.Journal, cat, HistoryLength); err != nil {
			return nil, err
		}
	}
	s, err := pipeline.Start(ctx, cfg)
	if err != nil {
		return nil, err
	}
	g.Feed = s
	return g, nil
}
