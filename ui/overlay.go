package ui

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"time"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/ui/audio"
)

// Key is a key the overlay reacts to that is not a typed character.
type Key int

const (
	KeyUp Key = iota + 1
	KeyDown
	KeyEnter
	KeyEscape
	KeyTab
	KeyBackspace
	// KeyUndo is Ctrl+Z.
	KeyUndo
)

// Command is what the overlay asks of the window around it.
type Command int

const (
	// NoCommand needs nothing from the window.
	NoCommand Command = iota
	// ToggleFullscreen switches full screen on or off.
	ToggleFullscreen
)

// Sound plays cues; *audio.Player implements it.
type Sound interface {
	Play(c audio.Cue)
	SetVolume(v float64)
	SetMuted(m bool)
}

// Options configure an Overlay.
type Options struct {
	// Catalog supplies the names for card corrections; nil turns suggestions off.
	Catalog *models.Catalog
	// Sound plays the cues; nil for silence.
	Sound Sound
	// Mode is Normal or Stream.
	Mode Mode
	// Background is the stream mode's background (zero alpha: transparent).
	Background color.NRGBA
	// Volume is the starting volume (0–1); Muted starts silent.
	Volume float64
	Muted  bool
	// History is what happened before this run in the game it resumes
	// (oldest first, Earlier set), listed with the recent events; Warnings
	// are the rule warnings raised in its current turn.
	History  []Recent
	Warnings []models.Warning
	// Clock gives the time of day events are stamped with (default time.Now).
	Clock func() time.Time
}

// Overlay is the overlay's state between frames: the latest update, recent
// events and what the user is doing. It turns keys and clicks into calls to
// the Controller and gives the View to paint. It does not block: updates
// are handed to it by the window's loop. It is not safe for concurrent use.
type Overlay struct {
	ctl   Controller
	opts  Options
	view  View
	msgAt float64
	size  image.Rectangle
	// received says an update has come: the state before the first is no game.
	received bool
}

// recentLength is how many events the overlay remembers.
const recentLength = 40

// messageSeconds is how long a notice stays up.
const messageSeconds = 4.0

// NewOverlay makes an overlay sending the user's actions to ctl.
func NewOverlay(ctl Controller, opts Options) *Overlay {
	o := &Overlay{ctl: ctl, opts: opts}
	o.view.Mode = opts.Mode
	o.view.Volume = opts.Volume
	o.view.Muted = opts.Muted
	o.view.Focus = models.South
	o.view.Background = opts.Background
	if opts.Sound != nil {
		opts.Sound.SetVolume(opts.Volume)
		opts.Sound.SetMuted(opts.Muted)
	}
	if o.opts.Clock == nil {
		o.opts.Clock = time.Now
	}
	o.view.Warnings = append([]models.Warning(nil), opts.Warnings...)
	h := opts.History[max(0, len(opts.History)-recentLength):]
	o.view.Recent = make([]Recent, len(h))
	for i, r := range h {
		r.Earlier = true
		o.view.Recent[i] = r
	}
	return o
}

// Receive takes an update from the pipeline at overlay time now, remembers
// its events and plays the cues it calls for.
func (o *Overlay) Receive(u models.Update, now float64) {
	prev := o.view.Update.State
	if u.Image == nil {
		// Updates from the controller carry no picture: keep the last one.
		u.Image = o.view.Update.Image
	}
	o.view.Update = u
	if st := u.State; o.received && (st.Turn != prev.Turn || st.Active != prev.Active || st.Event < prev.Event) {
		// A new turn, or an undo: only what stands now.
		o.view.Warnings = nil
	}
	o.view.Warnings = mergeWarnings(o.view.Warnings, u.Warnings)
	o.view.Warnings = mergeWarnings(o.view.Warnings, u.State.Warnings)
	o.received = true
	if len(u.Events) > 0 {
		clock := o.opts.Clock()
		for _, ev := range u.Events {
			o.view.Recent = append(o.view.Recent, Recent{Event: ev, At: now, Clock: clock})
		}
	}
	if n := len(o.view.Recent); n > recentLength {
		o.view.Recent = append([]Recent(nil), o.view.Recent[n-recentLength:]...)
	}
	if o.opts.Sound != nil {
		for _, c := range CuesFor(prev, u) {
			o.opts.Sound.Play(c)
		}
	}
	if o.view.Focus == models.NoPlayer && u.State.Active != models.NoPlayer {
		o.view.Focus = u.State.Active
	}
}

// Ended tells the overlay that no more updates will come (the video is over).
func (o *Overlay) Ended(now float64) {
	o.view.Update.Status = "the video has ended: the final state stays on screen"
}

// View gives what to paint at overlay time now.
func (o *Overlay) View(now float64) View {
	v := o.view
	v.Now = now
	if v.Message != "" && now-o.msgAt > messageSeconds {
		v.Message = ""
	}
	return v
}

// SetSize tells the overlay the size of the frame it is painted into, for hit tests.
func (o *Overlay) SetSize(r image.Rectangle) { o.size = r }

