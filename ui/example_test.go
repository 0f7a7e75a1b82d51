package ui_test

import (
	"fmt"
	"image"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/ui"
	"github.com/tablecam/tablecam/ui/internal/uitest"
)

func ExampleDescribe() {
	fmt.Println(ui.Describe(models.Event{Type: models.SitePlayed, Player: models.South, Card: "Arid Desert", Cell: models.CellPtr(models.MustCell("C1"))}))
	fmt.Println(ui.Describe(models.Event{Type: models.Damage, Player: models.North, Amount: 3}))
	// A card the camera could not name (not in the catalog), and its name found later.
	c4 := models.CellPtr(models.MustCell("C4"))
	fmt.Println(ui.Describe(models.Event{Type: models.SitePlayed, Player: models.North, Unnamed: true, Cell: c4}))
	fmt.Println(ui.Describe(models.Event{Type: models.CardTapped, Player: models.North, Unnamed: true, Cell: c4}))
	fmt.Println(ui.Describe(models.Event{Type: models.CardNamed, Player: models.North, Card: "Ashen Steppe", Cell: c4}))
	// Output:
	// South played Arid Desert at C1
	// North took 3 damage
	// North played an unnamed site at C4
	// North's unnamed card tapped at C4
	// The unnamed card at C4 is Ashen Steppe
}

func ExamplePainter_Paint() {
	p := ui.NewPainter()
	frame := image.NewRGBA(image.Rect(0, 0, 1280, 720))
	v := ui.View{Update: models.Update{State: uitest.Midgame()}, Volume: 1}
	p.Paint(frame, v)
	l := ui.LayoutFor(frame.Rect, v)
	cell, _ := l.CellAt(l.CellCenter(models.MustCell("D3")))
	fmt.Println("the board's D3 is at", l.CellCenter(models.MustCell("D3")), "and hit-tests as", cell)
	// Output:
	// the board's D3 is at (650,270) and hit-tests as D3
}

func ExampleAppIcon() {
	icon := ui.AppIcon(64)
	fmt.Println(icon.Bounds().Size())
	// Output: (64,64)
}
