package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/tablecam/tablecam/samples"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/pipeline"
	"github.com/tablecam/tablecam/rules"
	"github.com/tablecam/tablecam/tracker"
)

// runBenchTracker runs the whole pipeline headless on a recorded game and
// scores the tracker's events against the game's truth: precision, recall,
// events caused by hand passes, latency, and throughput per CPU core.
func runBenchTracker(ctx context.Context, e env) int {
	fs := flag.NewFlagSet("bench tracker", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	gameDir := fs.String("game", "", "recorded game: game.avi (or frames/), events.jsonl and truth.json")
	catalogPath := fs.String("catalog", "", "card catalog (default: the catalog beside the games folder, else the bundled sample catalog)")
	window := fs.Float64("window", 0.25, "stability window in seconds")
	cornersFlag := fs.String("corners", "", "realm corners instead of automatic calibration")
	eventsOut := fs.String("events", "", "write the tracker's events to this JSONL file")
	obsOut := fs.String("observations", "", "write what vision read on each frame to this JSONL `FILE` (one frame a line)")
	asJSON := fs.Bool("json", false, "print the figures as one JSON object")
	oneCore := fs.Bool("one-core", true, "run on one core (GOMAXPROCS=1)")
	noGate := fs.Bool("no-gate", false, "read every frame in full (to measure what the change gate saves)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the run to this `FILE` (for go tool pprof)")
	fs.Usage = func() {
		fmt.Fprintln(e.stderr, "usage: tablecam bench tracker --game DIR [--catalog DIR] [--window S] [--events OUT.jsonl] [--json]")
		fs.PrintDefaults()
	}
	if _, code, ok := parseCommandLine(fs, e.args, -1); !ok {
		return code
	}
	if *gameDir == "" {
		fs.Usage()
		return 2
	}
	truth, err := loadGameTruth(*gameDir)
	if err != nil {
		fmt.Fprintf(e.stderr, "tablecam bench tracker: %v\n", err)
		return 2
	}
	catPath := *catalogPath
	if catPath == "" {
		catPath = recordedGameCatalog(*gameDir)
	}
	cat, err := openFaceCatalog(catPath, e.stderr)
	if err != nil {
		fmt.Fprintf(e.stderr, "tablecam bench tracker: %v\n", err)
		return 2
	}
	tmp, err := os.MkdirTemp("", "tablecam-bench-")
	if err != nil {
		fmt.Fprintf(e.stderr, "tablecam bench tracker: %v\n", err)
		return 1
	}
	defer os.RemoveAll(tmp)
	cfg := pipeline.Config{Camera: -1, Catalog: cat, Journal: filepath.Join(tmp, "journal.jsonl"),
		Tracker: tracker.Config{Window: *window}, Log: prefixWriter{e.stderr, "tablecam bench tracker: "},
		NewRules: func() tracker.Rules { return rules.NewGame(cat) }, NoGate: *noGate}
	if truth.video != "" {
		cfg.Video = truth.video
	} else {
		cfg.Frames, cfg.FPS = truth.frames, truth.fps
	}
	if *cornersFlag != "" {
		q, err := calibration.ParseCorners(*cornersFlag)
		if err != nil {
			fmt.Fprintf(e.stderr, "tablecam bench tracker: --corners: %v\n", err)
			return 2
		}
		cfg.Corners = &q
	}
	if *oneCore {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintf(e.stderr, "tablecam bench tracker: --cpuprofile: %v\n", err)
			return 2
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(e.stderr, "tablecam bench tracker: --cpuprofile: %v\n", err)
			return 1
		}
		defer pprof.StopCPUProfile()
	}
	cpu0, wall0 := cpuTime(), time.Now()
	s, err := pipeline.Start(ctx, cfg)
	if err != nil {
		fmt.Fprintf(e.stderr, "tablecam bench tracker: %v\n", err)
		return 1
	}
	var obsFile *os.File
	if *obsOut != "" {
		if obsFile, err = os.Create(*obsOut); err != nil {
			fmt.Fprintf(e.stderr, "tablecam bench tracker: --observations: %v\n", err)
			return 2
		}
		defer obsFile.Close()
	}
	var pred []models.Event
	frames := 0
	for u := range s.Updates() {
		if obsFile != nil {
			writeObservation(obsFile, u)
		}
		if frames == 0 {
			// Throughput counts from the first frame: opening the catalog
			// index and finding the realm happen once.
			cpu0, wall0 = cpuTime(), time.Now()
		}
		frames = max(frames, u.Frame+1)
		pred = append(pred, u.Events...)
	}
	if err := s.Wait(); err != nil {
		fmt.Fprintf(e.stderr, "tablecam bench tracker: %v\n", err)
		return 1
	}
	cpu, wall := cpuTime()-cpu0, time.Since(wall0)
	full, spared := s.Analysed()
	if *eventsOut != "" {
		if err := writeEvents(*eventsOut, pred); err != nil {
			fmt.Fprintf(e.stderr, "tablecam bench tracker: %v\n", err)
			return 1
		}
	}
	sc := scoreEvents(truth.events, pred, truth.fps, truth.hands, *window)
	sc.Frames, sc.FullReads, sc.Spared = frames, full, spared
	sc.WallFPS = float64(frames) / wall.Seconds()
	if cpu > 0 {
		sc.CoreFPS = float64(frames) / cpu.Seconds()
	}
	if *asJSON {
		b, _ := json.Marshal(sc)
		fmt.Fprintln(e.stdout, string(b))
		return 0
	}
	sc.print(e.stdout, *gameDir)
	return 0
}

