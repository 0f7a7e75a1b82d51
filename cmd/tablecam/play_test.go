package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tablecam/tablecam/tracker"
)

// twoStills copies two bundled still scenes into a frames folder.
func twoStills(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"0004.jpg", "0005.jpg"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "samples", "stills", name))
		if err != nil {
			t.Skip("bundled stills missing:", err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestPlayHeadlessWritesSnapshots(t *testing.T) {
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	t.Setenv("HOME", t.TempDir())
	frames := twoStills(t)
	out := filepath.Join(t.TempDir(), "snaps")
	journal := filepath.Join(t.TempDir(), "game.jsonl")
	stdout, stderr, code := runTablecam(t, "--frames", frames, "--catalog", filepath.Join("..", "..", "samples", "catalog"),
		"--fast", "--snapshot-every", "1", "--out", out, "--journal", journal)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "no display") || !strings.Contains(stdout, out) {
		t.Errorf("headless run should say there is no display and name the folder:\n%s", stdout)
	}
	files, _ := filepath.Glob(filepath.Join(out, "frame-*.png"))
	if len(files) < 2 {
		t.Errorf("%d snapshots in %s, want one per frame (2)", len(files), out)
	}
}

func TestPlayNeedsTheOverlayBinary(t *testing.T) {
	t.Setenv("DISPLAY", ":99")
	frames := twoStills(t)
	_, stderr, code := runTablecam(t, "--frames", frames, "--catalog", filepath.Join("..", "..", "samples", "catalog"))
	if code != 1 || !strings.Contains(stderr, "tablecam-overlay") || !strings.Contains(stderr, "make build") {
		t.Errorf("exit %d, stderr %q: want 1 and a hint to build the overlay", code, stderr)
	}
}

func TestPlayBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--volume", "3", "--camera", "0"},
		{"--camera", "0", "--video", "x.avi"},
		{"--camera", "0", "--chroma", "green"},
		{"play", "extra-argument", "--camera", "0"},
	} {
		_, stderr, code := runTablecam(t, args...)
		if code != 2 || stderr == "" {
			t.Errorf("%q: exit %d, stderr %q; want 2 with a message", args, code, stderr)
		}
	}
}

// TestNoEbitenInTablecam guards the rule that keeps tablecam running without
// a display: Ebiten panics at start-up in any process that links it.
func TestNoEbitenInTablecam(t *testing.T) {
	gocmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command(gocmd, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.Contains(dep, "hajimehoshi/ebiten") {
			t.Fatalf("tablecam links %s", dep)
		}
	}
}

func TestCannotOpenWindow(t *testing.T) {
	tests := []struct {
		stderr string
		want   string
	}{
		{"glfw: X11: Failed to open display :987: a platform-specific error occurred\npanic: glfw: The GLFW library is not initialized\n\ngoroutine 1 [running]:", "X11: Failed to open display :987"},
		{"panic: glfw: The DISPLAY environment variable is missing", "The DISPLAY environment variable is missing"},
		{"tablecam-overlay: catalog: open x: no such file or directory", ""},
		{"", ""},
	}
	for _, tc := range tests {
		if got := cannotOpenWindow(tc.stderr); got != tc.want {
			t.Errorf("cannotOpenWindow(%q) = %q, want %q", tc.stderr, got, tc.want)
		}
	}
}

func TestHeldWriter(t *testing.T) {
	var out strings.Builder
	h := &heldWriter{w: &out}
	fmt.Fprint(h, "one ")
	fmt.Fprint(h, "two ")
	if out.Len() != 0 || h.heldBack() != "one two " {
		t.Fatalf("before release: passed on %q, held %q", out.String(), h.heldBack())
	}
	h.release()
	fmt.Fprint(h, "three")
	h.release()
	if out.String() != "one two three" {
		t.Errorf("after release: %q", out.String())
	}
}

// buildBinaries builds tablecam and tablecam-overlay side by side, as make build does.
func buildBinaries(t *testing.T) string {
	t.Helper()
	gocmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	dir := t.TempDir()
	cmd := exec.Command(gocmd, "build", "-o", dir+string(filepath.Separator), "github.com/tablecam/tablecam/cmd/tablecam", "github.com/tablecam/tablecam/cmd/tablecam-overlay")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return dir
}

// TestPlayBinaries runs the built tablecam and tablecam-overlay as a user would.
func TestPlayBinaries(t *testing.T) {
	if testing.Short() {
		t.Skip("builds both binaries")
	}
	bin := buildBinaries(t)
	t.Run("dead display", func(t *testing.T) { playOnADeadDisplay(t, bin) })
	t.Run("window", func(t *testing.T) { playShowsTheWindow(t, bin) })
	t.Run("stopped", func(t *testing.T) { playStopsCleanly(t, bin) })
	t.Run("window lost after the game began", func(t *testing.T) { playWhenTheWindowFailsLate(t, bin) })
}

