package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/pipeline"
	"github.com/tablecam/tablecam/tracker"
	"github.com/tablecam/tablecam/vision"
	"golang.org/x/term"
)

// runWatch runs the whole pipeline on a video, a camera or a folder of
// frames. With --headless it prints each event and each new warning as a
// JSON line on stdout; the game goes into the journal either way.
func runWatch(ctx context.Context, e env) int {
	fs := flag.NewFlagSet("watch", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	video := fs.String("video", "", "video file to watch")
	camera := fs.Int("camera", -1, "camera number to watch (0 is the first)")
	frames := fs.String("frames", "", "folder of numbered images to watch")
	fps := fs.Float64("fps", 30, "frame rate of a --frames folder")
	catalogPath := fs.String("catalog", "", "card catalog directory (cards.json + images/; default: as `tablecam catalog` picks)")
	calPath := fs.String("calibration", "", "calibration file saved by `tablecam calibrate`")
	cornersFlag := fs.String("corners", "", `realm corners A1 E1 E4 A4 in image pixels: "x,y x,y x,y x,y"`)
	cellMM := fs.String("cell-mm", "", "the playmat's realm cell size WxH in millimetres (default 100x75, or the calibration's; learned from the cards when they show another)")
	southF := addSouthFlags(fs)
	headless := fs.Bool("headless", false, "print events and warnings as JSON lines instead of pointing to the overlay")
	eventsPath := fs.String("events", "", "also write the events to this JSONL file (readable by `tablecam rules`)")
	journalPath := fs.String("journal", "", "game journal file (default: a new one in the user's data folder)")
	resume := fs.Bool("resume", false, "continue the game in --journal, or the last unfinished one, through the realm calibration it had (kept beside the journal)")
	window := fs.Float64("window", 0.25, "stability window: seconds a change must hold before it counts")
	realtime := fs.Bool("realtime", false, "play a video or frames at their frame rate instead of as fast as possible")
	southAvatar := fs.String("south-avatar", "", "south's Avatar, when the camera cannot read it")
	northAvatar := fs.String("north-avatar", "", "north's Avatar, when the camera cannot read it")
	fs.Usage = func() {
		fmt.Fprintln(e.stderr, "usage: tablecam watch (--video FILE | --camera N | --frames DIR) [--catalog DIR] [--calibration FILE | --corners \"x,y x,y x,y x,y\"] [--cell-mm WxH]")
		fmt.Fprintln(e.stderr, "                      [--south bottom|top|left|right | --north-at-bottom]")
		fmt.Fprintln(e.stderr, "                      [--headless] [--events OUT.jsonl] [--journal FILE] [--resume]")
		fmt.Fprintln(e.stderr, "\nRuns the whole pipeline: calibration, vision, tracker and rules, with every event in the game journal.")
		fs.PrintDefaults()
	}
	args, code, ok := parseCommandLine(fs, e.args, -1)
	if !ok {
		return code
	}
	sources := 0
	for _, set := range []bool{*video != "", *camera >= 0, *frames != ""} {
		if set {
			sources++
		}
	}
	if len(args) != 0 || sources != 1 {
		fmt.Fprintln(e.stderr, "tablecam watch: give exactly one of --video, --camera or --frames")
		fs.Usage()
		return 2
	}
	south, err := southF.side()
	if err != nil {
		fmt.Fprintf(e.stderr, "tablecam watch: %v\n", err)
		return 2
	}
	if *window <= 0 {
		fmt.Fprintf(e.stderr, "tablecam watch: --window %v: want a positive number of seconds\n", *window)
		return 2
	}
	var geometry models.RealmGeometry
	if *cellMM != "" {
		g, err := models.ParseCellMM(*cellMM)
		if err != nil {
			fmt.Fprintf(e.stderr, "tablecam watch: --cell-mm: %v\n", err)
			return 2
		}
		geometry = g
	}
	cat, err := openFaceCatalog(*catalogPath, e.stderr)
	if err != nil {
		fmt.Fprintf(e.stderr, "tablecam watch: %v\n", err)
		return 2
	}
	cfg := pipeline.Config{
		Geometry: geometry,
		Video:    *video, Camera: *camera, Frames: *frames, FPS: *fps, Catalog: cat,
		Detect:   calibration.Options{South: south},
		Vision:   vision.Options{Progress: e.stderr},
		Tracker:  tracker.Config{Window: *window, SouthAvatar: *southAvatar, NorthAvatar: *northAvatar},
		Journal:  *journalPath,
		Resume:   *resume,
		Realtime: *realtime,
		Log:      prefixWriter{e.stderr, "tablecam watch: "},
	}
	if *calPath != "" {
		if cfg.Calibration, err = calibration.Load(*calPath); err != nil {
			fmt.Fprintf(e.stderr, "tablecam watch: %v\n", err)
			return 2
		}
	}
	if *cornersFlag != "" {
		q, err := calibration.ParseCorners(*cornersFlag)
		if err != nil {
			fmt.Fprintf(e.stderr, "tablecam watch: --corners: %v\n", err)
			return 2
		}
		cfg.Corners = &q
	}
	if code := chooseJournal(&cfg, e); code >= 0 {
		return code
	}
	if !*headless {
		if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
			fmt.Fprintln(e.stderr, "tablecam watch: no display; running headless")
		} else {
			fmt.Fprintln(e.stderr, "tablecam watch: this command draws no window; the live overlay is `tablecam play` (or `tablecam --camera N`). Running headless.")
		}
	}
	var eventsOut *os.File
	if *eventsPath != "" {
		if eventsOut, err = os.Create(*eventsPath); err != nil {
			fmt.Fprintf(e.stderr, "tablecam watch: %v\n", err)
			return 2
		}
		defer eventsOut.Close()
	}
	s, err := pipeline.Start(ctx, cfg)
	if err != nil {
		fmt.Fprintf(e.stderr, "tablecam watch: %v\n", err)
		if errors.Is(err, os.ErrNotExist) || errors.Is(err, os.ErrExist) || errors.Is(err, pipeline.ErrNoSource) || errors.Is(err, pipeline.ErrBadSource) || errors.Is(err, tracker.ErrBadJournal) {
			return 2
		}
		return 1
	}
	if s.Resumed {
		st := s.State()
		fmt.Fprintf(e.stderr, "tablecam watch: resumed %s at event %d (turn %d, %s active)\n", s.JournalPath(), st.Event, st.Turn, st.Active)
	}
	fmt.Fprintf(e.stderr, "tablecam watch: journal %s\n", s.JournalPath())
	out := bufio.NewWriter(e.stdout)
	status := ""
	for u := range s.Updates() {
		for _, ev := range u.Events {
			line, _ := json.Marshal(ev)
			out.Write(append(line, '\n'))
			if eventsOut != nil {
				eventsOut.Write(append(line, '\n'))
			}
		}
		for _, w := range u.Warnings {
			line, _ := json.Marshal(w)
			out.Write(append(line, '\n'))
		}
		if len(u.Events)+len(u.Warnings) > 0 {
			out.Flush()
		}
		if u.Status != status {
			status = u.Status
			if status != "" {
				fmt.Fprintf(e.stderr, "tablecam watch: frame %d: %s\n", u.Frame, status)
			}
		}
	}
	out.Flush()
	if err := s.Wait(); err != nil {
		fmt.Fprintf(e.stderr, "tablecam watch: %v\n", err)
		return 1
	}
	st := s.State()
	if st.Event < 0 {
		fmt.Fprintf(e.stderr, "tablecam watch: done: the game never started (both Avatars were not seen on the realm); journal %s\n", s.JournalPath())
		if *calPath == "" && *cornersFlag == "" {
			fmt.Fprintln(e.stderr, `tablecam watch: if the realm was not found right, check it with "tablecam calibrate --debug grid.png FRAME.jpg" and pass --corners or --calibration`)
		}
		return 0
	}
	fmt.Fprintf(e.stderr, "tablecam watch: done: %d events; south life %d, north life %d; replay with `tablecam replay %s`\n",
		st.Event+1, st.Players["south"].Life, st.Players["north"].Life, s.JournalPath())
	return 0
}