// Mouse tells the overlay where the pointer is; nil when it left the window.
func (o *Overlay) Mouse(p *image.Point) { o.view.Mouse = p }

func (o *Overlay) say(now float64, format string, args ...any) {
	o.view.Message = fmt.Sprintf(format, args...)
	o.msgAt = now
}

// report shows the outcome of a controller call.
func (o *Overlay) report(now float64, done string, err error) {
	if err != nil {
		o.say(now, "%s failed: %v", done, err)
		return
	}
	o.say(now, "%s", done)
}

func (o *Overlay) manual(now float64, ev models.Event, done string) {
	o.report(now, done, o.ctl.Manual(ev))
}

// Rune handles a typed character.
func (o *Overlay) Rune(r rune, now float64) Command {
	if c := o.view.Correcting; c != nil {
		if r >= ' ' {
			c.Text += string(r)
			o.suggest()
		}
		return NoCommand
	}
	pl := o.view.Focus
	who := capitalize(pl.String())
	switch r {
	case '?', 'h', 'H':
		o.view.Help = !o.view.Help
	case '+', '=':
		o.lifeChange(now, 1)
	case '-', '_':
		o.lifeChange(now, -1)
	case 'd', 'D':
		n := 1
		if r == 'D' {
			n = 5
		}
		o.manual(now, models.Event{Type: models.Damage, Player: pl, Amount: n}, fmt.Sprintf("%s takes %d damage", who, n))
	case 'm', 'M':
		o.manual(now, models.Event{Type: models.ManaSpent, Player: pl, Amount: 1}, who+" spends 1 mana")
	case 'e', 'E':
		o.endTurn(now)
	case 'c', 'C':
		o.view.Correcting = &Correcting{Casting: true, Owner: pl}
	case 'u', 'U':
		o.undo(now)
	case 'k', 'K':
		if o.view.Update.Image == nil || o.view.Rectified {
			o.say(now, "recalibrating needs the camera view (R switches views)")
			break
		}
		o.view.Calibrating = &Calibrating{}
	case 'p', 'P', ' ':
		o.view.Paused = !o.view.Paused
		o.ctl.SetPaused(o.view.Paused)
		if o.view.Paused {
			o.say(now, "recognition paused")
		} else {
			o.say(now, "recognition resumed")
		}
	case 'r', 'R':
		o.view.Rectified = !o.view.Rectified
	case '[':
		o.setVolume(now, o.view.Volume-0.1)
	case ']':
		o.setVolume(now, o.view.Volume+0.1)
	case 'v', 'V':
		o.view.Muted = !o.view.Muted
		if o.opts.Sound != nil {
			o.opts.Sound.SetMuted(o.view.Muted)
		}
		if o.view.Muted {
			o.say(now, "sound muted")
		} else {
			o.say(now, "sound on")
		}
	case 'f', 'F':
		return ToggleFullscreen
	}
	return NoCommand
}

// Key handles a special key; shift is whether Shift is held.
func (o *Overlay) Key(k Key, shift bool, now float64) Command {
	if c := o.view.Correcting; c != nil {
		switch k {
		case KeyEscape:
			o.view.Correcting = nil
		case KeyBackspace:
			if rs := []rune(c.Text); len(rs) > 0 {
				c.Text = string(rs[:len(rs)-1])
				o.suggest()
			}
		case KeyDown, KeyTab:
			if n := len(c.Suggestions); n > 0 {
				c.Selected = (c.Selected + 1) % n
			}
		case KeyUp:
			if n := len(c.Suggestions); n > 0 {
				c.Selected = (c.Selected + n - 1) % n
			}
		case KeyEnter:
			o.commitCorrection(now)
		}
		return NoCommand
	}
	switch k {
	case KeyEscape:
		switch {
		case o.view.Help:
			o.view.Help = false
		case o.view.Calibrating != nil:
			o.view.Calibrating = nil
			o.say(now, "recalibration cancelled")
		}
	case KeyTab:
		o.view.Focus = o.view.Focus.Opponent()
		if o.view.Focus == models.NoPlayer {
			o.view.Focus = models.South
		}
	case KeyUp:
		o.lifeChange(now, map[bool]int{false: 1, true: 5}[shift])
	case KeyDown:
		o.lifeChange(now, map[bool]int{false: -1, true: -5}[shift])
	case KeyUndo:
		o.undo(now)
	}
	return NoCommand
}

