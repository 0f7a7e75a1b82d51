package pipeline

import (
	"bytes"
	"errors"
	"fmt"
	"os"

	"gocv.io/x/gocv"
)

// A file cut short (a copy interrupted, a camera app still writing the
// frame, a disk that filled up) still decodes: OpenCV fills what is missing
// with grey and says so only on the terminal. Read as a frame, its lower part
// is a flat grey band where a hand or the mat's edge is looked for, and the
// realm and cards found in it are wrong. ReadImage tells such a file from a
// whole one by how JPEG and PNG files end.

// pngTailBytes is how far from a PNG file's end its IEND chunk is looked
// for: it is the last chunk, 12 bytes long.
const pngTailBytes = 1024

// ErrTruncatedImage is wrapped (with ErrCorruptFrame) by ReadImage for an
// image file whose data stops before its end.
var ErrTruncatedImage = errors.New("the file is cut short")

// ReadImage reads an image file in colour (BGR), as gocv.IMRead reads it.
// An error names the file and the problem, and wraps ErrCorruptFrame when
// the file is there but is not a whole image: a JPEG without the end of its
// last scan, or a PNG without its end chunk (both also ErrTruncatedImage),
// or a file OpenCV cannot decode. The caller closes the image (there is
// none to close on an error).
func ReadImage(path string) (gocv.Mat, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return gocv.Mat{}, err
	}
	if err := wholeImage(data); err != nil {
		return gocv.Mat{}, fmt.Errorf("%s: %w", path, err)
	}
	img := gocv.IMRead(path, gocv.IMReadColor)
	if img.Empty() {
		img.Close()
		return gocv.Mat{}, fmt.Errorf("%s: %w", path, imageFileError{problem: "not an image OpenCV can read (an unsupported format, or damaged)"})
	}
	return img, nil
}

// wholeImage reports, for the bytes of a JPEG or PNG file, whether they
// stop before the image's end; other formats pass (OpenCV checks them as
// it decodes them, or not at all).
//
// A JPEG's entropy-coded data escapes every 0xFF byte, so the markers
// that start a scan (FF DA) and end the image (FF D9) appear nowhere
// else: the image is whole when an end follows its last scan's start. (An
// EXIF thumbnail's end comes before the main image's scans, so a cut file
// with a thumbnail is still told; bytes after the end are allowed.) A PNG
// ends with its IEND chunk (looked for in its last pngTailBytes: the
// compressed data before it may hold those four letters by chance).
func wholeImage(data []byte) error {
	switch {
	case bytes.HasPrefix(data, []byte{0xFF, 0xD8, 0xFF}):
		sos := bytes.LastIndex(data, []byte{0xFF, 0xDA})
		if sos < 0 {
			return imageFileError{problem: "a JPEG file with no image data (no scan): cut short", truncated: true}
		}
		if !bytes.Contains(data[sos:], []byte{0xFF, 0xD9}) {
			return imageFileError{problem: fmt.Sprintf("the JPEG data stops before the end of the image (%d bytes: the file was not written or copied whole)", len(data)), truncated: true}
		}
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		if !bytes.Contains(data[max(0, len(data)-pngTailBytes):], []byte("IEND")) {
			return imageFileError{problem: fmt.Sprintf("the PNG data stops before its end chunk (%d bytes: the file was not written or copied whole)", len(data)), truncated: true}
		}
	}
	return nil
}

// imageFileError is a damaged image file's problem; it is ErrCorruptFrame,
// and ErrTruncatedImage when the file is cut short.
type imageFileError struct {
	problem   string
	truncated bool
}

func (e imageFileError) Error() string { return e.problem }

func (e imageFileError) Is(target error) bool {
	return target == ErrCorruptFrame || (e.truncated && target == ErrTruncatedImage)
}
