package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/schollz/progressbar/v3"
	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/samples"
	"github.com/tablecam/tablecam/synth"
)

// runSynth renders the sample catalog, still scenes or a recorded game.
func runSynth(ctx context.Context, e env) int {
	if len(e.args) == 0 || strings.HasPrefix(e.args[0], "-") {
		synthUsage(e.stderr)
		return 2
	}
	what := e.args[0]
	fs := flag.NewFlagSet("synth "+what, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	out := fs.String("out", "", "output `DIR` (required)")
	seed := fs.Int64("seed", 1, "random seed; the same seed gives the same output")
	count := fs.Int("count", 100, "number of scenes (scenes only)")
	catalogDir := fs.String("catalog", "", "catalog `DIR` (cards.json + images/, e.g. your own scans) to render scenes and games with; default: the bundled sample catalog")
	turns := fs.Int("turns", 0, "turns of the scripted game (game only; default 6)")
	frames := fs.Bool("frames", false, "also write every game frame as frames/NNNNN.jpg (game only)")
	quiet := fs.Bool("quiet", false, "no progress bar")
	style := fs.String("style", "sample", "how catalog faces are drawn: sample; poster (flat shapes on smooth gradients, little texture: a check that cards are found and named without the sample look); or fullart (art to the card's edges with no frame, as Sorcery prints its cards) (catalog only)")
	sleeves := fs.Float64("sleeves", 0, "chance `P` (0–1) that a hand's forearm is in a sleeve of some fabric, so that only the hand shows skin (scenes only)")
	borderless := fs.Bool("borderless", false, "print the mat's grid without its border: only the realm's inner lines, ending where the border would run (scenes only)")
	roll := fs.Float64("roll", 0, "turn the camera in the image plane by up to ±`DEG` degrees (up to 180: a camera at any angle around the mat); 0 means the default ±10 (scenes only)")
	objects := fs.Float64("objects", 0, "chance `P` (0–1) that a foreign object (phone, cup, dice bag, deck box, pen, sheet of paper, or an arm in a long sleeve) lies on the table, mostly partly over the realm (scenes only)")
	size := fs.String("size", "", "frame size `WxH` in pixels, e.g. 1280x720 (scenes and game; default 1280x720 for scenes, 960x540 for a game)")
	if err := fs.Parse(e.args[1:]); err != nil {
		return 2
	}
	if *out == "" {
		fmt.Fprintf(e.stderr, "tablecam synth %s: --out DIR is required\n", what)
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.stderr, "tablecam synth %s: unexpected argument %q\n", what, fs.Arg(0))
		return 2
	}
	if *count <= 0 || *turns < 0 {
		fmt.Fprintf(e.stderr, "tablecam synth %s: --count must be at least 1 and --turns not negative\n", what)
		return 2
	}
	faceStyle, err := synth.ParseFaceStyle(*style)
	if err != nil {
		fmt.Fprintf(e.stderr, "tablecam synth %s: --style: %v\n", what, err)
		return 2
	}
	width, height, err := parseFrameSize(*size)
	if err != nil {
		fmt.Fprintf(e.stderr, "tablecam synth %s: --size %q: %v\n", what, *size, err)
		return 2
	}
	if what == "scenes" || what == "game" {
		if *catalogDir != "" {
			if _, err := os.Stat(filepath.Join(*catalogDir, "cards.json")); err != nil {
				fmt.Fprintf(e.stderr, "tablecam synth %s: --catalog %s: want a folder with cards.json and images/: %v\n", what, *catalogDir, err)
				return 2
			}
		}
	}
	progress := func(desc string) func(done, total int) {
		if *quiet {
			return nil
		}
		var bar *progressbar.ProgressBar
		return func(done, total int) {
			if bar == nil {
				bar = newBar(e.stderr, total, desc)
			}
			_ = bar.Set(done)
			if done == total {
				_ = bar.Finish()
				fmt.Fprintln(e.stderr)
			}
		}
	}
	switch what {
	case "catalog":
		var cat interface{ Len() int }
		cat, err = synth.RenderCatalog(*out, *seed, synth.CatalogOptions{Progress: progress("catalog"), Style: faceStyle})
		if err == nil {
			fmt.Fprintf(e.stdout, "wrote %d cards to %s\n", cat.Len(), *out)
		}
	case "scenes":
		var cat *models.Catalog
		cat, err = synthCatalog(*catalogDir, *out, e.stderr)
		if err == nil {
			err = synth.WriteStills(ctx, *out, cat, *seed, *count, synth.StillsOptions{Scene: synth.SceneOptions{Width: width, Height: height, SleeveChance: *sleeves, ObjectChance: *objects, MaxRollDeg: *roll, Borderless: *borderless}, Progress: progress("scenes")})
		}
		if err == nil {
			fmt.Fprintf(e.stdout, "wrote %d scenes to %s\n", *count, *out)
		}
	case "game":
		var cat *models.Catalog
		cat, err = synthCatalog(*catalogDir, *out, e.stderr)
		if err == nil {
			var t *synth.GameTruth
			t, err = synth.WriteGame(ctx, *out, cat, *seed, synth.GameOptions{Width: width, Height: height, MaxBytes: gameByteCap(width, height, *turns), Turns: *turns, Frames: *frames, Progress: progress("game frames")})
			if err == nil {
				fmt.Fprintf(e.stdout, "wrote %s: %d frames (%.1f s at %d fps, JPEG quality %d), %d events\n",
					filepath.Join(*out, t.Video), t.Frames, float64(t.Frames)/float64(t.FPS), t.FPS, t.Quality, len(t.Events))
			}
		}
	default:
		fmt.Fprintf(e.stderr, "tablecam synth: unknown target %q\n", what)
		synthUsage(e.stderr)
		return 2
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "tablecam synth %s: %v\n", what, err)
		if errors.Is(err, models.ErrUnknownCard) {
			return 2
		}
		return 1
	}
	return 0
}

