package window

import (
	"image"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"github.com/tablecam/tablecam/ui"
)

// Input is one tick's worth of what the user did.
type Input struct {
	// Chars are the characters typed.
	Chars []rune
	// Keys are the special keys just pressed.
	Keys []ui.Key
	// Shift is whether Shift is held.
	Shift bool
	// Fullscreen is F11.
	Fullscreen bool
	// Mouse is the pointer in screen pixels; nil when outside the window.
	Mouse *image.Point
	// Click is true when the left button was just pressed.
	Click bool
}

// InputSource gives the input of each tick. The window reads Ebiten's
// keyboard and mouse; tests give synthetic input.
type InputSource interface {
	Poll(bounds image.Rectangle) Input
}

// ebitenInput reads Ebiten's keyboard and mouse.
type ebitenInput struct {
	chars []rune
	keys  []ebiten.Key
}

var keyMap = map[ebiten.Key]ui.Key{
	ebiten.KeyArrowUp: ui.KeyUp, ebiten.KeyArrowDown: ui.KeyDown, ebiten.KeyEnter: ui.KeyEnter,
	ebiten.KeyNumpadEnter: ui.KeyEnter, ebiten.KeyEscape: ui.KeyEscape, ebiten.KeyTab: ui.KeyTab,
	ebiten.KeyBackspace: ui.KeyBackspace,
}

func (e *ebitenInput) Poll(bounds image.Rectangle) Input {
	var in Input
	e.chars = ebiten.AppendInputChars(e.chars[:0])
	ctrl := ebiten.IsKeyPressed(ebiten.KeyControl) || ebiten.IsKeyPressed(ebiten.KeyMeta)
	if !ctrl {
		in.Chars = append(in.Chars, e.chars...)
	}
	e.keys = inpututil.AppendJustPressedKeys(e.keys[:0])
	for _, k := range e.keys {
		switch {
		case ctrl && k == ebiten.KeyZ:
			in.Keys = append(in.Keys, ui.KeyUndo)
		case k == ebiten.KeyF11:
			in.Fullscreen = true
		default:
			if uk, ok := keyMap[k]; ok {
				in.Keys = append(in.Keys, uk)
			}
		}
	}
	// Held arrows and Backspace repeat.
	for _, k := range []ebiten.Key{ebiten.KeyArrowUp, ebiten.KeyArrowDown, ebiten.KeyBackspace} {
		if d := inpututil.KeyPressDuration(k); d > 30 && d%6 == 0 {
			in.Keys = append(in.Keys, keyMap[k])
		}
	}
	in.Shift = ebiten.IsKeyPressed(ebiten.KeyShift)
	x, y := ebiten.CursorPosition()
	if p := image.Pt(x, y); p.In(bounds) {
		in.Mouse = &p
	}
	in.Click = inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft)
	return in
}
