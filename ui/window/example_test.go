package window

import (
	"context"
	"fmt"
	"image"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/ui"
	"github.com/tablecam/tablecam/ui/internal/uitest"
)

// A Game takes updates from a channel and paints the overlay each frame;
// Run opens it in a window. Here a frame is drawn off screen and read back.
func ExampleNewGame() {
	updates := make(chan models.Update, 1)
	overlay := ui.NewOverlay(ui.NoController{}, ui.Options{Volume: 0.8})
	game := NewGame(context.Background(), Config{Overlay: overlay, Updates: updates, Input: &script{}, Clock: func() float64 { return 0 }})
	updates <- models.Update{State: uitest.DeathsDoor()}
	var frame *image.RGBA
	onLoop(func() {
		game.Update()
		frame = readBack(game, 1280, 720)
	})
	l := ui.LayoutFor(frame.Rect, overlay.View(0))
	banner := image.Rect(l.Picture.Min.X, l.Picture.Min.Y+4, l.Picture.Max.X, l.Picture.Min.Y+50)
	fmt.Printf("%v frame, death's door banner %.0f%% red\n", frame.Rect.Size(), 10*float64(int(10*redShare(frame, banner))))
	// Output:
	// (1280,720) frame, death's door banner 90% red
}
