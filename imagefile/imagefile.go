package imagefile

import (
	"bytes"
	"errors"
	"fmt"
)

// ErrTruncated is wrapped by Check for image data that stops
// before the image's end.
var ErrTruncated = errors.New("image file cut short")

// pngTailBytes is how far from a PNG file's end its IEND chunk is looked
// for: it is the last chunk, 12 bytes long (the compressed data before it
// may hold those four letters by chance).
const pngTailBytes = 1024

// Check reports, for the bytes of a JPEG or PNG file, whether they stop
// before the image's end; other formats pass.
//
// A JPEG's entropy-coded data escapes every 0xFF byte, so the markers that
// start a scan (FF DA) and end the image (FF D9) appear nowhere else: the
// image is whole when an end follows its last scan's start. (An EXIF
// thumbnail's end comes before the main image's scans, so a cut file with a
// thumbnail is still told; bytes after the end are allowed.) A PNG ends with
// its IEND chunk.
func Check(data []byte) error {
	switch {
	case bytes.HasPrefix(data, []byte{0xFF, 0xD8, 0xFF}):
		sos := bytes.LastIndex(data, []byte{0xFF, 0xDA})
		if sos < 0 {
			return fmt.Errorf("%w: a JPEG file with no image data (no scan)", ErrTruncated)
		}
		if !bytes.Contains(data[sos:], []byte{0xFF, 0xD9}) {
			return fmt.Errorf("%w: the JPEG data stops before the end of the image (%d bytes: the file was not written or copied whole)", ErrTruncated, len(data))
		}
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		if !bytes.Contains(data[max(0, len(data)-pngTailBytes):], []byte("IEND")) {
			return fmt.Errorf("%w: the PNG data stops before its end chunk (%d bytes: the file was not written or copied whole)", ErrTruncated, len(data))
		}
	}
	return nil
}