// Click handles a left click at p in screen pixels.
func (o *Overlay) Click(p image.Point, now float64) {
	if o.view.Help {
		o.view.Help = false
		return
	}
	l := LayoutFor(o.size, o.view)
	if cal := o.view.Calibrating; cal != nil {
		if _, ok := l.ScreenToImage(p); !ok {
			o.say(now, "click inside the camera image")
			return
		}
		cal.Clicked = append(cal.Clicked, p)
		if len(cal.Clicked) == 4 {
			var q models.Quad
			for i, c := range cal.Clicked {
				q[i], _ = l.ScreenToImage(c)
			}
			o.view.Calibrating = nil
			o.report(now, "recalibrated", o.ctl.Recalibrate(q))
		}
		return
	}
	for _, pl := range models.Players {
		h := l.HUD[pl]
		buttons := o.view.Mode != Stream // the stream layout draws no buttons
		switch {
		case buttons && p.In(h.Plus):
			o.view.Focus = pl
			o.lifeChange(now, 1)
			return
		case buttons && p.In(h.Minus):
			o.view.Focus = pl
			o.lifeChange(now, -1)
			return
		case p.In(h.Panel):
			o.view.Focus = pl
			return
		}
	}
	if o.view.Mode == Stream {
		return
	}
	cell, ok := l.CellAt(p)
	if !ok {
		o.view.Correcting = nil
		return
	}
	name, owner := o.cardAt(l, p, cell)
	o.view.Correcting = &Correcting{Cell: cell, Card: name, Owner: owner}
}

// cardAt picks the card under p: an observed card whose quad holds p, else
// the cell's top unit, else its site.
func (o *Overlay) cardAt(l Layout, p image.Point, cell models.Cell) (string, models.Player) {
	if ip, ok := l.ScreenToImage(p); ok {
		for _, c := range o.view.Update.Observation.Cards {
			var q [4]pt
			for i, k := range c.Quad {
				q[i] = pt{k.X, k.Y}
			}
			if inQuad(pt{ip.X, ip.Y}, q) {
				return c.NameOr(""), c.Owner
			}
		}
	}
	cs := o.view.Update.State.Realm.Cells[cell.String()]
	if n := len(cs.Units); n > 0 {
		return cs.Units[n-1].Card, cs.Units[n-1].Owner
	}
	if cs.Site != nil {
		return cs.Site.Card, cs.Site.Controller
	}
	return "", models.NoPlayer
}

func (o *Overlay) suggest() {
	c := o.view.Correcting
	c.Suggestions = Suggest(o.opts.Catalog, c.Text, 6)
	c.Selected = 0
}

func (o *Overlay) commitCorrection(now float64) {
	c := o.view.Correcting
	name := ""
	switch {
	case len(c.Suggestions) > 0:
		name = c.Suggestions[c.Selected]
	case o.opts.Catalog == nil && c.Text != "":
		name = c.Text
	default:
		o.say(now, "no card in the catalog is called %q", c.Text)
		return
	}
	o.view.Correcting = nil
	if c.Casting {
		o.manual(now, models.Event{Type: models.SpellCast, Player: c.Owner, Card: name},
			fmt.Sprintf("%s casts %s", capitalize(c.Owner.String()), name))
		return
	}
	cell := c.Cell
	err := o.ctl.Correct(models.Correction{Kind: models.RenameCard, Cell: &cell, Card: c.Card, Name: name})
	if err == nil {
		// The game is replayed with the correction: only what then stands is shown.
		o.view.Warnings = nil
	}
	o.report(now, fmt.Sprintf("%s is now %s", cell, name), err)
}

// undo takes back the last batch of events; the warnings it raised go with it.
func (o *Overlay) undo(now float64) {
	err := o.ctl.Undo()
	if err == nil {
		o.view.Warnings = nil
	}
	o.report(now, "undone", err)
}

func (o *Overlay) lifeChange(now float64, n int) {
	pl := o.view.Focus
	who := capitalize(pl.String())
	if n > 0 {
		o.manual(now, models.Event{Type: models.LifeGain, Player: pl, Amount: n}, fmt.Sprintf("%s gains %d life", who, n))
	} else {
		o.manual(now, models.Event{Type: models.LifeLoss, Player: pl, Amount: -n}, fmt.Sprintf("%s loses %d life", who, -n))
	}
}

// endTurn ends the active player's turn and starts the other's.
func (o *Overlay) endTurn(now float64) {
	st := o.view.Update.State
	next := o.view.Focus
	if st.Active != models.NoPlayer {
		if err := o.ctl.Manual(models.Event{Type: models.TurnEnd, Player: st.Active}); err != nil {
			o.report(now, "ending the turn", err)
			return
		}
		next = st.Active.Opponent()
	}
	o.view.Focus = next
	o.manual(now, models.Event{Type: models.TurnStart, Player: next}, capitalize(next.String())+"'s turn")
}

func (o *Overlay) setVolume(now float64, v float64) {
	v = math.Round(math.Max(0, math.Min(1, v))*10) / 10
	o.view.Volume = v
	if o.opts.Sound != nil {
		o.opts.Sound.SetVolume(v)
	}
	o.say(now, "volume %d%%", int(v*100))
}

// ErrNoController is returned by NoController's methods.
var ErrNoController = errors.New("no tracker connected")

// NoController is a Controller for an overlay with no tracker behind it
// (a replay, a screenshot): every call fails with ErrNoController.
type NoController struct{}

func (NoController) Manual(models.Event) error       { return ErrNoController }
func (NoController) Undo() error                     { return ErrNoController }
func (NoController) Correct(models.Correction) error { return ErrNoController }
func (NoController) Recalibrate(models.Quad) error   { return ErrNoController }
func (NoController) SetPaused(bool)                  {}
