package live

import (
	"flag"
	"fmt"
	"image/color"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/samples"
	"github.com/tablecam/tablecam/tracker"
)

// Options are the main job's flags; `tablecam` passes them on to `tablecam-overlay`.
type Options struct {
	// Camera is the webcam index; negative for none.
	Camera int
	// Video is a recorded game; Frames a folder of images.
	Video, Frames string
	// Catalog is the card catalog (a cards.json or a folder with images/).
	Catalog string
	// Calibration is a saved calibration; Corners "x,y x,y x,y x,y" sets the
	// realm by hand. With neither the realm is found automatically.
	Calibration, Corners string
	// CellMM is the mat's realm cell size, "WxH" in millimetres ("" for
	// the calibration's own, 100x75 unless it states another); the cards
	// read correct it when they clearly show another.
	CellMM string
	// Journal is the game's journal file ("" for a new one); Resume
	// continues the game it holds.
	Journal string
	Resume  bool
	// Stream lays the overlay out for capture; Chroma is its background
	// colour ("" for transparent).
	Stream bool
	Chroma string
	// SnapshotEvery N frames writes the overlay as a PNG into Out.
	SnapshotEvery int
	Out           string
	// Mute and Volume (0–1) set the sound.
	Mute   bool
	Volume float64
	// Screenshot writes the window to a PNG after ScreenshotAfter updates and quits.
	Screenshot      string
	ScreenshotAfter int
	// Size is the window's (and snapshots') size, "WxH".
	Size string
	// Fast reads a video as fast as it can be analysed instead of at its frame rate.
	Fast bool
}

// DefaultSnapshotDir is where headless snapshots go when --out is not given.
const DefaultSnapshotDir = "tablecam-snapshots"

// DefaultSnapshotEvery is the headless snapshot interval in frames.
const DefaultSnapshotEvery = 30

// ReadyFDVariable is the environment variable through which tablecam gives
// tablecam-overlay a file descriptor to write a line to once its window is
// shown.
const ReadyFDVariable = "TABLECAM_READY_FD"

// NewFlagSet declares the flags into o, with their defaults.
func NewFlagSet(name string, o *Options, output io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(output)
	fs.Usage = func() {
		fmt.Fprintf(output, "usage: %s [FLAGS]\n\nPlays the bundled sample game (or --camera N, --video FILE, --frames DIR) in the\noverlay with sound; press ? in the window for the keys.\n\nflags:\n", name)
		fs.PrintDefaults()
	}
	fs.IntVar(&o.Camera, "camera", -1, "watch webcam `N` instead of the sample game")
	fs.StringVar(&o.Video, "video", "", "watch a recorded game `FILE` (default: the bundled sample game)")
	fs.StringVar(&o.Frames, "frames", "", "watch a folder `DIR` of numbered images")
	fs.StringVar(&o.Catalog, "catalog", "", "card catalog `PATH` (default: the bundled sample catalog)")
	fs.StringVar(&o.Calibration, "calibration", "", "saved calibration `FILE` (default: find the realm automatically)")
	fs.StringVar(&o.Corners, "corners", "", "realm corners A1 E1 E4 A4 in image pixels, as `\"x,y x,y x,y x,y\"`")
	fs.StringVar(&o.CellMM, "cell-mm", "", "the playmat's realm cell size `WxH` in millimetres (default 100x75, or the calibration's; learned from the cards when they show another)")
	fs.StringVar(&o.Journal, "journal", "", "journal `FILE` (default: a new one in the user's data folder)")
	fs.BoolVar(&o.Resume, "resume", false, "continue the game in --journal, or the last unfinished one (after a crash or a break)")
	fs.BoolVar(&o.Stream, "stream", false, "streamer layout: borderless, transparent or chroma-key background")
	fs.StringVar(&o.Chroma, "chroma", "", "stream background `#RRGGBB` (default: transparent)")
	fs.IntVar(&o.SnapshotEvery, "snapshot-every", 0, "write the overlay as a PNG every `N` frames")
	fs.StringVar(&o.Out, "out", "", "folder `DIR` for snapshots (default ./"+DefaultSnapshotDir+")")
	fs.BoolVar(&o.Mute, "mute", false, "start with sound muted")
	fs.Float64Var(&o.Volume, "volume", 0.8, "sound volume `0-1`")
	fs.StringVar(&o.Screenshot, "screenshot", "", "write the window to `FILE.png` and quit")
	fs.IntVar(&o.ScreenshotAfter, "screenshot-after", 1, "take the screenshot after `N` updates")
	fs.StringVar(&o.Size, "size", "1280x720", "window and snapshot size `WxH`")
	fs.BoolVar(&o.Fast, "fast", false, "read a video as fast as it can be analysed, not at its frame rate")
	return fs
}

