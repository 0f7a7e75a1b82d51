package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sync"
	"time"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/rules"
	"github.com/tablecam/tablecam/tracker"
	"github.com/tablecam/tablecam/vision"
	"gocv.io/x/gocv"
)

// Session is one run of the pipeline. Its controller methods are safe to
// call from another goroutine (the overlay's).
type Session struct {
	cfg      Config
	src      Source
	analyzer Analyzer
	closer   io.Closer
	updates  chan models.Update
	done     chan struct{}
	err      error
	log      io.Writer

	mu      sync.Mutex
	game    *tracker.Game
	tracker *tracker.Tracker
	cal     *calibration.Calibration
	// calFromJournal marks a calibration read back on resume, not yet
	// checked against a frame's size.
	calFromJournal bool
	paused         bool
	pending        []models.Update // from controller calls, sent with the next frame
	frame          Frame
	last           models.FrameObservation

	// Used by the frame loop only: the change gate, the calibration it was
	// made for, the observation of its reference frame, and counts.
	gate        *changeGate
	cover       *coverWatch
	gateCal     *calibration.Calibration
	refObs      models.FrameObservation
	analysed    int
	skipped     int
	handStreak  int
	handClear   int
	stillReads  int                        // still frames read in full to name the reference's unnamed cards
	nextDetect  int                        // frame before which the realm is not searched again
	drifts      int                        // drift checks in a row that saw a move
	driftTold   bool                       // the user was told of the move being held
	doubtCal    *calibration.Calibration   // the realm doubtRealm last judged
	doubtFrom   int                        // the frame from which it was judged
	avatarsSeen int                        // whose Avatars vision read on doubtCal: 1 south, 2 north
	triedCals   []*calibration.Calibration // realms doubted before doubtCal
	finding     chan foundRealm            // a realm search running beside the loop (live sources), or nil
	findingFor  string                     // what it is for: findStart, findMoved or findDoubt

	// ended is set once the journal is closed: players can no longer add to it.
	ended bool

	// Resumed says the game continues a journal; TornLine, when not nil, is
	// the journal's last line that a crash cut short (skipped).
	Resumed  bool
	TornLine *tracker.TornLine
}

// ErrEnded is returned by the controller methods once the session is over.
var ErrEnded = errors.New("pipeline: the session has ended (the game is in its journal; `tablecam replay` shows it)")

// ErrNoSource is returned by Start when the config names no frame source.
var ErrNoSource = errors.New("pipeline: no frame source (video, camera or frames)")

// Start opens the source, the analyzer and the journal, and runs the
// pipeline until the source ends or ctx is cancelled.
func Start(ctx context.Context, cfg Config) (*Session, error) {
	if cfg.Catalog == nil {
		return nil, errors.New("pipeline: no catalog")
	}
	if cfg.Retry <= 0 {
		cfg.Retry = 200 * time.Millisecond
	}
	if cfg.MaxRetry <= 0 {
		cfg.MaxRetry = 5 * time.Second
	}
	if cfg.NewRules == nil {
		cat := cfg.Catalog
		cfg.NewRules = func() tracker.Rules { return rules.NewGame(cat) }
	}
	if cfg.Geometry != (models.RealmGeometry{}) {
		if err := cfg.Geometry.Validate(); err != nil {
			return nil, fmt.Errorf("pipeline: %w", err)
		}
		cfg.Detect.Geometry = cfg.Geometry
	}
	s := &Session{cfg: cfg, updates: make(chan models.Update, 64), done: make(chan struct{}), log: cfg.Log}
	if s.log == nil {
		s.log = io.Discard
	}
	var err error
	if s.src, err = openSource(cfg); err != nil {
		return nil, err
	}
	// Without a calibration, corners or automatic detection calibrate on
	// the first frame, whose size they need.
	s.cal = s.stated(cfg.Calibration)
	if err := s.openGame(); err != nil {
		s.src.Close()
		return nil, err
	}
	s.analyzer = cfg.Analyzer
	if s.analyzer == nil {
		a, err := vision.NewAnalyzer(cfg.Catalog, cfg.Vision)
		if err != nil {
			s.src.Close()
			return nil, fmt.Errorf("pipeline: %w", err)
		}
		s.analyzer, s.closer = a, a
	}
	go s.run(ctx)
	return s, nil
}

