// Command tablecam-overlay is the overlay window. It is a separate binary
// because Ebiten cannot be linked into a program that must also run without a
// display: tablecam starts it when a display is present.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "tablecam-overlay: not available yet")
	os.Exit(1)
}
