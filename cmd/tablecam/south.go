package main

import (
	"errors"
	"flag"

	"github.com/tablecam/tablecam/calibration"
)

// southFlags are the flags saying where the camera sees the south player:
// --south SIDE, and --north-at-bottom, the older way to say --south top.
type southFlags struct {
	south         sideValue
	northAtBottom bool
}

// sideValue is a calibration.Side as a flag.Value.
type sideValue struct {
	side calibration.Side
	set  bool
}

func (v *sideValue) String() string { return v.side.String() }

func (v *sideValue) Set(s string) error {
	side, err := calibration.ParseSide(s)
	if err != nil {
		return err
	}
	v.side, v.set = side, true
	return nil
}

// addSouthFlags defines --south and --north-at-bottom on fs.
func addSouthFlags(fs *flag.FlagSet) *southFlags {
	f := &southFlags{}
	fs.Var(&f.south, "south", "the image side the south player (the realm's A1–E1 edge) sits on: bottom, top, left or right (a camera at the table's end)")
	fs.BoolVar(&f.northAtBottom, "north-at-bottom", false, "the camera looks from the north side: the north player sits at the image bottom (the same as --south top)")
	return f
}

// errSouthConflict is side's error for --north-at-bottom with --south other than top.
var errSouthConflict = errors.New("--north-at-bottom says --south top: give one of them")

// side is the image side south is on, as the flags say.
func (f *southFlags) side() (calibration.Side, error) {
	if !f.northAtBottom {
		return f.south.side, nil
	}
	if f.south.set && f.south.side != calibration.Top {
		return 0, errSouthConflict
	}
	return calibration.Top, nil
}