// cpuTime is the CPU time this process has used (user and system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func writeEvents(path string, evs []models.Event) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	for _, ev := range evs {
		b, _ := json.Marshal(ev)
		f.Write(append(b, '\n'))
	}
	return f.Close()
}

// writeObservation writes one update's observation as a JSON line, with the
// events it gave.
func writeObservation(w io.Writer, u models.Update) {
	b, _ := json.Marshal(struct {
		Frame       int                     `json:"frame"`
		Observation models.FrameObservation `json:"observation"`
		Events      []models.Event          `json:"events,omitempty"`
		Status      string                  `json:"status,omitempty"`
	}{u.Frame, u.Observation, u.Events, u.Status})
	w.Write(append(b, '\n'))
}

// gameTruth is a recorded game and what truly happened in it.
type gameTruth struct {
	video, frames string
	fps           float64
	events        []models.Event
	// hands are the frames in which a hand is over the mat.
	hands map[int]bool
}

// loadGameTruth reads a recorded game's folder: game.avi (or frames/),
// events.jsonl (the true events, each with its frame), and truth.json, from
// which the hand frames and the frame rate are taken when it has them.
func loadGameTruth(dir string) (*gameTruth, error) {
	g := &gameTruth{fps: 30, hands: map[int]bool{}}
	if p := filepath.Join(dir, "game.avi"); fileExists(p) {
		g.video = p
	} else if p := filepath.Join(dir, "frames"); fileExists(p) {
		g.frames = p
	} else {
		return nil, fmt.Errorf("%s: no game.avi or frames/ folder", dir)
	}
	evPath := filepath.Join(dir, "events.jsonl")
	f, err := os.Open(evPath)
	if err != nil {
		return nil, fmt.Errorf("game truth: %w", err)
	}
	defer f.Close()
	r := rules.NewEventReader(f)
	for {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", evPath, err)
		}
		g.events = append(g.events, ev)
	}
	if data, err := os.ReadFile(filepath.Join(dir, "truth.json")); err == nil {
		if err := g.readTruth(data); err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "truth.json"), err)
		}
	}
	return g, nil
}