// chooseJournal settles which journal the session writes: the one named,
// the last unfinished one with --resume, or a new one, offering to resume
// an unfinished game first. It gives an exit code to stop with, or -1.
func chooseJournal(cfg *pipeline.Config, e env) int {
	dir, err := tracker.DefaultJournalDir()
	if err != nil && cfg.Journal == "" {
		fmt.Fprintf(e.stderr, "tablecam watch: %v (name one with --journal)\n", err)
		return 2
	}
	if cfg.Resume {
		if cfg.Journal != "" {
			return -1
		}
		unfinished, _ := tracker.Unfinished(dir)
		if len(unfinished) == 0 {
			fmt.Fprintf(e.stderr, "tablecam watch: --resume: no unfinished game in %s (name one with --journal)\n", dir)
			return 2
		}
		cfg.Journal = unfinished[0]
		return -1
	}
	var candidate string
	if cfg.Journal != "" {
		if _, err := os.Stat(cfg.Journal); err != nil {
			return -1 // a new journal
		}
		entries, _, err := tracker.ReadJournal(cfg.Journal)
		if err != nil {
			fmt.Fprintf(e.stderr, "tablecam watch: %v\n", err)
			return 2
		}
		if len(entries) > 0 && entries[len(entries)-1].Kind == tracker.EntryEnd {
			fmt.Fprintf(e.stderr, "tablecam watch: journal %s holds a finished game; name a new file, or add --resume to continue it\n", cfg.Journal)
			return 2
		}
		candidate = cfg.Journal
	} else if unfinished, _ := tracker.Unfinished(dir); len(unfinished) > 0 {
		candidate = unfinished[0]
	}
	if candidate == "" {
		return -1
	}
	summary := describeJournal(candidate)
	if isTerminal(e.stdin) {
		fmt.Fprintf(e.stderr, "An unfinished game was found: %s (%s).\nResume it? [y/N] ", candidate, summary)
		answer, _ := bufio.NewReader(e.stdin).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(answer)); a == "y" || a == "yes" {
			cfg.Journal, cfg.Resume = candidate, true
			return -1
		}
		if cfg.Journal == candidate {
			fmt.Fprintf(e.stderr, "tablecam watch: not resuming; name a new journal file\n")
			return 2
		}
		return -1
	}
	if cfg.Journal == candidate {
		fmt.Fprintf(e.stderr, "tablecam watch: journal %s holds an unfinished game (%s); add --resume to continue it, or name a new file\n", candidate, summary)
		return 2
	}
	fmt.Fprintf(e.stderr, "tablecam watch: an unfinished game is in %s (%s); starting a new game. To continue that one instead: tablecam watch … --resume\n", candidate, summary)
	return -1
}

// describeJournal says in a few words how far a journal's game went.
func describeJournal(path string) string {
	entries, torn, err := tracker.ReadJournal(path)
	if err != nil {
		return err.Error()
	}
	events := 0
	for _, en := range entries {
		if en.Kind == tracker.EntryEvent {
			events++
		}
	}
	s := fmt.Sprintf("%d events", events)
	if n := len(entries); n > 0 {
		s += ", last written " + entries[n-1].At.Local().Format("Jan 2 15:04:05")
	}
	if torn != nil {
		s += ", last line cut short"
	}
	return s
}

// isTerminal reports whether stream (an input or an output) is an
// interactive terminal, not a pipe, a file or /dev/null.
func isTerminal(stream any) bool {
	f, ok := stream.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// prefixWriter starts each write with a prefix (one log line per write).
type prefixWriter struct {
	w      io.Writer
	prefix string
}

func (p prefixWriter) Write(b []byte) (int, error) {
	if _, err := io.WriteString(p.w, p.prefix); err != nil {
		return 0, err
	}
	return p.w.Write(b)
}