// parseFrameSize reads "WxH" (also "W×H"); an empty string gives 0, 0 (the
// renderer's default size).
func parseFrameSize(s string) (width, height int, err error) {
	if s == "" {
		return 0, 0, nil
	}
	w, h, ok := strings.Cut(strings.ToLower(strings.ReplaceAll(s, "×", "x")), "x")
	if !ok {
		return 0, 0, errors.New("want WxH, e.g. 1280x720")
	}
	width, errW := strconv.Atoi(strings.TrimSpace(w))
	height, errH := strconv.Atoi(strings.TrimSpace(h))
	if errW != nil || errH != nil {
		return 0, 0, errors.New("want WxH with whole numbers, e.g. 1280x720")
	}
	if width < 320 || height < 240 || width > 7680 || height > 4320 {
		return 0, 0, errors.New("want a width of 320 to 7680 and a height of 240 to 4320 pixels")
	}
	return width, height, nil
}

// gameByteCap is the video size cap for a game of the given frame size and
// length: the default 20 MB (what a bundled demo of the default 6 turns at
// 960×540 may take), scaled with the pixel count for larger frames and with
// the turns for longer games, so that their JPEG quality stays alike. 0 means
// the synth package's default.
func gameByteCap(width, height, turns int) int64 {
	const defaultCap, defaultPixels, defaultTurns = 20_000_000, 960 * 540, 6
	c := float64(defaultCap)
	if width*height > defaultPixels {
		c *= float64(width*height) / defaultPixels
	}
	if turns > defaultTurns {
		c *= float64(turns) / defaultTurns
	}
	if c == defaultCap {
		return 0
	}
	return int64(c)
}

// sampleCatalogSeed is the seed the bundled sample catalog is rendered
// from (samples/generate.go): rendered again from it, the catalog is the
// bundled one, face for face.
const sampleCatalogSeed = 1

// synthCatalog is the catalog scenes and games are rendered with: the one
// in dir when given, else the bundled sample catalog. Without the samples
// folder (the binary installed on its own) the sample catalog is rendered
// afresh into out/catalog and kept there, so that the frames written can be
// read against the faces they show (--catalog out/catalog; bench vision and
// bench tracker look there by themselves); a line on stderr says so.
func synthCatalog(dir, out string, stderr io.Writer) (*models.Catalog, error) {
	if dir != "" {
		return models.LoadCatalog(dir)
	}
	p, err := samples.Path("catalog")
	if err == nil {
		cat, err := models.LoadCatalog(p)
		if err == nil {
			return cat, nil
		}
		fmt.Fprintf(stderr, "tablecam synth: the bundled sample catalog is unreadable (%v): rendering the sample catalog\n", err)
	}
	own := filepath.Join(out, "catalog")
	cat, err := synth.RenderCatalog(own, sampleCatalogSeed, synth.CatalogOptions{})
	if err != nil {
		return nil, fmt.Errorf("rendering the sample catalog into %s: %w", own, err)
	}
	fmt.Fprintf(stderr, "tablecam synth: no bundled sample catalog found: rendered it into %s (read these frames with --catalog %s)\n", own, own)
	return cat, nil
}

func newBar(w io.Writer, total int, desc string) *progressbar.ProgressBar {
	return progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100_000_000),
	)
}

func synthUsage(w io.Writer) {
	fmt.Fprintln(w, `usage: tablecam synth catalog|scenes|game --out DIR [--seed N] [--count K] [--catalog DIR]

  catalog   the self-made sample catalog: cards.json + images/<slug>.png
  scenes    still table scenes: NNNN.jpg + NNNN.json (truth)
  game      a scripted recorded game: game.avi, truth.json, events.jsonl
            (--turns N, --frames to also write numbered frames)

--size WxH sets the frame size (scenes: 1280x720, game: 960x540 by default).

--style poster draws the catalog's faces with flat shapes on smooth
gradients instead of the sample look: little texture, to check vision on
faces unlike the samples'. --style fullart runs the art to the card's
edges with no frame round it, the name and rules on translucent boxes,
as Sorcery prints its cards.

--catalog DIR renders scenes and games with your own card scans
(cards.json + images/<slug>.png|jpg); the default is the bundled sample catalog.`)
}
