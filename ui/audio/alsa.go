package audio

/*
#cgo pkg-config: alsa
#include <alsa/asoundlib.h>

static void quietALSA(const char *file, int line, const char *function, int err, const char *fmt, ...) {}

static void silenceALSA(void) { snd_lib_error_set_handler(quietALSA); }
*/
import "C"

// silenceALSA stops ALSA printing its own errors (PortAudio probes every
// device at start-up, and each missing one prints a line): the player says
// in one line whether sound works.
func silenceALSA() { C.silenceALSA() }
