package audio

import (
	"os"

	"golang.org/x/sys/unix"
)

// quietly runs f with the process's standard error sent to /dev/null.
// PortAudio's JACK and ALSA host APIs print several lines of their own when
// they probe for servers and cards that are not there; the player reports in
// one line instead.
func quietly(f func() error) error {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return f()
	}
	defer null.Close()
	saved, err := unix.Dup(2)
	if err != nil {
		return f()
	}
	defer unix.Close(saved)
	if err := unix.Dup2(int(null.Fd()), 2); err != nil {
		return f()
	}
	defer unix.Dup2(saved, 2)
	return f()
}
