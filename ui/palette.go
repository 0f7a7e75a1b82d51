package ui

import (
	"image/color"

	"github.com/tablecam/tablecam/models"
)

// The overlay's palette: one colour per player, per element and per kind of
// alert, used the same way everywhere.
var (
	colBackground = color.NRGBA{0x12, 0x15, 0x1c, 0xff}
	colPanel      = color.NRGBA{0x1b, 0x20, 0x2b, 0xe6}
	colPanelEdge  = color.NRGBA{0x3a, 0x44, 0x58, 0xff}
	colText       = color.NRGBA{0xec, 0xef, 0xf4, 0xff}
	colDim        = color.NRGBA{0x8a, 0x94, 0xa8, 0xff}
	colFaint      = color.NRGBA{0x4a, 0x52, 0x63, 0xff}
	colGrid       = color.NRGBA{0xff, 0xff, 0xff, 0xb0}
	colFelt       = color.NRGBA{0x1d, 0x3b, 0x33, 0xff}
	colFeltCell   = color.NRGBA{0x24, 0x47, 0x3e, 0xff}

	colSouth = color.NRGBA{0x4d, 0xc3, 0xff, 0xff} // sky blue
	colNorth = color.NRGBA{0xff, 0xa7, 0x26, 0xff} // amber

	colWarning = color.NRGBA{0xff, 0xd5, 0x4f, 0xff} // yellow
	colDanger  = color.NRGBA{0xff, 0x3b, 0x30, 0xff} // red: death's door and death blow
	colOK      = color.NRGBA{0x66, 0xd1, 0x7a, 0xff} // green: mana available
	colMagenta = color.NRGBA{0xe0, 0x40, 0xfb, 0xff} // selection and calibration clicks

	colAir   = color.NRGBA{0xc9, 0xe4, 0xff, 0xff}
	colEarth = color.NRGBA{0xb0, 0x8d, 0x57, 0xff}
	colFire  = color.NRGBA{0xff, 0x57, 0x22, 0xff}
	colWater = color.NRGBA{0x1e, 0x7b, 0xff, 0xff}
)

// PlayerColor is the colour the overlay uses for a player's cards and HUD.
func PlayerColor(p models.Player) color.NRGBA {
	switch p {
	case models.South:
		return colSouth
	case models.North:
		return colNorth
	}
	return colDim
}

// ElementColor is the colour of an element's icon.
func ElementColor(e models.Element) color.NRGBA {
	switch e {
	case models.Air:
		return colAir
	case models.Earth:
		return colEarth
	case models.Fire:
		return colFire
	case models.Water:
		return colWater
	}
	return colDim
}

func withAlpha(c color.NRGBA, a uint8) color.NRGBA { c.A = a; return c }

// mix blends a towards b by t (0–1).
func mix(a, b color.NRGBA, t float64) color.NRGBA {
	if t < 0 {
		t = 0
	}
	if t > 1 {
		t = 1
	}
	l := func(x, y uint8) uint8 { return uint8(float64(x)*(1-t) + float64(y)*t + 0.5) }
	return color.NRGBA{l(a.R, b.R), l(a.G, b.G), l(a.B, b.B), l(a.A, b.A)}
}

// ChromaGreen is the usual chroma-key green for the stream layout's background.
func ChromaGreen() color.NRGBA { return color.NRGBA{0x00, 0xff, 0x00, 0xff} }