func openSource(cfg Config) (Source, error) {
	switch {
	case cfg.Source != nil:
		return cfg.Source, nil
	case cfg.Video != "":
		return OpenVideo(cfg.Video)
	case cfg.Frames != "":
		return OpenFrames(cfg.Frames, cfg.FPS)
	case cfg.Camera >= 0 && cfg.Video == "" && cfg.Frames == "":
		return OpenCamera(cfg.Camera)
	}
	return nil, ErrNoSource
}

// openGame creates the journal, or resumes the game it holds.
func (s *Session) openGame() error {
	path := s.cfg.Journal
	if s.cfg.Resume {
		if path == "" {
			return errors.New("pipeline: resume needs the journal to resume")
		}
		j, entries, torn, err := tracker.ResumeJournal(path)
		if err != nil {
			return fmt.Errorf("pipeline: %w", err)
		}
		s.TornLine = torn
		if torn != nil {
			fmt.Fprintf(s.log, "journal: %v\n", torn)
		}
		s.game = tracker.LoadGame(s.cfg.NewRules, entries, j, s.cfg.Catalog)
		s.Resumed = true
		if s.game.Started() {
			s.tracker = tracker.Resume(s.cfg.Tracker, s.game.Board(), s.game.Active())
			s.tracker.Hide(s.game.Hidden())
		} else {
			s.tracker = tracker.New(s.cfg.Tracker)
		}
		s.resumeCalibration()
		if last, ok := s.game.LastFrame(); ok && !s.src.Live() {
			if err := s.src.Skip(last + 1); err != nil {
				return fmt.Errorf("pipeline: resume at frame %d: %w", last+1, err)
			}
		}
		return s.game.Start("resumed: "+s.src.String(), s.cfg.Catalog.Path)
	}
	if path == "" {
		dir, err := tracker.DefaultJournalDir()
		if err != nil {
			return err
		}
		path = tracker.NewJournalPath(dir, time.Now())
	}
	j, err := tracker.CreateJournal(path)
	if err != nil {
		return fmt.Errorf("pipeline: %w", err)
	}
	s.game = tracker.NewGame(s.cfg.NewRules, j, s.cfg.Catalog)
	s.tracker = tracker.New(s.cfg.Tracker)
	return s.game.Start(s.src.String(), s.cfg.Catalog.Path)
}

// CalibrationPath is the file beside the journal that holds the realm
// calibration in force: a resumed game reads the table through the corners
// it had before the restart, even when the camera moved and came back in
// the meantime, and needs no search for the realm.
func CalibrationPath(journal string) string { return journal + ".calibration.json" }

// setCalibration makes cal the calibration in force and keeps a copy beside
// the journal (the caller holds s.mu). A copy that cannot be written costs
// only the resume's head start, so it is logged, not fatal.
func (s *Session) setCalibration(cal *calibration.Calibration) {
	s.cal = cal
	if err := cal.Save(CalibrationPath(s.JournalPath())); err != nil {
		s.logf("pipeline: keeping the calibration beside the journal: %v", err)
	}
}

// resumeCalibration takes back the calibration saved beside a resumed
// journal, unless the user gave one (a file or corners) for this run.
func (s *Session) resumeCalibration() {
	if s.cfg.Calibration != nil || s.cfg.Corners != nil {
		return
	}
	path := CalibrationPath(s.JournalPath())
	cal, err := calibration.Load(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return
	case err != nil:
		s.logf("pipeline: the calibration saved with the journal is unusable, finding the realm again: %v", err)
		return
	}
	s.cal, s.calFromJournal = s.stated(cal), true
	s.logf("pipeline: resumed with the calibration of %s", path)
}

// JournalPath is the file the game is recorded in.
func (s *Session) JournalPath() string { return s.game.Journal().Path() }

// Updates gives one Update per processed frame, and one per player input;
// it is closed when the session ends.
func (s *Session) Updates() <-chan models.Update { return s.updates }

