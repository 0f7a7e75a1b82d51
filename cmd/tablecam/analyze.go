package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/pipeline"
	"github.com/tablecam/tablecam/vision"
	"gocv.io/x/gocv"
)

// analyzeFlags are the options of "tablecam analyze".
type analyzeFlags struct {
	catalog, corners, calibration, debug, cache string
	json, noCache                               bool
	south                                       calibration.Side // from the --south and --north-at-bottom flags
	cellMM                                      string
	geometry                                    models.RealmGeometry // from cellMM; zero when not given
}

// runAnalyze finds the realm and reads every card in each image, printing
// one JSON object per image (--json) or a readable summary.
func runAnalyze(ctx context.Context, e env) int {
	fs := flag.NewFlagSet("analyze", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	var f analyzeFlags
	fs.StringVar(&f.catalog, "catalog", "", "card catalog: a cards.json or a directory with cards.json and images/ (default: the first one found)")
	fs.StringVar(&f.corners, "corners", "", `realm corners A1,E1,E4,A4 in image pixels: "x,y x,y x,y x,y"`)
	fs.StringVar(&f.calibration, "calibration", "", "calibration JSON saved by \"tablecam calibrate\"")
	fs.StringVar(&f.cellMM, "cell-mm", "", "the playmat's realm cell size WxH in millimetres (default 100x75, or the calibration's; learned from the cards when they show another)")
	southF := addSouthFlags(fs)
	fs.StringVar(&f.debug, "debug", "", "write an annotated copy of each image to this directory")
	fs.BoolVar(&f.json, "json", false, "print one JSON object per image (JSON lines)")
	fs.StringVar(&f.cache, "cache", "", "directory of the catalog index cache, which keeps the indexes of the 6 catalogs used last (default: the user cache directory)")
	fs.BoolVar(&f.noCache, "no-cache", false, "neither read nor write the catalog index cache")
	fs.Usage = func() {
		fmt.Fprintln(e.stderr, "usage: tablecam analyze [--catalog DIR] [--corners \"x,y x,y x,y x,y\" | --calibration FILE] [--south bottom|top|left|right | --north-at-bottom] [--debug OUTDIR] [--json] IMAGE…")
		fs.PrintDefaults()
	}
	if err := fs.Parse(e.args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	images := fs.Args()
	if len(images) == 0 {
		fmt.Fprintln(e.stderr, "tablecam analyze: no images given")
		fs.Usage()
		return 2
	}
	south, err := southF.side()
	if err != nil {
		fmt.Fprintf(e.stderr, "tablecam analyze: %v\n", err)
		return 2
	}
	f.south = south
	if f.cellMM != "" {
		g, err := models.ParseCellMM(f.cellMM)
		if err != nil {
			fmt.Fprintf(e.stderr, "tablecam analyze: --cell-mm: %v\n", err)
			return 2
		}
		f.geometry = g
	}
	var corners *models.Quad
	if f.corners != "" {
		q, err := calibration.ParseCorners(f.corners)
		if err != nil {
			fmt.Fprintf(e.stderr, "tablecam analyze: --corners: %v\n", err)
			return 2
		}
		corners = &q
	}
	var saved *calibration.Calibration
	if f.calibration != "" {
		if corners != nil {
			fmt.Fprintln(e.stderr, "tablecam analyze: give --corners or --calibration, not both")
			return 2
		}
		c, err := calibration.Load(f.calibration)
		if err != nil {
			fmt.Fprintf(e.stderr, "tablecam analyze: %v\n", err)
			return 2
		}
		saved = c
	}
	if f.debug != "" {
		if err := os.MkdirAll(f.debug, 0o755); err != nil {
			fmt.Fprintf(e.stderr, "tablecam analyze: --debug: %v\n", err)
			return 2
		}
	}
	cat, err := openFaceCatalog(f.catalog, e.stderr)
	if err != nil {
		fmt.Fprintf(e.stderr, "tablecam analyze: %v\n", err)
		return 2
	}
	an, err := vision.NewAnalyzer(cat, vision.Options{CacheDir: f.cache, NoCache: f.noCache, Progress: e.stderr, NoReuse: true})
	if err != nil {
		fmt.Fprintf(e.stderr, "tablecam analyze: %v\n", err)
		return 2
	}
	defer an.Close()

	// Each image is read and its realm found on every core at once (up to
	// seconds an image); the analyzer reads them, and their results are
	// printed, one at a time in the order given.
	code := 0
	prepare := func(path string) preparedImage { return prepareImage(path, corners, saved, f) }
	done := inOrder(ctx, images, runtime.GOMAXPROCS(0), prepare, func(path string, p preparedImage) bool {
		defer p.close()
		res, err := analyzeImage(an, path, p, f)
		if err != nil {
			fmt.Fprintf(e.stderr, "tablecam analyze: %v\n", err)
			code = 2
			return true
		}
		if !res.obs.Mat.Found && code == 0 {
			code = 1
		}
		if f.json {
			if err := writeAnalysisJSON(e.stdout, res.obs); err != nil {
				fmt.Fprintf(e.stderr, "tablecam analyze: %v\n", err)
				code = 1
				return false
			}
		} else {
			writeAnalysisText(e.stdout, res)
		}
		if res.problem != nil {
			fmt.Fprintf(e.stderr, "tablecam analyze: %s: %v\n", path, res.problem)
		}
		if f.json && res.cells != "" {
			fmt.Fprintf(e.stderr, "tablecam analyze: %s: %s\n", path, res.cells)
		}
		return true
	}, preparedImage.close)
	if !done {
		return 1 // interrupted, or the output failed
	}
	return code
}

// analysis is what analyzeImage found in one image.
type analysis struct {
	obs     models.FrameObservation
	method  string // how the realm was found
	problem error  // why the realm was not found, when it was not
	debug   string // annotated copy written
	cells   string // the cell size the cards showed, when the calibration states another
}

// preparedImage is an image read, and its calibration (nil when its realm
// was not found: problem says why), ready for the analyzer; err is why
// the image could not be read.
type preparedImage struct {
	frame   gocv.Mat
	cal     *calibration.Calibration
	problem error
	err     error
}

func (p preparedImage) close() {
	if p.err == nil {
		p.frame.Close()
	}
}

// prepareImage reads the image at path and finds its realm: from corners
// or the saved calibration when given, else by calibration.Detect. It
// needs nothing from other images, so images are prepared at once.
func prepareImage(path string, corners *models.Quad, saved *calibration.Calibration, f analyzeFlags) preparedImage {
	if _, err := os.Stat(path); err != nil {
		return preparedImage{err: err}
	}
	frame, err := pipeline.ReadImage(path)
	if err != nil {
		return preparedImage{err: err}
	}
	p := preparedImage{frame: frame}
	switch {
	case corners != nil:
		p.cal, err = calibration.FromCorners(*corners, frame.Cols(), frame.Rows())
		if err != nil {
			frame.Close()
			return preparedImage{err: fmt.Errorf("%s: --corners: %w", path, err)}
		}
		p.cal.South = f.south
	case saved != nil:
		c := *saved
		p.cal = &c
	default:
		p.cal, err = calibration.Detect(frame, calibration.Options{South: f.south, Geometry: f.geometry})
		if err != nil {
			p.problem = fmt.Errorf("realm not found: %w (give --corners)", err)
		}
	}
	if cal := p.cal; cal != nil && f.geometry != (models.RealmGeometry{}) && cal.Geometry != f.geometry {
		// Stated by the user: over the default of corners and over a saved
		// calibration's. A new value, not cal with Geometry changed: a
		// calibration caches its transforms, which depend on it.
		p.cal = &calibration.Calibration{Corners: cal.Corners, ImageWidth: cal.ImageWidth, ImageHeight: cal.ImageHeight,
			South: cal.South, Geometry: f.geometry, Method: cal.Method, Reference: cal.Reference, Score: cal.Score}
	}
	return p
}

// analyzeImage reads the cards of the image at path, prepared by
// prepareImage, and writes its annotated copy when asked to.
func analyzeImage(an *vision.Analyzer, path string, p preparedImage, f analyzeFlags) (analysis, error) {
	if p.err != nil {
		return analysis{}, p.err
	}
	frame, cal := p.frame, p.cal
	res := analysis{obs: models.FrameObservation{Image: path, Cards: []models.CardObservation{}}, problem: p.problem}
	if cal != nil {
		res.method = cal.Method
		obs, err := an.Analyze(frame, cal)
		if err != nil {
			return analysis{}, fmt.Errorf("%s: %w", path, err)
		}
		if g := an.Geometry(cal.Geometry); g != cal.Geometry {
			res.cells = fmt.Sprintf("the cards show realm cells of %v mm, not %v: read by them (state the size with --cell-mm)", g, cal.Geometry)
		}
		obs.Image = path
		res.obs = obs
	}
	if f.debug != "" {
		out := vision.Annotate(frame, res.obs, cal)
		defer out.Close()
		base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
		res.debug = filepath.Join(f.debug, base+".annotated.jpg")
		if !gocv.IMWrite(res.debug, out) {
			return res, fmt.Errorf("%s: cannot write %s", path, res.debug)
		}
	}
	return res, nil
}

// analysisJSON is the JSON shape of one analysed image.
type analysisJSON struct {
	Image    string             `json:"image"`
	Mat      analyzedMatJSON    `json:"mat"`
	Occluded bool               `json:"occluded"`
	Cards    []analyzedCardJSON `json:"cards"`
}

type analyzedMatJSON struct {
	Found   bool         `json:"found"`
	Corners *models.Quad `json:"corners"`
}

type analyzedCardJSON struct {
	Cell       *models.Cell    `json:"cell"`
	Name       *string         `json:"name"`
	Type       *string         `json:"type"`
	Kind       models.CardKind `json:"kind"`
	Token      bool            `json:"token"`
	Owner      models.Player   `json:"owner"`
	Rotation   models.Rotation `json:"rotation"`
	Tapped     bool            `json:"tapped"`
	Quad       models.Quad     `json:"quad"`
	Confidence float64         `json:"confidence"`
}

func writeAnalysisJSON(w io.Writer, obs models.FrameObservation) error {
	out := analysisJSON{Image: obs.Image, Mat: analyzedMatJSON{Found: obs.Mat.Found, Corners: obs.Mat.Corners}, Occluded: obs.Occluded, Cards: []analyzedCardJSON{}}
	for _, c := range obs.Cards {
		out.Cards = append(out.Cards, analyzedCardJSON{Cell: c.Cell, Name: c.Name, Type: c.Type, Kind: c.Kind, Token: c.Token, Owner: c.Owner,
			Rotation: c.Rotation, Tapped: c.Tapped, Quad: c.Quad, Confidence: c.Confidence})
	}
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

func writeAnalysisText(w io.Writer, res analysis) {
	obs := res.obs
	if !obs.Mat.Found {
		fmt.Fprintf(w, "%s: realm not found\n", obs.Image)
		return
	}
	occ := ""
	if obs.Occluded {
		occ = ", OCCLUDED (a hand or object covers the realm)"
	}
	fmt.Fprintf(w, "%s: realm found (%s), %d card(s)%s\n", obs.Image, res.method, len(obs.Cards), occ)
	if res.cells != "" {
		fmt.Fprintf(w, "  %s\n", res.cells)
	}
	for _, c := range obs.Cards {
		cell := "off"
		if c.Cell != nil {
			cell = c.Cell.String()
		}
		name := c.NameOr("(unknown card)")
		typ := string(c.Kind)
		if c.Type != nil {
			typ = *c.Type
		}
		if c.Token {
			typ += " token"
		}
		state := "untapped"
		if c.Tapped {
			state = "tapped"
		}
		fmt.Fprintf(w, "  %-4s %-24s %-14s %-6s %-8s %3d°  %.2f\n", cell, name, typ, c.Owner, state, c.Rotation, c.Confidence)
	}
	if res.debug != "" {
		fmt.Fprintf(w, "  annotated: %s\n", res.debug)
	}
}
