package live

import (
	"bytes"
	"context"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/ui/internal/uitest"
)

func parse(t *testing.T, args ...string) (Options, error) {
	t.Helper()
	var o Options
	var errs bytes.Buffer
	fs := NewFlagSet("test", &o, &errs)
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	return o, nil
}

func TestArgsPassTheFlagsOn(t *testing.T) {
	tests := [][]string{
		{"--camera", "0", "--catalog", "cat", "--stream", "--chroma", "#00ff00", "--mute", "--volume", "0.5"},
		{"--video", "g.avi", "--catalog", "c", "--calibration", "cal.json", "--cell-mm", "120x90", "--snapshot-every", "10", "--out", "snaps", "--volume", "1"},
		{"--frames", "dir", "--catalog", "c", "--corners", "1,2 3,4 5,6 7,8", "--journal", "j.jsonl", "--resume", "--fast", "--volume", "0.8", "--screenshot", "a.png", "--screenshot-after", "3"},
	}
	for _, args := range tests {
		o, err := parse(t, args...)
		if err != nil {
			t.Fatal(err)
		}
		again, err := parse(t, o.Args()...)
		if err != nil {
			t.Fatalf("%q: %v", o.Args(), err)
		}
		if !reflect.DeepEqual(o, again) {
			t.Errorf("flags %q came back as %+v, want %+v", args, again, o)
		}
	}
}

func TestCheck(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir()) // no journals
	tests := []struct {
		args []string
		err  string
	}{
		{[]string{"--camera", "0", "--video", "x.avi", "--catalog", "c"}, "one of --camera"},
		{[]string{"--camera", "0", "--catalog", "c", "--volume", "3"}, "--volume 3"},
		{[]string{"--camera", "0", "--catalog", "c", "--chroma", "green"}, "--chroma"},
		{[]string{"--camera", "0", "--catalog", "c", "--snapshot-every", "-2"}, "--snapshot-every"},
		{[]string{"--camera", "0", "--catalog", "c", "--size", "big"}, "--size"},
		{[]string{"--camera", "0", "--catalog", "c", "--resume"}, "--resume: no unfinished game in "},
		{[]string{"--camera", "0", "--catalog", "c", "--cell-mm", "12x9"}, "--cell-mm: realm cell size \"12x9\""},
		{[]string{"--camera", "0", "--catalog", "c", "--cell-mm", "120"}, "--cell-mm: realm cell size \"120\": want WIDTHxHEIGHT"},
		{[]string{"--camera", "1", "--catalog", "c", "--size", "1920x1080"}, ""},
		{[]string{"--camera", "1", "--catalog", "c", "--cell-mm", "120x90"}, ""},
	}
	for _, tc := range tests {
		o, err := parse(t, tc.args...)
		if err != nil {
			t.Fatal(err)
		}
		err = o.Check()
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%q: error %v, want %q", tc.args, err, tc.err)
		}
	}
}

func TestParseColor(t *testing.T) {
	tests := []struct {
		in   string
		want color.NRGBA
		ok   bool
	}{
		{"#00ff00", color.NRGBA{0, 255, 0, 255}, true},
		{"FF00ff", color.NRGBA{255, 0, 255, 255}, true},
		{"#0f0", color.NRGBA{}, false},
		{"#gg0000", color.NRGBA{}, false},
	}
	for _, tc := range tests {
		got, err := ParseColor(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseColor(%q) = %v, %v", tc.in, got, err)
		}
	}
}

// fakeFeed replays updates and records nothing.
type fakeFeed struct {
	updates chan models.Update
}

func (f *fakeFeed) Manual(models.Event) error       { return nil }
func (f *fakeFeed) Undo() error                     { return nil }
func (f *fakeFeed) Correct(models.Correction) error { return nil }
func (f *fakeFeed) Recalibrate(models.Quad) error   { return nil }
func (f *fakeFeed) SetPaused(bool)                  {}
func (f *fakeFeed) Updates() <-chan models.Update   { return f.updates }
func (f *fakeFeed) Wait() error                     { return nil }

func TestHeadlessWritesSnapshots(t *testing.T) {
	t.Setenv("HOME", t.TempDir()) // no .asoundrc: whatever device the machine has, or none
	feed := &fakeFeed{updates: make(chan models.Update, 100)}
	st := uitest.Midgame()
	for f := 0; f < 75; f++ {
		feed.updates <- models.Update{Frame: f, Time: float64(f) / 30, State: st}
	}
	close(feed.updates)
	dir := filepath.Join(t.TempDir(), "snaps")
	var out, errs bytes.Buffer
	o := Options{Out: dir, SnapshotEvery: 30, Mute: true}
	if err := Headless(context.Background(), o, &Game{Feed: feed}, &out, &errs); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.png"))
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f))
	}
	want := []string{"frame-000000.png", "frame-000030.png", "frame-000060.png", "frame-000074.png"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("snapshots %q, want %q", names, want)
	}
	f, err := os.Open(filepath.Join(dir, "frame-000060.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 1280 || b.Dy() != 720 {
		t.Errorf("snapshot is %v", b)
	}
	if !strings.Contains(out.String(), dir) || !strings.Contains(out.String(), "wrote 4 snapshots") {
		t.Errorf("output does not name the folder and count:\n%s", out.String())
	}
}

func TestResumeFindsTheLastUnfinishedGame(t *testing.T) {
	data := t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	dir := filepath.Join(data, "tablecam", "journals")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	start := `{"seq":1,"at":"2026-11-29T10:00:00Z","kind":"start"}` + "\n"
	older := write("2026-11-28T10-00-00.000Z.jsonl", start)
	write("2026-11-29T10-00-00.000Z.jsonl", start+`{"seq":2,"at":"2026-11-29T11:00:00Z","kind":"end"}`+"\n")
	o, err := parse(t, "--camera", "0", "--catalog", "c", "--resume")
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Check(); err != nil {
		t.Fatal(err)
	}
	if o.Journal != older {
		t.Errorf("--resume picked %q, want the unfinished %q (the newer game ended)", o.Journal, older)
	}
}