// Wait blocks until the session ends and gives the error that ended it, nil
// at the end of a file.
func (s *Session) Wait() error {
	<-s.done
	return s.err
}

// State is the game state now.
func (s *Session) State() models.GameState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.game.State()
}

func (s *Session) logf(format string, args ...any) {
	fmt.Fprintf(s.log, format+"\n", args...)
}

// run is the frame loop.
func (s *Session) run(ctx context.Context) {
	defer close(s.done)
	defer close(s.updates)
	defer s.src.Close()
	if s.closer != nil {
		defer s.closer.Close()
	}
	mat := gocv.NewMat()
	defer mat.Close()
	defer func() {
		if s.gate != nil {
			s.gate.Close()
		}
	}()
	wait := s.cfg.Retry
	started := time.Now()
	firstTime := -1.0
	for {
		if ctx.Err() != nil {
			s.finish(ctx.Err())
			return
		}
		if s.isPaused() {
			s.flushPending(ctx, "paused")
			select {
			case <-ctx.Done():
			case <-time.After(50 * time.Millisecond):
			}
			continue
		}
		fr, err := s.src.Read(&mat)
		switch {
		case errors.Is(err, io.EOF):
			if err != io.EOF {
				s.logf("%v", err) // (the end of a video cut short)
			}
			s.settle(ctx)
			s.finish(nil)
			return
		case errors.Is(err, ErrCorruptFrame):
			s.logf("frame %d: %v; skipped", fr.Index, err)
			continue
		case err != nil:
			s.logf("%v; retrying in %v", err, wait)
			s.send(ctx, models.Update{Frame: s.frame.Index, Time: s.frame.Time, State: s.State(), Status: fmt.Sprintf("%s lost, retrying…", s.src)})
			select {
			case <-ctx.Done():
				continue
			case <-time.After(wait):
			}
			wait = min(2*wait, s.cfg.MaxRetry)
			if rerr := s.src.Reopen(); rerr != nil {
				s.logf("%v", rerr)
			}
			continue
		}
		if wait != s.cfg.Retry {
			s.logf("%s: frames again at frame %d", s.src, fr.Index)
			wait = s.cfg.Retry
		}
		if s.cfg.Realtime && !s.src.Live() {
			if firstTime < 0 {
				firstTime, started = fr.Time, time.Now()
			}
			due := started.Add(time.Duration((fr.Time - firstTime) * float64(time.Second)))
			if d := time.Until(due); d > 0 {
				select {
				case <-ctx.Done():
				case <-time.After(d):
				}
			}
		}
		s.process(ctx, &mat, fr)
	}
}

