package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/synth"
	"github.com/tablecam/tablecam/tracker"
	"gocv.io/x/gocv"
)

func TestWatchBadInput(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	finished := filepath.Join(dir, "finished.jsonl")
	os.WriteFile(finished, []byte(`{"seq":1,"kind":"start"}`+"\n"+`{"seq":2,"kind":"end"}`+"\n"), 0o644)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"watch"}, "exactly one of --video, --camera or --frames"},
		{[]string{"watch", "--video", "a.avi", "--frames", dir}, "exactly one of"},
		{[]string{"watch", "--video", filepath.Join(dir, "missing.avi"), "--journal", filepath.Join(dir, "j.jsonl")}, "missing.avi"},
		{[]string{"watch", "--frames", dir, "--journal", filepath.Join(dir, "j2.jsonl")}, "no numbered images"},
		{[]string{"watch", "--frames", dir, "--window", "-1"}, "--window"},
		{[]string{"watch", "--frames", dir, "--corners", "1,2 3"}, "--corners"},
		{[]string{"watch", "--frames", dir, "--cell-mm", "100x7.5"}, `--cell-mm: realm cell size "100x7.5": realm cell height 7.5 mm is outside`},
		{[]string{"watch", "--frames", dir, "--cell-mm", "100 by 75"}, "--cell-mm: realm cell size \"100 by 75\": want WIDTHxHEIGHT"},
		{[]string{"watch", "--frames", dir, "--journal", finished}, "finished game"},
	}
	for _, tc := range tests {
		var out, errOut bytes.Buffer
		code := run(context.Background(), env{args: append(tc.args, "--catalog", "../../samples/catalog"), stdin: strings.NewReader(""), stdout: &out, stderr: &errOut})
		if code != 2 || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut.String(), tc.want)
		}
	}
}

