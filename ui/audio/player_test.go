package audio

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// captureFile is where ALSA's file plugin writes what the player plays; set by TestMain.
var captureFile string

// TestMain points ALSA's default device at its file plugin over the null
// device, through a .asoundrc in a temporary HOME, so the tests play through
// real PortAudio and ALSA and read back what was played.
func TestMain(m *testing.M) {
	if os.Getenv("TABLECAM_AUDIO_CHILD") != "" {
		os.Exit(m.Run())
	}
	home, err := os.MkdirTemp("", "tablecam-audio")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	captureFile = filepath.Join(home, "out.raw")
	rc := fmt.Sprintf("pcm.!default { type file; slave.pcm \"null\"; file %q; format \"raw\" }\n", captureFile)
	if err := os.WriteFile(filepath.Join(home, ".asoundrc"), []byte(rc), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("HOME", home)
	os.Unsetenv("XDG_RUNTIME_DIR")
	code := m.Run()
	os.RemoveAll(home)
	os.Exit(code)
}

// segment is a run of sound in a capture, in samples.
type segment struct{ start, end int }

// segments splits samples into sounds separated by at least 20 ms of near silence.
func segments(x []int16) []segment {
	const level, gap = 300, SampleRate / 50
	var out []segment
	last := -gap - 1
	for i, v := range x {
		if v > level || v < -level {
			if i-last > gap {
				out = append(out, segment{start: i})
			}
			out[len(out)-1].end = i + 1
			last = i
		}
	}
	return out
}

// dominantPitch scans 50–2000 Hz with the Goertzel filter and gives the
// frequency of the strongest component.
func dominantPitch(x []int16) float64 {
	best, bestF := 0.0, 0.0
	for f := 50.0; f <= 2000; f += 2 {
		w := 2 * math.Pi * f / SampleRate
		c := 2 * math.Cos(w)
		var s1, s2 float64
		for _, v := range x {
			s0 := float64(v) + c*s1 - s2
			s2, s1 = s1, s0
		}
		if p := s1*s1 + s2*s2 - c*s1*s2; p > best {
			best, bestF = p, f
		}
	}
	return bestF
}

func TestPlayerPlaysEachCueThroughALSA(t *testing.T) {
	p := Open(os.Stderr)
	if !p.Enabled() {
		t.Fatal("the player did not open ALSA's file plugin")
	}
	p.SetVolume(0.8)
	for _, c := range Cues() {
		p.Play(c)
		p.Drain()
	}
	// Muted, a cue still goes to the device, as silence.
	p.SetMuted(true)
	p.Play(SitePlayed)
	p.Drain()
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(captureFile)
	if err != nil {
		t.Fatal(err)
	}
	x := make([]int16, len(raw)/2)
	if err := binary.Read(bytes.NewReader(raw), binary.LittleEndian, x); err != nil {
		t.Fatal(err)
	}
	segs := segments(x)
	if len(segs) != len(Cues()) {
		t.Fatalf("captured %d sounds, want %d (one per cue, none when muted)", len(segs), len(Cues()))
	}
	want := len(Samples(SitePlayed, SampleRate))
	for _, c := range Cues() {
		want += len(Samples(c, SampleRate))
	}
	if len(x) < want {
		t.Errorf("captured %d samples, want at least %d: the muted cue wrote no silence", len(x), want)
	}
	var pitches []float64
	for i, c := range Cues() {
		sp := SpecOf(c)
		s := segs[i]
		got := time.Duration(float64(s.end-s.start) / SampleRate * float64(time.Second))
		if got < sp.Duration-30*time.Millisecond || got > sp.Duration+5*time.Millisecond {
			t.Errorf("%s lasted %v, want %v", c, got, sp.Duration)
		}
		pitch := dominantPitch(x[s.start:s.end])
		if math.Abs(pitch-sp.Pitch) > sp.Pitch*0.03 {
			t.Errorf("%s: dominant pitch %.0f Hz, want %.0f Hz", c, pitch, sp.Pitch)
		}
		pitches = append(pitches, pitch)
		peak := 0
		for _, v := range x[s.start:s.end] {
			peak = max(peak, int(v), -int(v))
		}
		if peak < 8000 || peak > 32000 {
			t.Errorf("%s: peak %d of 32767", c, peak)
		}
	}
	for i := range pitches {
		for j := i + 1; j < len(pitches); j++ {
			if r := pitches[i] / pitches[j]; r > 0.8 && r < 1.25 {
				t.Errorf("%s and %s sound alike (%.0f and %.0f Hz)", Cues()[i], Cues()[j], pitches[i], pitches[j])
			}
		}
	}
}

func TestVolumeScalesSamples(t *testing.T) {
	p := &Player{volume: 1}
	for _, tc := range []struct {
		set, want float64
	}{{0.5, 0.5}, {2, 1}, {-1, 0}} {
		p.SetVolume(tc.set)
		if v, _ := p.Volume(); v != tc.want {
			t.Errorf("SetVolume(%v): volume %v, want %v", tc.set, v, tc.want)
		}
	}
}

// TestNoDevice runs a child process whose ALSA default device is a card that
// does not exist: the player must say so in one line and play nothing, without crashing.
func TestNoDevice(t *testing.T) {
	if os.Getenv("TABLECAM_AUDIO_CHILD") == "nodevice" {
		p := Open(os.Stderr)
		p.Play(Warning)
		p.Drain()
		if err := p.Close(); err != nil {
			fmt.Println("close:", err)
		}
		fmt.Println("enabled:", p.Enabled())
		return
	}
	home := t.TempDir()
	rc := "pcm.!default { type hw; card 29 }\nctl.!default { type hw; card 29 }\n"
	if err := os.WriteFile(filepath.Join(home, ".asoundrc"), []byte(rc), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestNoDevice$", "-test.count=1")
	cmd.Env = append(os.Environ(), "HOME="+home, "TABLECAM_AUDIO_CHILD=nodevice")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("child: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "enabled: false") {
		t.Errorf("with no device the player is enabled:\n%s", stdout.String())
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
		if l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "audio: no sound device") || !strings.Contains(lines[0], "sound is disabled") {
		t.Errorf("want one log line saying sound is disabled, got %d:\n%s", len(lines), stderr.String())
	}
}