// process runs one frame through calibration, vision, the tracker and the rules.
func (s *Session) process(ctx context.Context, mat *gocv.Mat, fr Frame) {
	u := models.Update{Frame: fr.Index, Time: fr.Time}
	s.mu.Lock()
	s.frame = fr
	cal := s.cal
	if cal != nil && s.calFromJournal && (cal.ImageWidth != mat.Cols() || cal.ImageHeight != mat.Rows()) {
		s.logf("frame %d: the frames are %dx%d, not %dx%d as before the restart: finding the realm again", fr.Index, mat.Cols(), mat.Rows(), cal.ImageWidth, cal.ImageHeight)
		cal, s.cal = nil, nil
	}
	s.calFromJournal = false
	if cal == nil {
		var err error
		switch {
		case s.cfg.Corners != nil:
			if cal, err = calibration.FromCorners(*s.cfg.Corners, mat.Cols(), mat.Rows()); err == nil {
				cal = s.stated(cal)
			}
		case fr.Index < s.nextDetect:
			err = errNotYet
		default:
			cal, err = s.findRealm(mat, findStart)
		}
		if err != nil {
			s.mu.Unlock()
			if !errors.Is(err, errNotYet) {
				s.logf("frame %d: realm not found: %v", fr.Index, err)
				// Finding the realm is slow: try again in half a second.
				s.nextDetect = fr.Index + max(1, int(s.src.FPS()/2))
			}
			u.Status = "looking for the realm…"
			s.send(ctx, s.withImage(u, mat))
			return
		}
		s.setCalibration(cal)
	}
	pending := s.tracker.Pending()
	s.mu.Unlock()
	if moved := s.checkDrift(mat, fr, cal); moved != nil {
		cal = moved
	}
	// While a move is suspected and not yet confirmed, the frame is read
	// through corners that may be wrong: every card would seem to jump.
	// The tracker is held as for a hand until the move is sure (the realm is
	// found again) or the next check clears it.
	moving := s.drifts > 0
	if other := s.doubtRealm(mat, fr, cal); other != nil {
		cal = other
	}

	if s.gate == nil || s.gateCal != cal {
		if s.gate != nil {
			s.gate.Close()
		}
		s.gate, s.gateCal = newChangeGate(cal), cal
		s.cover = newCoverWatch(cal, s.gate.size.X)
	}
	var obs models.FrameObservation
	verdict := changed
	// (a frame the gate sends to vision only because it skipped many is no change)
	forced := s.gate.hasRef && s.gate.skipped >= gateMaxSkip
	if s.cfg.NoGate {
		s.gate.look(*mat)
	} else {
		verdict = s.gate.judge(*mat)
	}
	// A hand that stays long is checked by vision now and then: a change at
	// the mat's edge that is not an arm must not hide the realm for long.
	if verdict == hand {
		s.handStreak++
	} else {
		s.handStreak, s.handClear = 0, 0
	}
	if verdict == changed && !forced {
		s.stillReads = 0
	}
	// While nothing moves, a reference that holds a unit vision did not name
	// is read again a few times: vision reads a still scene's unnamed cards
	// again (and names them when it can) only on the frames it is given.
	renaming := verdict == still && !pending && s.stillReads < stillRereads && anyUnnamed(s.refObs.Cards)
	if renaming {
		s.stillReads++
	}
	full := verdict == changed || verdict == still && (pending || renaming) ||
		verdict == hand && (s.handStreak > gateHandFrames || s.handClear > 0)
	switch {
	case moving:
		obs = models.FrameObservation{Occluded: true, Mat: s.refObs.Mat, Cards: []models.CardObservation{}}
		full = false
		s.skipped++
	case full:
		var err error
		if obs, err = s.analyzer.Analyze(*mat, cal); err != nil {
			s.logf("frame %d%s: %v; skipped", fr.Index, nameOf(fr), err)
			return
		}
		s.analysed++
		cal = s.keepLearnedGeometry(cal, fr.Index)
		s.noteAvatars(obs, cal)
	case verdict == hand:
		// An arm reaches across the mat: the tracker ignores such frames.
		obs = models.FrameObservation{Occluded: true, Mat: s.refObs.Mat, Cards: []models.CardObservation{}}
		s.gate.skipped++
		s.skipped++
	default:
		// Nothing moved since the board was last read and settled.
		obs = s.refObs
		obs.Cards = append([]models.CardObservation(nil), s.refObs.Cards...)
		s.gate.skipped++
		s.skipped++
	}
	obs.Frame, obs.Time = fr.Index, fr.Time
	if fr.Name != "" {
		obs.Image = fr.Name
	}

	s.mu.Lock()
	s.last = obs
	var sights []tracker.HiddenSight
	if !obs.Occluded {
		// Cards held hidden, and cards in sight that vision did not read:
		// whether the place each lay still looks as it did.
		look := append(s.tracker.Hidden(), unread(s.tracker.InSight(), obs)...)
		sights = s.cover.sights(look, obs, s.gate.picture())
	}
	evs := s.tracker.ObserveWith(obs, sights)
	if full && !obs.Occluded {
		s.cover.remember(obs, s.gate.picture())
	}
	u.Events, u.Warnings = s.record(evs)
	u.Observation = obs
	u.State = s.game.State()
	u.Status = s.tracker.Status()
	if moving {
		u.Status = "the camera or the mat may have moved: checking…"
	}
	s.mu.Unlock()
	switch {
	case full && !obs.Occluded && verdict == hand && s.handClear < gateHandFrames:
		// Vision sees no hand where the gate saw an arm: the arm may be on
		// its way out, so read the next frames in full rather than take
		// this one as the reference; a change at the edge that stays is
		// taken once vision has agreed for a while.
		s.handClear++
	case full && !obs.Occluded:
		// The reference is the last frame vision read without a hand: a
		// frame like it has the same cards (and while the tracker is still
		// settling a change, frames are read in full anyway).
		s.gate.setReference()
		s.refObs = obs
		s.handStreak, s.handClear = 0, 0
	case full && obs.Occluded:
		s.handClear = 0
	}
	s.send(ctx, s.withImage(u, mat))
}