// readTruth takes the frame rate and the hand frames from truth.json: a
// "fps" number, and a "frames" list whose entries say "hand" (or
// "occluded") with their "frame" index, or a "hand_frames" list.
func (g *gameTruth) readTruth(data []byte) error {
	var raw struct {
		FPS    float64 `json:"fps"`
		Frames []struct {
			Frame    *int `json:"frame"`
			Hand     bool `json:"hand"`
			Occluded bool `json:"occluded"`
		} `json:"frames"`
		HandFrames []int `json:"hand_frames"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	if raw.FPS > 0 {
		g.fps = raw.FPS
	}
	for i, f := range raw.Frames {
		idx := i
		if f.Frame != nil {
			idx = *f.Frame
		}
		if f.Hand || f.Occluded {
			g.hands[idx] = true
		}
	}
	for _, h := range raw.HandFrames {
		g.hands[h] = true
	}
	return nil
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// benchScore holds the tracker's figures on one game.
type benchScore struct {
	TruthEvents   int `json:"truth_events"`
	TrackerEvents int `json:"tracker_events"`
	Matched       int `json:"matched"`
	// MatchedUnnamed counts the matches whose card the tracker could not
	// name (its face is not in the catalog): the change is right (type,
	// cells and player; each Avatar named or unnamed at game_start), the
	// name missing. They are part of Matched.
	MatchedUnnamed int `json:"matched_unnamed"`
	// Named counts card_named events (an unnamed card named later) and
	// NamedWrong those naming a card that the truth never had at that cell.
	Named      int `json:"named"`
	NamedWrong int `json:"named_wrong"`
	// The latency of unnamed matches, apart: an unnamed card is taken as
	// one the catalog lacks only after it stays unidentified for a while.
	UnnamedLatencyMedianMS float64  `json:"unnamed_latency_median_ms"`
	UnnamedLatencyMaxMS    float64  `json:"unnamed_latency_max_ms"`
	Precision              float64  `json:"precision"`
	Recall                 float64  `json:"recall"`
	TurnTruth              int      `json:"turn_truth"`
	TurnMatched            int      `json:"turn_matched"`
	TurnPredicted          int      `json:"turn_predicted"`
	HandPassEvents         int      `json:"hand_pass_events"`
	LatencyMedianMS        float64  `json:"latency_median_ms"`
	LatencyP95MS           float64  `json:"latency_p95_ms"`
	LatencyMaxMS           float64  `json:"latency_max_ms"`
	Frames                 int      `json:"frames"`
	FullReads              int      `json:"full_reads"`
	Spared                 int      `json:"spared"`
	WallFPS                float64  `json:"wall_fps"`
	CoreFPS                float64  `json:"core_fps"`
	Slow                   []string `json:"slow"`
	Missed                 []string `json:"missed"`
	False                  []string `json:"false"`
}

// boardEvent reports whether the camera can see the event (as opposed to
// turns, inferred, and what players type).
func boardEvent(t models.EventType) bool {
	switch t {
	case models.GameStart, models.SitePlayed, models.UnitSummoned, models.UnitMoved, models.CardTapped,
		models.CardUntapped, models.CardRemoved, models.SiteDestroyed, models.SpellCast:
		return true
	}
	return false
}

// eventKey is what two events must share to be the same change.
func eventKey(ev models.Event) string {
	var b strings.Builder
	b.WriteString(string(ev.Type))
	b.WriteString("|" + models.NormalizeName(ev.Card))
	for _, c := range []*models.Cell{ev.Cell, ev.From, ev.To} {
		b.WriteString("|")
		if c != nil {
			b.WriteString(c.String())
		}
	}
	if ev.Type == models.GameStart && ev.South != nil && ev.North != nil {
		b.WriteString("|" + models.NormalizeName(ev.South.Avatar) + "|" + models.NormalizeName(ev.North.Avatar))
	}
	if ev.Type == models.TurnStart || ev.Type == models.TurnEnd {
		b.WriteString("|" + ev.Player.String())
	}
	return b.String()
}

// sameChangeUnnamed reports whether pred, an event about a card the tracker
// could not name, is the change truth is: the same type, player and cells,
// and for game_start each Avatar in its cell, named alike or unnamed.
func sameChangeUnnamed(truth, pred models.Event) bool {
	if truth.Type != pred.Type {
		return false
	}
	if truth.Type == models.GameStart {
		unnamed := false
		for _, s := range []struct {
			t, p *models.Seat
			home string
		}{{truth.South, pred.South, "C1"}, {truth.North, pred.North, "C4"}} {
			if s.t == nil || s.p == nil || seatCell(s.t, s.home) != seatCell(s.p, s.home) {
				return false
			}
			if s.p.Unnamed {
				unnamed = true
			} else if models.NormalizeName(s.t.Avatar) != models.NormalizeName(s.p.Avatar) {
				return false
			}
		}
		return unnamed
	}
	if !pred.Unnamed || truth.Player != pred.Player && truth.Player != models.NoPlayer && pred.Player != models.NoPlayer {
		return false
	}
	same := func(a, b *models.Cell) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
	return same(truth.Cell, pred.Cell) && same(truth.From, pred.From) && same(truth.To, pred.To)
}

// seatCell is where a seat's Avatar starts: its cell, else home.
func seatCell(s *models.Seat, home string) models.Cell {
	if s.Cell != nil {
		return *s.Cell
	}
	return models.MustCell(home)
}

// unnamedPred reports whether pred is about a card the tracker could not name.
func unnamedPred(ev models.Event) bool {
	if ev.Type == models.GameStart {
		return ev.South != nil && ev.South.Unnamed || ev.North != nil && ev.North.Unnamed
	}
	return ev.Unnamed
}

func frameOf(ev models.Event) int {
	if ev.Frame != nil {
		return *ev.Frame
	}
	return -1
}

func timeOf(ev models.Event, fps float64) float64 {
	if ev.Time != nil {
		return *ev.Time
	}
	return float64(frameOf(ev)) / fps
}

// scoreEvents matches the tracker's events with the true ones: same change
// (type, card, cells), the tracker's no earlier than window before the
// truth's frame and before the next true event of the same change. A change
// the camera could only see late (a card uncovered long after it was
// played) is still matched, and its latency says how late. Turn events are
// scored apart, within 10 s, since a turn is inferred from what follows it.
// An event about a card the tracker could not name matches a true one when
// all but the name agree (sameChangeUnnamed), in the same time span: it is
// found, unnamed, and counted apart too.
func scoreEvents(truth, pred []models.Event, fps float64, hands map[int]bool, window float64) benchScore {
	var sc benchScore
	used := make([]bool, len(pred))
	var lat, latUnnamed []float64
	for ti, t := range truth {
		board := boardEvent(t.Type)
		turn := t.Type == models.TurnStart || t.Type == models.TurnEnd
		if !board && !turn {
			continue
		}
		if board {
			sc.TruthEvents++
		} else {
			sc.TurnTruth++
		}
		tt := timeOf(t, fps)
		k := eventKey(t)
		before, until := window, math.Inf(1)
		for _, later := range truth[ti+1:] {
			if eventKey(later) == k {
				until = timeOf(later, fps) - window
				break
			}
		}
		if turn || t.Type == models.GameStart {
			before, until = 10, tt+10
		}
		found := -1
		for _, unnamed := range []bool{false, true} {
			for i, p := range pred {
				if found >= 0 || used[i] || !unnamed && eventKey(p) != k || unnamed && !sameChangeUnnamed(t, p) {
					continue
				}
				if pt := timeOf(p, fps); t.Frame == nil || pt >= tt-before && pt < until {
					found = i
				}
			}
		}
		if found < 0 {
			if board {
				sc.Missed = append(sc.Missed, fmt.Sprintf("%s (frame %d)", rules.DescribeEvent(t), frameOf(t)))
			}
			continue
		}
		used[found] = true
		if board {
			sc.Matched++
			unnamed := unnamedPred(pred[found])
			if unnamed {
				sc.MatchedUnnamed++
			}
			if t.Frame != nil && t.Type != models.GameStart {
				ms := (timeOf(pred[found], fps) - tt) * 1000
				if unnamed {
					latUnnamed = append(latUnnamed, ms)
					continue
				}
				lat = append(lat, ms)
				if ms > 300 {
					sc.Slow = append(sc.Slow, fmt.Sprintf("%s (frame %d, %.0f ms)", rules.DescribeEvent(t), frameOf(t), ms))
				}
			}
		} else {
			sc.TurnMatched++
		}
	}
	for i, p := range pred {
		switch {
		case boardEvent(p.Type):
			sc.TrackerEvents++
		case p.Type == models.TurnStart || p.Type == models.TurnEnd:
			sc.TurnPredicted++
		case p.Type == models.CardNamed:
			sc.Named++
			if !truthHas(truth, p) {
				sc.NamedWrong++
				sc.False = append(sc.False, fmt.Sprintf("%s (frame %d): no such card there", rules.DescribeEvent(p), frameOf(p)))
			}
		}
		if used[i] || !boardEvent(p.Type) {
			continue
		}
		sc.False = append(sc.False, fmt.Sprintf("%s (frame %d)", rules.DescribeEvent(p), frameOf(p)))
		// A false event within a second after a hand was over the mat was
		// caused by the hand pass.
		f := frameOf(p)
		for d := 0; d <= int(fps); d++ {
			if hands[f-d] {
				sc.HandPassEvents++
				break
			}
		}
	}
	if sc.TrackerEvents > 0 {
		sc.Precision = float64(sc.Matched) / float64(sc.TrackerEvents)
	}
	if sc.TruthEvents > 0 {
		sc.Recall = float64(sc.Matched) / float64(sc.TruthEvents)
	}
	if len(lat) > 0 {
		sort.Float64s(lat)
		sc.LatencyMedianMS = lat[len(lat)/2]
		sc.LatencyP95MS = lat[min(len(lat)-1, int(0.95*float64(len(lat))))]
		sc.LatencyMaxMS = lat[len(lat)-1]
	}
	if len(latUnnamed) > 0 {
		sort.Float64s(latUnnamed)
		sc.UnnamedLatencyMedianMS = latUnnamed[len(latUnnamed)/2]
		sc.UnnamedLatencyMaxMS = latUnnamed[len(latUnnamed)-1]
	}
	return sc
}

// truthHas reports whether a true event put the card that card_named names
// at its cell for its player (or, for an Avatar, seated it there).
func truthHas(truth []models.Event, named models.Event) bool {
	for _, t := range truth {
		if t.Type == models.GameStart {
			for _, s := range []struct {
				seat *models.Seat
				p    models.Player
				home string
			}{{t.South, models.South, "C1"}, {t.North, models.North, "C4"}} {
				if s.seat == nil || s.p != named.Player && named.Player != models.NoPlayer || models.NormalizeName(s.seat.Avatar) != models.NormalizeName(named.Card) {
					continue
				}
				return true // an Avatar may have moved anywhere since
			}
			continue
		}
		cell := t.Cell
		if t.Type == models.UnitMoved {
			cell = t.To
		}
		if cell != nil && named.Cell != nil && *cell == *named.Cell && models.NormalizeName(t.Card) == models.NormalizeName(named.Card) &&
			(t.Player == named.Player || t.Player == models.NoPlayer || named.Player == models.NoPlayer) {
			return true
		}
	}
	return false
}

func (sc benchScore) print(w io.Writer, game string) {
	fmt.Fprintf(w, "tracker on %s (%d frames)\n", game, sc.Frames)
	fmt.Fprintf(w, "  events        precision %.1f%% (%d/%d)   recall %.1f%% (%d/%d)   [target 100%%]\n",
		100*sc.Precision, sc.Matched, sc.TrackerEvents, 100*sc.Recall, sc.Matched, sc.TruthEvents)
	if sc.MatchedUnnamed > 0 || sc.Named > 0 {
		fmt.Fprintf(w, "  unnamed       %d of the %d found are found, unnamed (right change, player and cells; card not in the catalog); latency median %.0f ms, max %.0f ms\n",
			sc.MatchedUnnamed, sc.Matched, sc.UnnamedLatencyMedianMS, sc.UnnamedLatencyMaxMS)
		fmt.Fprintf(w, "                %d found with their name; %d unnamed cards named later (%d wrongly)\n",
			sc.Matched-sc.MatchedUnnamed, sc.Named, sc.NamedWrong)
	}
	fmt.Fprintf(w, "  turns         %d of %d true turn events found, %d inferred\n", sc.TurnMatched, sc.TurnTruth, sc.TurnPredicted)
	fmt.Fprintf(w, "  hand passes   %d false events   [target 0]\n", sc.HandPassEvents)
	fmt.Fprintf(w, "  latency       median %.0f ms, p95 %.0f ms, max %.0f ms of video (named events)   [target ≤ 300 ms]\n",
		sc.LatencyMedianMS, sc.LatencyP95MS, sc.LatencyMaxMS)
	fmt.Fprintf(w, "  throughput    %.0f frames per CPU-second (one core), %.0f fps wall clock   [target ≥ 60]\n", sc.CoreFPS, sc.WallFPS)
	fmt.Fprintf(w, "  vision        %d frames read in full, %d spared by the change gate (nothing moved)\n", sc.FullReads, sc.Spared)
	for _, s := range sc.Slow {
		fmt.Fprintf(w, "  slow:   %s\n", s)
	}
	for _, m := range sc.Missed {
		fmt.Fprintf(w, "  missed: %s\n", m)
	}
	for _, f := range sc.False {
		fmt.Fprintf(w, "  false:  %s\n", f)
	}
}

// recordedGameCatalog is the catalog a recorded game was most likely rendered
// with (`tablecam synth game` draws the faces of the bundled sample catalog
// unless told otherwise, and renders them into the game's folder when it
// finds none): the catalog folder in the game's folder, else the one beside
// the game's games folder, else the bundled sample catalog, else ""
// (openCatalog's own choice).
func recordedGameCatalog(gameDir string) string {
	if dir, err := filepath.Abs(gameDir); err == nil {
		if p, ok := catalogDirIn(filepath.Join(dir, "catalog"), filepath.Join(dir, "..", "..", "catalog")); ok {
			return p
		}
	}
	if p, err := samples.Path("catalog"); err == nil {
		return p
	}
	return ""
}
