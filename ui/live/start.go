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

// Start loads the catalog and the calibration named by o and starts the pipeline.
func Start(ctx context.Context, o Options, log io.Writer) (Feed, *models.Catalog, error) {
	cat, err := models.LoadCatalog(o.Catalog)
	if err != nil {
		return nil, nil, err
	}
	cfg := pipeline.Config{
		Video: o.Video, Camera: o.Camera, Frames: o.Frames, Catalog: cat, Journal: o.Journal, Resume: o.Resume,
		Realtime: !o.Fast, WithImages: true, Log: log,
	}
	if o.Calibration != "" {
		if cfg.Calibration, err = calibration.Load(o.Calibration); err != nil {
			return nil, nil, err
		}
	}
	if o.Corners != "" {
		q, err := calibration.ParseCorners(o.Corners)
		if err != nil {
			return nil, nil, fmt.Errorf("--corners: %w", err)
		}
		cfg.Corners = &q
	}
	s, err := pipeline.Start(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	return s, cat, nil
}