// stillRereads is how many still frames in a row the pipeline reads in full
// while its reference holds an unnamed card: vision reads such a scene again
// on every second frame it is given, at most 8 times (vision's stable.go).
const stillRereads = 16

// anyUnnamed reports whether cards hold a unit or token vision did not
// name. (A site left unnamed is most often one under units, whose name
// the tracker gathers from many frames' votes.)
func anyUnnamed(cards []models.CardObservation) bool {
	for _, c := range cards {
		if !c.Identified() && c.Kind != models.KindSite {
			return true
		}
	}
	return false
}

// errNotYet stands for a realm search put off to a later frame.
var errNotYet = errors.New("not yet")

// Finding the realm takes from a fraction of a second to several seconds
// (calibration.Detect tries again on a faint or bowed grid). A file's frames
// wait for it, so that a replay is the same every time; a camera's do not:
// the search runs beside the frame loop on a copy of the frame, the frames
// that come meanwhile are shown with "looking for the realm…" (the overlay
// does not freeze), and the realm found is taken with a later frame. One
// search runs at a time.

// foundRealm is the answer of a realm search run beside the frame loop.
type foundRealm struct {
	cal *calibration.Calibration
	err error
}

// What a realm search is for: the first realm, the realm again after the
// camera or the mat moved, or another realm while the one in use is doubted.
const (
	findStart = "start"
	findMoved = "moved"
	findDoubt = "doubt"
)

// findRealm looks for the realm in mat, for why. From a live source it
// gives errNotYet while the search (started on this frame's copy, or on an
// earlier frame's) runs, or while a search for something else runs, and its
// answer with the first frame after it ends.
func (s *Session) findRealm(mat *gocv.Mat, why string) (*calibration.Calibration, error) {
	find := s.cfg.FindRealm
	if find == nil {
		find = calibration.Detect
	}
	if !s.src.Live() {
		return find(*mat, s.cfg.Detect)
	}
	if s.finding != nil && s.findingFor != why {
		return nil, errNotYet
	}
	if s.finding == nil {
		frame, opts, ch := mat.Clone(), s.cfg.Detect, make(chan foundRealm, 1)
		s.finding, s.findingFor = ch, why
		go func() {
			defer frame.Close()
			cal, err := find(frame, opts)
			ch <- foundRealm{cal, err}
		}()
	}
	select {
	case r := <-s.finding:
		s.finding = nil
		return r.cal, r.err
	default:
		return nil, errNotYet
	}
}

// driftEvery is how often, in frames, the pipeline checks that the camera
// and the mat have not moved (a check costs about half a millisecond);
// driftPersist is how many checks in a row must agree before it acts. The
// first check that sees a move holds the tracker (see moving in frame), so
// checks come often enough that a knocked camera is held before the
// tracker's stability window (a quarter second) could take the jumped
// cards for moves: within 5 frames, a sixth of a second at 30 fps.
const (
	driftEvery   = 5
	driftPersist = 4
)