// Check validates the options and fills the defaults: with no source, the
// bundled sample game and its catalog.
func (o *Options) Check() error {
	sources := 0
	for _, set := range []bool{o.Camera >= 0, o.Video != "", o.Frames != ""} {
		if set {
			sources++
		}
	}
	if sources > 1 {
		return fmt.Errorf("give one of --camera, --video or --frames")
	}
	if o.Resume && o.Journal == "" {
		// The game a crash interrupted last.
		dir, err := tracker.DefaultJournalDir()
		if err != nil {
			return fmt.Errorf("--resume: %w (name the game with --journal FILE)", err)
		}
		unfinished, _ := tracker.Unfinished(dir)
		if len(unfinished) == 0 {
			return fmt.Errorf("--resume: no unfinished game in %s (name one with --journal FILE)", dir)
		}
		o.Journal = unfinished[0]
	}
	if o.Volume < 0 || o.Volume > 1 {
		return fmt.Errorf("--volume %v: want 0 to 1", o.Volume)
	}
	if o.SnapshotEvery < 0 {
		return fmt.Errorf("--snapshot-every %d: want a positive number of frames", o.SnapshotEvery)
	}
	if o.Chroma != "" {
		if _, err := ParseColor(o.Chroma); err != nil {
			return fmt.Errorf("--chroma: %w", err)
		}
	}
	if _, _, err := o.Dimensions(); err != nil {
		return err
	}
	if _, err := o.Geometry(); err != nil {
		return err
	}
	if sources == 0 {
		v, err := samples.Path("games", "demo", "game.avi")
		if err != nil {
			return fmt.Errorf("the sample game: %w", err)
		}
		if _, err := os.Stat(v); err != nil {
			return fmt.Errorf("the sample game: %w (rebuild the samples with make samples)", err)
		}
		o.Video = v
	}
	if o.Catalog == "" {
		c, err := samples.Path("catalog")
		if err != nil {
			return fmt.Errorf("the sample catalog: %w", err)
		}
		o.Catalog = c
	}
	return nil
}

// Dimensions reads --size (default 1280×720).
func (o *Options) Dimensions() (w, h int, err error) {
	if o.Size == "" {
		return 1280, 720, nil
	}
	if _, err := fmt.Sscanf(strings.ToLower(o.Size), "%dx%d", &w, &h); err != nil || w < 320 || h < 180 || w > 7680 || h > 4320 {
		return 0, 0, fmt.Errorf("--size %q: want WIDTHxHEIGHT, such as 1920x1080 (at least 320x180)", o.Size)
	}
	return w, h, nil
}

// Geometry reads --cell-mm: zero when it is not given.
func (o *Options) Geometry() (models.RealmGeometry, error) {
	if o.CellMM == "" {
		return models.RealmGeometry{}, nil
	}
	g, err := models.ParseCellMM(o.CellMM)
	if err != nil {
		return models.RealmGeometry{}, fmt.Errorf("--cell-mm: %w", err)
	}
	return g, nil
}

// Background is the stream layout's background: the chroma colour, or transparent.
func (o *Options) Background() color.NRGBA {
	c, err := ParseColor(o.Chroma)
	if err != nil || o.Chroma == "" {
		return color.NRGBA{}
	}
	return c
}

// ParseColor reads "#RRGGBB" (the # is optional).
func ParseColor(s string) (color.NRGBA, error) {
	h := strings.TrimPrefix(strings.TrimSpace(s), "#")
	if len(h) != 6 {
		return color.NRGBA{}, fmt.Errorf("colour %q: want #RRGGBB", s)
	}
	v, err := strconv.ParseUint(h, 16, 32)
	if err != nil {
		return color.NRGBA{}, fmt.Errorf("colour %q: want #RRGGBB", s)
	}
	return color.NRGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xff}, nil
}

// Args writes the options back as flags, to pass them on to tablecam-overlay.
func (o *Options) Args() []string {
	var a []string
	str := func(name, v string) {
		if v != "" {
			a = append(a, "--"+name, v)
		}
	}
	if o.Camera >= 0 {
		a = append(a, "--camera", strconv.Itoa(o.Camera))
	}
	str("video", o.Video)
	str("frames", o.Frames)
	str("catalog", o.Catalog)
	str("calibration", o.Calibration)
	str("corners", o.Corners)
	str("cell-mm", o.CellMM)
	str("journal", o.Journal)
	if o.Resume {
		a = append(a, "--resume")
	}
	if o.Stream {
		a = append(a, "--stream")
	}
	str("chroma", o.Chroma)
	if o.SnapshotEvery > 0 {
		a = append(a, "--snapshot-every", strconv.Itoa(o.SnapshotEvery))
	}
	str("out", o.Out)
	if o.Mute {
		a = append(a, "--mute")
	}
	a = append(a, "--volume", strconv.FormatFloat(o.Volume, 'g', -1, 64))
	str("screenshot", o.Screenshot)
	if o.Screenshot != "" {
		a = append(a, "--screenshot-after", strconv.Itoa(o.ScreenshotAfter))
	}
	if o.Fast {
		a = append(a, "--fast")
	}
	str("size", o.Size)
	return a
}
