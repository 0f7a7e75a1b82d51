package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
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
		want   bool
	}{
		{"panic: glfw: X11: Failed to open display :987\n\ngoroutine 1 [running]:", true},
		{"panic: glfw: The DISPLAY environment variable is missing", true},
		{"tablecam-overlay: catalog: open x: no such file or directory", false},
		{"", false},
	}
	for _, tc := range tests {
		if got := cannotOpenWindow(tc.stderr); got != tc.want {
			t.Errorf("cannotOpenWindow(%q) = %v", tc.stderr, got)
		}
	}
	var tb tailBuffer
	for i := 0; i < 3000; i++ {
		tb.Write([]byte("0123456789"))
	}
	tb.Write([]byte("glfw: end"))
	if s := tb.String(); len(s) != 8<<10 || !strings.HasSuffix(s, "glfw: end") {
		t.Errorf("tail kept %d bytes ending %q", len(s), s[len(s)-12:])
	}
}