// checkDrift looks, now and then, whether the camera or the mat moved. A
// realm found automatically is found again; corners given by the user are
// kept, and the user is told to recalibrate. It gives the new calibration,
// or nil.
func (s *Session) checkDrift(mat *gocv.Mat, fr Frame, cal *calibration.Calibration) *calibration.Calibration {
	if fr.Index%driftEvery != 0 {
		return nil
	}
	moved, score := cal.Drifted(*mat)
	if !moved {
		s.drifts, s.driftTold = 0, false
		if s.findingFor == findMoved {
			s.finding = nil // the camera is back: the search's answer is not wanted
		}
		return nil
	}
	s.drifts++
	if s.drifts < driftPersist {
		return nil
	}
	// The move is sure. Until the realm is found again (or the camera goes
	// back), the tracker stays held: the next check tries again.
	s.drifts = driftPersist - 1
	if s.cfg.Calibration != nil || s.cfg.Corners != nil || cal.Method == calibration.MethodManual {
		if !s.driftTold {
			s.logf("frame %d: the camera or the mat seems to have moved (drift %.2f); the game is held until you recalibrate with new corners", fr.Index, score)
			s.driftTold = true
		}
		return nil
	}
	found, err := s.findRealm(mat, findMoved)
	if errors.Is(err, errNotYet) {
		return nil
	}
	if err != nil {
		if !s.driftTold {
			s.logf("frame %d: the camera or the mat moved (drift %.2f) and the realm is not found again yet: %v", fr.Index, score, err)
			s.driftTold = true
		}
		return nil
	}
	s.logf("frame %d: the camera or the mat moved (drift %.2f): realm found again", fr.Index, score)
	s.drifts, s.driftTold = 0, false
	s.mu.Lock()
	s.setCalibration(found)
	s.mu.Unlock()
	return found
}

// Analysed gives how many frames vision read in full and how many the
// change gate spared (nothing had moved); call it after Wait.
func (s *Session) Analysed() (full, spared int) { return s.analysed, s.skipped }

func nameOf(fr Frame) string {
	if fr.Name == "" {
		return ""
	}
	return " (" + fr.Name + ")"
}

// record journals the tracker's events; the caller holds s.mu.
func (s *Session) record(evs []models.Event) ([]models.Event, []models.Warning) {
	if len(evs) == 0 {
		return nil, nil
	}
	applied, ws, err := s.game.RecordCamera(evs, s.tracker.Hidden())
	if err != nil {
		s.logf("rules: %v", err)
	}
	return applied, ws
}

// settle gives the tracker's last waiting changes at the end of a file.
func (s *Session) settle(ctx context.Context) {
	s.mu.Lock()
	evs := s.tracker.Flush()
	u := models.Update{Frame: s.frame.Index, Time: s.frame.Time}
	u.Events, u.Warnings = s.record(evs)
	u.State = s.game.State()
	s.mu.Unlock()
	if len(u.Events) > 0 {
		s.send(ctx, u)
	}
}

// finish closes the journal: a clean end (the file ended, or the user
// stopped) writes its end entry.
func (s *Session) finish(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ended = true
	if j := s.game.Journal(); j != nil {
		if eerr := s.game.End(); eerr != nil && err == nil {
			err = eerr
		}
		j.Close()
	}
	if errors.Is(err, context.Canceled) {
		err = nil
	}
	s.err = err
}

func (s *Session) withImage(u models.Update, mat *gocv.Mat) models.Update {
	if !s.cfg.WithImages {
		return u
	}
	if img, err := mat.ToImage(); err == nil {
		u.Image = img
	}
	return u
}

// send hands an update (and any from the controller before it) to the consumer.
func (s *Session) send(ctx context.Context, u models.Update) {
	s.mu.Lock()
	pending := s.pending
	s.pending = nil
	s.mu.Unlock()
	for _, p := range append(pending, u) {
		select {
		case s.updates <- p:
		case <-ctx.Done():
			return
		}
	}
}

func (s *Session) flushPending(ctx context.Context, status string) {
	s.mu.Lock()
	n := len(s.pending)
	s.mu.Unlock()
	if n == 0 {
		return
	}
	s.send(ctx, models.Update{Frame: s.frame.Index, Time: s.frame.Time, State: s.State(), Status: status})
}

func (s *Session) isPaused() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.paused
}

// queue records an update from a controller call; the caller holds s.mu.
func (s *Session) queue(evs []models.Event, ws []models.Warning, status string) {
	s.pending = append(s.pending, models.Update{Frame: s.frame.Index, Time: s.frame.Time, State: s.game.State(),
		Events: evs, Warnings: ws, Observation: s.last, Status: status})
}
