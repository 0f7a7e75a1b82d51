package pipeline

import (
	"errors"
	"fmt"
	"os"

	"github.com/tablecam/tablecam/imagefile"
	"gocv.io/x/gocv"
)

// ErrTruncatedImage is wrapped (with ErrCorruptFrame) by ReadImage for an
// image file whose data stops before its end (see imagefile).
var ErrTruncatedImage = imagefile.ErrTruncated

// ReadImage reads an image file in colour (BGR), as gocv.IMRead would.
// An error names the file and the problem, and wraps ErrCorruptFrame when
// the file is there but is not a whole image: a JPEG or PNG cut short (also
// ErrTruncatedImage: OpenCV would decode it, its lower part grey), or a file
// OpenCV cannot decode. The caller closes the image (there is none to close
// on an error).
func ReadImage(path string) (gocv.Mat, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return gocv.Mat{}, err
	}
	if err := imagefile.Check(data); err != nil {
		return gocv.Mat{}, fmt.Errorf("%s: %w", path, corruptImage{err})
	}
	// Decoded from the bytes read (IMDecode turns by the EXIF orientation
	// as IMRead does): the file is read once.
	img, err := gocv.IMDecode(data, gocv.IMReadColor)
	if err != nil || img.Empty() {
		img.Close()
		return gocv.Mat{}, fmt.Errorf("%s: %w", path, corruptImage{errors.New("not an image OpenCV can read (an unsupported format, or damaged)")})
	}
	return img, nil
}

// corruptImage is a damaged image file's problem: it is ErrCorruptFrame
// as well as what it wraps, and reads as the problem alone.
type corruptImage struct{ err error }

func (e corruptImage) Error() string        { return e.err.Error() }
func (e corruptImage) Unwrap() error        { return e.err }
func (e corruptImage) Is(target error) bool { return target == ErrCorruptFrame }