// stillsGame makes a folder of frames from two still scenes of the samples,
// each held for a second, under one camera: the second scene's board is
// seen through the first one's camera (its realm warped onto the first
// one's), so the board changes once, as under a hand, and the camera does
// not move (a camera that moves holds the game until the realm is found
// again; see TestKnockedCameraMakesNoMoves in pipeline).
func stillsGame(t *testing.T) string {
	t.Helper()
	stills, err := filepath.Abs("../../samples/stills")
	if err != nil || !fileExists(filepath.Join(stills, "0008.jpg")) {
		t.Skip("no sample stills")
	}
	dir := t.TempDir()
	first := filepath.Join(stills, "0008.jpg")
	second := filepath.Join(dir, "0010-seen-as-0008.png")
	seenThrough(t, filepath.Join(stills, "0010"), filepath.Join(stills, "0008"), second)
	n := 0
	for _, s := range []string{first, second, first} {
		for i := 0; i < 30; i++ {
			n++
			if err := os.Symlink(s, filepath.Join(dir, fmt.Sprintf("%04d%s", n, filepath.Ext(s)))); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

// seenThrough writes to out the still scene (path without extension) as
// the camera of still other saw it: its realm warped onto other's realm,
// other's picture wherever the scene's own frame does not reach.
func seenThrough(t *testing.T, scene, other, out string) {
	t.Helper()
	from, err := synth.LoadSceneTruth(scene + ".json")
	if err != nil {
		t.Fatal(err)
	}
	to, err := synth.LoadSceneTruth(other + ".json")
	if err != nil {
		t.Fatal(err)
	}
	img := gocv.IMRead(scene+".jpg", gocv.IMReadColor)
	base := gocv.IMRead(other+".jpg", gocv.IMReadColor)
	defer img.Close()
	defer base.Close()
	if img.Empty() || base.Empty() {
		t.Fatalf("cannot read %s.jpg or %s.jpg", scene, other)
	}
	points := func(q models.Quad) gocv.PointVector {
		var ps []image.Point
		for _, p := range q {
			ps = append(ps, image.Pt(int(math.Round(p.X)), int(math.Round(p.Y))))
		}
		return gocv.NewPointVectorFromPoints(ps)
	}
	src, dst := points(from.Corners), points(to.Corners)
	defer src.Close()
	defer dst.Close()
	m := gocv.GetPerspectiveTransform(src, dst)
	defer m.Close()
	size := image.Pt(base.Cols(), base.Rows())
	warped, reach, white := gocv.NewMat(), gocv.NewMat(), gocv.NewMatWithSizeFromScalar(gocv.NewScalar(255, 255, 255, 0), img.Rows(), img.Cols(), gocv.MatTypeCV8U)
	defer warped.Close()
	defer reach.Close()
	defer white.Close()
	gocv.WarpPerspective(img, &warped, m, size)
	gocv.WarpPerspectiveWithParams(white, &reach, m, size, gocv.InterpolationNearestNeighbor, gocv.BorderConstant, color.RGBA{})
	warped.CopyToWithMask(&base, reach)
	if !gocv.IMWrite(out, base) {
		t.Fatalf("cannot write %s", out)
	}
}

func finalState(t *testing.T, journal string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := run(context.Background(), env{args: []string{"replay", "--json", "--final", "--catalog", "../../samples/catalog", journal},
		stdout: &out, stderr: &errOut}); code != 0 {
		t.Fatalf("replay %s: exit %d: %s", journal, code, errOut.String())
	}
	return strings.TrimSpace(out.String())
}

// TestWatchResumesAfterKill starts `tablecam watch` (this test binary, run
// as the command) on real frames with real vision, kills it with SIGKILL in
// the middle, resumes it, and compares the game with an uninterrupted one.
// The resumed run must read on through the corners saved beside the
// journal.
func TestWatchResumesAfterKill(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the pipeline three times")
	}
	if args := os.Getenv("TABLECAM_WATCH_ARGS"); args != "" {
		return
	}
	frames := stillsGame(t)
	dir := t.TempDir()
	journal := filepath.Join(dir, "killed.jsonl")
	cache := filepath.Join(dir, "cache")
	args := []string{"watch", "--headless", "--realtime", "--frames", frames, "--catalog", "../../samples/catalog", "--journal", journal}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestWatchChild$")
	blob, _ := json.Marshal(args)
	cmd.Env = append(os.Environ(), "TABLECAM_WATCH_ARGS="+string(blob), "XDG_CACHE_HOME="+cache, "XDG_DATA_HOME="+dir)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// A guard against a watch that never gets there, not a timing check:
	// it indexes the catalog first (a fresh cache), and a loaded machine
	// running other packages' tests beside it once took over a minute.
	deadline := time.Now().Add(4 * time.Minute)
	for {
		data, _ := os.ReadFile(journal)
		if bytes.Contains(data, []byte("site_destroyed")) {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("the watch never got to the second scene:\n%s", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	entries, _, err := tracker.ReadJournal(journal)
	if err != nil {
		t.Fatal(err)
	}
	if entries[len(entries)-1].Kind == tracker.EntryEnd {
		t.Fatal("the watch ended before it was killed")
	}

	// Without --resume and without a terminal, watch says how to resume.
	t.Setenv("XDG_DATA_HOME", dir)
	t.Setenv("XDG_CACHE_HOME", cache)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), env{args: []string{"watch", "--headless", "--frames", frames, "--catalog", "../../samples/catalog", "--journal", journal},
		stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr})
	if code != 2 || !strings.Contains(stderr.String(), "add --resume to continue it") {
		t.Fatalf("exit %d, stderr %q: want the way to resume", code, stderr.String())
	}
	stderr.Reset()
	code = run(context.Background(), env{args: []string{"watch", "--headless", "--frames", frames, "--catalog", "../../samples/catalog", "--journal", journal, "--resume"},
		stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr})
	if code != 0 || !strings.Contains(stderr.String(), "resumed with the calibration of") {
		t.Fatalf("resume: exit %d: %s", code, stderr.String())
	}
	clean := filepath.Join(dir, "clean.jsonl")
	stderr.Reset()
	if code := run(context.Background(), env{args: []string{"watch", "--headless", "--frames", frames, "--catalog", "../../samples/catalog", "--journal", clean},
		stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr}); code != 0 {
		t.Fatalf("clean run: exit %d: %s", code, stderr.String())
	}
	if got, want := finalState(t, journal), finalState(t, clean); got != want {
		t.Fatalf("the resumed game differs from an uninterrupted one\nresumed %s\n  clean %s", got, want)
	}
}

// TestWatchChild runs `tablecam` with the arguments its parent test gives.
func TestWatchChild(t *testing.T) {
	blob := os.Getenv("TABLECAM_WATCH_ARGS")
	if blob == "" {
		t.Skip("only run as the child of TestWatchResumesAfterKill")
	}
	var args []string
	if err := json.Unmarshal([]byte(blob), &args); err != nil {
		t.Fatal(err)
	}
	os.Exit(run(context.Background(), env{args: args, stdin: strings.NewReader(""), stdout: os.Stdout, stderr: os.Stderr}))
}