// playStopsCleanly interrupts tablecam while the overlay plays the demo
// game: the overlay is asked to stop, not killed, so the game's journal
// ends cleanly (and the next start does not take it for a crash).
func playStopsCleanly(t *testing.T, bin string) {
	if os.Getenv("DISPLAY") == "" {
		t.Skip("no display")
	}
	video := filepath.Join("..", "..", "samples", "games", "demo", "game.avi")
	if _, err := os.Stat(video); err != nil {
		t.Skip("bundled demo game missing:", err)
	}
	out := filepath.Join(t.TempDir(), "snaps")
	journal := filepath.Join(t.TempDir(), "game.jsonl")
	cmd := exec.Command(filepath.Join(bin, "tablecam"), "--video", video, "--catalog", filepath.Join("..", "..", "samples", "catalog"),
		"--mute", "--snapshot-every", "1", "--out", out, "--journal", journal)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	// Wait for the overlay to show the game (its first snapshot).
	for shots := []string(nil); len(shots) == 0; shots, _ = filepath.Glob(filepath.Join(out, "*.png")) {
		select {
		case err := <-exited:
			t.Fatalf("tablecam ended before showing the game: %v\n%s\n%s", err, stdout.String(), stderr.String())
		case <-time.After(100 * time.Millisecond):
		}
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if err := <-exited; err != nil {
		t.Errorf("interrupted tablecam: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	entries, _, err := tracker.ReadJournal(journal)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(entries); n == 0 || entries[n-1].Kind != tracker.EntryEnd {
		t.Errorf("the journal of an interrupted game does not end cleanly: %+v", entries[max(0, n-1):])
	}
}

// playOnADeadDisplay runs tablecam with DISPLAY naming an X server that is
// not there: one line says why there is no window, the overlay's crash
// stays hidden, and the game runs headless.
func playOnADeadDisplay(t *testing.T, bin string) {
	display := ""
	for n := 987; n < 1100; n++ {
		if _, err := os.Stat(fmt.Sprintf("/tmp/.X11-unix/X%d", n)); os.IsNotExist(err) {
			display = fmt.Sprintf(":%d", n)
			break
		}
	}
	if display == "" {
		t.Skip("no free display number")
	}
	frames := twoStills(t)
	out := filepath.Join(t.TempDir(), "snaps")
	cmd := exec.Command(filepath.Join(bin, "tablecam"), "--frames", frames, "--catalog", filepath.Join("..", "..", "samples", "catalog"),
		"--snapshot-every", "1", "--out", out, "--journal", filepath.Join(t.TempDir(), "game.jsonl"))
	cmd.Env = append(os.Environ(), "DISPLAY="+display, "WAYLAND_DISPLAY=", "HOME="+t.TempDir())
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	all := stdout.String() + stderr.String()
	for _, bad := range []string{"panic", "goroutine", "glfw: The GLFW library"} {
		if strings.Contains(all, bad) {
			t.Errorf("the overlay's crash reached the terminal (%q):\n%s", bad, all)
		}
	}
	want := fmt.Sprintf("could not open a window on display %q (X11: Failed to open display %s)", display, display)
	if strings.Count(stdout.String(), "could not open a window") != 1 || !strings.Contains(stdout.String(), want) {
		t.Errorf("want one line %q:\n%s", want, stdout.String())
	}
	if files, _ := filepath.Glob(filepath.Join(out, "frame-*.png")); len(files) < 2 {
		t.Errorf("%d headless snapshots in %s, want 2", len(files), out)
	}
}

// playWhenTheWindowFailsLate runs tablecam beside a stand-in overlay that
// begins the game (it reads the frames into the journal it is given, as the
// overlay does before its window opens) and then fails as a window that
// cannot be opened does. tablecam goes on headless in the same journal:
// one game, one journal, not a second one beside an abandoned first.
func playWhenTheWindowFailsLate(t *testing.T, bin string) {
	dir := t.TempDir()
	exe, err := os.ReadFile(filepath.Join(bin, "tablecam"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tablecam"), exe, 0o755); err != nil {
		t.Fatal(err)
	}
	overlay := "#!/bin/sh\n" +
		"DISPLAY= WAYLAND_DISPLAY= \"$(dirname \"$0\")/tablecam\" \"$@\" >/dev/null 2>&1\n" +
		"echo 'panic: glfw: GLX: No GLX display: a platform-specific error occurred' >&2\n" +
		"exit 2\n"
	if err := os.WriteFile(filepath.Join(dir, "tablecam-overlay"), []byte(overlay), 0o755); err != nil {
		t.Fatal(err)
	}
	frames := twoStills(t)
	data := t.TempDir()
	cmd := exec.Command(filepath.Join(dir, "tablecam"), "--frames", frames, "--catalog", filepath.Join("..", "..", "samples", "catalog"),
		"--fast", "--mute", "--out", filepath.Join(t.TempDir(), "snaps"))
	cmd.Env = append(os.Environ(), "DISPLAY=:1", "HOME="+t.TempDir(), "XDG_DATA_HOME="+data)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	journals, _ := filepath.Glob(filepath.Join(data, "tablecam", "journals", "*.jsonl"))
	if len(journals) != 1 {
		t.Fatalf("journals %q after the window failed, want the one game's", journals)
	}
	if want := "continuing the game the overlay began in " + journals[0]; !strings.Contains(stdout.String(), want) {
		t.Errorf("want %q:\n%s", want, stdout.String())
	}
	entries, _, err := tracker.ReadJournal(journals[0])
	if err != nil {
		t.Fatal(err)
	}
	starts := 0
	for _, en := range entries {
		if en.Kind == tracker.EntryStart {
			starts++
		}
	}
	if starts != 2 {
		t.Errorf("%d starts in the journal, want 2 (the overlay's, and the headless run's resuming it)", starts)
	}
}

// playShowsTheWindow runs tablecam on a working display (Xvfb under make
// test): the overlay opens, its messages reach the terminal, and it writes
// the screenshot it was asked for.
func playShowsTheWindow(t *testing.T, bin string) {
	if os.Getenv("DISPLAY") == "" {
		t.Skip("no display")
	}
	frames := twoStills(t)
	shot := filepath.Join(t.TempDir(), "shot.png")
	cmd := exec.Command(filepath.Join(bin, "tablecam"), "--frames", frames, "--catalog", filepath.Join("..", "..", "samples", "catalog"),
		"--mute", "--fast", "--screenshot", shot, "--journal", filepath.Join(t.TempDir(), "game.jsonl"))
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	if strings.Contains(stdout.String(), "headless") {
		t.Errorf("ran headless on a working display:\n%s", stdout.String())
	}
	if _, err := os.Stat(shot); err != nil || !strings.Contains(stdout.String(), "wrote "+shot) {
		t.Errorf("no screenshot (%v):\n%s", err, stdout.String())
	}
}

// TestPlayResumesTheLastUnfinishedGame plays two frames headless, cuts the
// journal's end off as a crash would, and resumes it with --resume alone.
func TestPlayResumesTheLastUnfinishedGame(t *testing.T) {
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	t.Setenv("HOME", t.TempDir())
	data := t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	frames := twoStills(t)
	catalog := filepath.Join("..", "..", "samples", "catalog")
	out := filepath.Join(t.TempDir(), "snaps")
	if _, stderr, code := runTablecam(t, "--frames", frames, "--catalog", catalog, "--resume", "--out", out); code != 2 || !strings.Contains(stderr, "no unfinished game") {
		t.Errorf("--resume with no journal: exit %d, %q; want 2 saying there is no unfinished game", code, stderr)
	}
	stdout, stderr, code := runTablecam(t, "--frames", frames, "--catalog", catalog, "--fast", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	journals, _ := filepath.Glob(filepath.Join(data, "tablecam", "journals", "*.jsonl"))
	if len(journals) != 1 {
		t.Fatalf("journals %q, want one", journals)
	}
	// The crash: the journal loses its end.
	text, err := os.ReadFile(journals[0])
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(text), "\n"), "\n")
	if !strings.Contains(lines[len(lines)-1], `"kind":"end"`) {
		t.Fatalf("the journal does not end cleanly: %q", lines[len(lines)-1])
	}
	os.WriteFile(journals[0], []byte(strings.Join(lines[:len(lines)-1], "")), 0o644)

	_, stderr, code = runTablecam(t, "--frames", frames, "--catalog", catalog, "--fast", "--out", out)
	if code != 0 || !strings.Contains(stderr, "a game a crash interrupted is in "+journals[0]) {
		t.Errorf("a new game: exit %d, want a hint about the interrupted game:\n%s", code, stderr)
	}
	stdout, stderr, code = runTablecam(t, "--frames", frames, "--catalog", catalog, "--fast", "--out", out, "--resume")
	if code != 0 || !strings.Contains(stderr, "resuming the game in "+journals[0]) {
		t.Errorf("--resume: exit %d, want it to resume %s:\n%s\n%s", code, journals[0], stdout, stderr)
	}
}
