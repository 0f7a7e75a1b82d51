package audio

import (
	"fmt"
	"io"
	"math"
	"sync"

	"github.com/gordonklaus/portaudio"
)

// SampleRate is the rate cues are played at.
const SampleRate = 44100

// Player plays cues one after another on the default sound device. Its
// methods are safe for concurrent use. A Player whose device could not be
// opened stays silent: Play does nothing, and Enabled reports false.
type Player struct {
	mu     sync.Mutex
	volume float64
	muted  bool

	enabled bool
	stream  *portaudio.Stream
	buf     []int16
	queue   chan Cue
	pending sync.WaitGroup
	done    chan struct{}
}

// queueLength bounds the cues waiting to be played; more are dropped.
const queueLength = 8

// Open opens the default sound device. When there is none (or PortAudio
// cannot start), it writes one line saying sound is disabled to log and
// returns a silent player; it never fails.
func Open(log io.Writer) *Player {
	p := &Player{volume: 1}
	if err := p.open(); err != nil {
		fmt.Fprintf(log, "audio: no sound device (%v); sound is disabled\n", err)
		return p
	}
	p.enabled = true
	p.queue = make(chan Cue, queueLength)
	p.done = make(chan struct{})
	go p.run()
	return p
}

func (p *Player) open() error {
	silenceALSA()
	if err := quietly(portaudio.Initialize); err != nil {
		return err
	}
	dev, err := portaudio.DefaultOutputDevice()
	if err != nil {
		quietly(portaudio.Terminate)
		return err
	}
	params := portaudio.HighLatencyParameters(nil, dev)
	params.Output.Channels = 1
	params.SampleRate = SampleRate
	params.FramesPerBuffer = 1024
	p.buf = make([]int16, params.FramesPerBuffer)
	s, err := portaudio.OpenStream(params, &p.buf)
	if err != nil {
		quietly(portaudio.Terminate)
		return fmt.Errorf("%s: %w", dev.Name, err)
	}
	p.stream = s
	return nil
}

// Enabled reports whether sound reaches a device.
func (p *Player) Enabled() bool { return p.enabled }

// SetVolume sets the volume, clamped to 0–1.
func (p *Player) SetVolume(v float64) {
	p.mu.Lock()
	p.volume = math.Max(0, math.Min(1, v))
	p.mu.Unlock()
}

// SetMuted silences or restores the cues.
func (p *Player) SetMuted(m bool) {
	p.mu.Lock()
	p.muted = m
	p.mu.Unlock()
}

// Volume gives the volume and whether sound is muted.
func (p *Player) Volume() (float64, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.volume, p.muted
}

// Play queues a cue and returns at once. When many cues are already waiting,
// the cue is dropped.
func (p *Player) Play(c Cue) {
	if !p.enabled {
		return
	}
	p.pending.Add(1)
	select {
	case p.queue <- c:
	default:
		p.pending.Done()
	}
}

// Drain waits until every queued cue has been played.
func (p *Player) Drain() { p.pending.Wait() }

// Close plays what is queued, then releases the device.
func (p *Player) Close() error {
	if !p.enabled {
		return nil
	}
	p.enabled = false
	close(p.queue)
	<-p.done
	err := p.stream.Close()
	if terr := quietly(portaudio.Terminate); err == nil {
		err = terr
	}
	return err
}

// run plays queued cues until the queue closes.
func (p *Player) run() {
	defer close(p.done)
	for c := range p.queue {
		p.play(c)
		p.pending.Done()
	}
}

// tail is the silence written after each cue, so that cues queued back to
// back stay apart.
const tail = SampleRate / 20

// play writes one cue, scaled by the volume (zeros when muted), and waits
// until the device has played it.
func (p *Player) play(c Cue) {
	vol, muted := p.Volume()
	if muted {
		vol = 0
	}
	samples := Samples(c, SampleRate)
	if err := p.stream.Start(); err != nil {
		return
	}
	total := len(samples) + tail
	for i := 0; i < total; i += len(p.buf) {
		for j := range p.buf {
			var x float64
			if k := i + j; k < len(samples) {
				x = float64(samples[k]) * vol
			}
			p.buf[j] = int16(math.Round(math.Max(-1, math.Min(1, x)) * 32767))
		}
		// An underflow between cues is expected; keep writing.
		_ = p.stream.Write()
	}
	_ = p.stream.Stop()
}
