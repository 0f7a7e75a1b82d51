package pipeline

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"time"

	"gocv.io/x/gocv"
)

// Frame is where a frame sits in its stream.
type Frame struct {
	Index int
	// Time is seconds of video, or since the camera was opened.
	Time float64
	// Name is the file the frame came from, when it has one.
	Name string
}

// ErrBadSource is wrapped by the Open functions when the source cannot be
// read at all: a missing file, a folder without images, no such camera.
var ErrBadSource = errors.New("bad frame source")

// ErrCorruptFrame is wrapped by Source.Read for a frame that cannot be
// decoded; the stream goes on with the next one.
var ErrCorruptFrame = errors.New("corrupt frame")

// Source gives frames one by one. Read fills dst and returns io.EOF at the
// end of a file, an error wrapping ErrCorruptFrame for a frame to skip, and
// any other error when the stream broke (a camera unplugged); Reopen is then
// tried until it works.
type Source interface {
	Read(dst *gocv.Mat) (Frame, error)
	Reopen() error
	// Skip passes over the frames before index, when resuming a recorded game.
	Skip(index int) error
	// FPS is the nominal frame rate (0 when unknown).
	FPS() float64
	Close() error
	// Live reports whether the source is a camera, whose frames come in real time.
	Live() bool
	String() string
}

// videoSource reads a video file.
type videoSource struct {
	path string
	vc   *gocv.VideoCapture
	fps  float64
	next int
	// frames is how many frames the file's header gives (0 when unknown);
	// failed counts the reads in a row that gave no frame.
	frames, failed int
}

// videoMaxFailed is how many frames in a row a video may fail to give
// before the frames its header still promises are taken as lost: the
// file is cut short, or damaged beyond.
const videoMaxFailed = 5

// OpenVideo opens a video file.
func OpenVideo(path string) (Source, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("video: %w: %w", ErrBadSource, err)
	}
	vc, err := gocv.VideoCaptureFile(path)
	if err != nil || !vc.IsOpened() {
		if vc != nil {
			vc.Close()
		}
		return nil, fmt.Errorf("video %s: %w: cannot be opened as a video (%v)", path, ErrBadSource, err)
	}
	fps := vc.Get(gocv.VideoCaptureFPS)
	if fps <= 0 || fps > 1000 {
		fps = 30
	}
	frames := int(vc.Get(gocv.VideoCaptureFrameCount))
	return &videoSource{path: path, vc: vc, fps: fps, frames: max(frames, 0)}, nil
}

// Read gives the next frame. A frame that cannot be decoded where the
// header promises more is skipped (ErrCorruptFrame) and the video goes on;
// when several in a row fail, or a frame fails with none promised, the
// video ends (io.EOF), with an error that names the file when it ends
// before the frames its header gives.
func (v *videoSource) Read(dst *gocv.Mat) (Frame, error) {
	f := Frame{Index: v.next, Time: float64(v.next) / v.fps}
	if v.vc.Read(dst) && !dst.Empty() {
		v.next++
		v.failed = 0
		return f, nil
	}
	if v.next >= v.frames {
		return Frame{}, io.EOF
	}
	v.failed++
	if v.failed >= videoMaxFailed {
		return Frame{}, videoCutShort(fmt.Sprintf("video %s: no frame could be read after frame %d of the %d its header gives: the file is cut short or damaged",
			v.path, v.next-v.failed, v.frames))
	}
	v.next++
	return f, fmt.Errorf("video %s: %w (cannot be decoded)", v.path, ErrCorruptFrame)
}

// videoCutShort ends a video (it is io.EOF) before the frames its header
// gives, and says so.
type videoCutShort string

func (e videoCutShort) Error() string        { return string(e) }
func (e videoCutShort) Is(target error) bool { return target == io.EOF }

func (v *videoSource) Reopen() error { return io.EOF }
func (v *videoSource) Skip(index int) error {
	if index > v.next {
		v.vc.Grab(index - v.next)
		v.next = index
	}
	return nil
}
func (v *videoSource) FPS() float64   { return v.fps }
func (v *videoSource) Close() error   { return v.vc.Close() }
func (v *videoSource) Live() bool     { return false }
func (v *videoSource) String() string { return "video " + v.path }

// cameraSource reads a camera by its index.
type cameraSource struct {
	index int
	vc    *gocv.VideoCapture
	start time.Time
	next  int
}

// OpenCamera opens camera number index (0 is the first).
func OpenCamera(index int) (Source, error) {
	c := &cameraSource{index: index}
	if err := c.Reopen(); err != nil {
		return nil, err
	}
	c.start = time.Now()
	return c, nil
}

func (c *cameraSource) Read(dst *gocv.Mat) (Frame, error) {
	if c.vc == nil || !c.vc.Read(dst) || dst.Empty() {
		return Frame{}, fmt.Errorf("camera %d: no frame", c.index)
	}
	f := Frame{Index: c.next, Time: time.Since(c.start).Seconds()}
	c.next++
	return f, nil
}

func (c *cameraSource) Reopen() error {
	if c.vc != nil {
		c.vc.Close()
		c.vc = nil
	}
	vc, err := gocv.OpenVideoCapture(c.index)
	if err != nil || !vc.IsOpened() {
		if vc != nil {
			vc.Close()
		}
		return fmt.Errorf("camera %d: %w: cannot be opened (%v)", c.index, ErrBadSource, err)
	}
	c.vc = vc
	return nil
}

func (c *cameraSource) Skip(int) error { return nil }
func (c *cameraSource) FPS() float64 {
	if c.vc == nil {
		return 30
	}
	if f := c.vc.Get(gocv.VideoCaptureFPS); f > 0 {
		return f
	}
	return 30
}
func (c *cameraSource) Close() error {
	if c.vc != nil {
		return c.vc.Close()
	}
	return nil
}
func (c *cameraSource) Live() bool     { return true }
func (c *cameraSource) String() string { return "camera " + strconv.Itoa(c.index) }

// framesSource reads a folder of numbered images (0001.jpg, frame_12.png…)
// in the order of their numbers.
type framesSource struct {
	dir   string
	files []string
	fps   float64
	next  int
}

var frameNumber = regexp.MustCompile(`(\d+)\.(?i:jpe?g|png|bmp|webp|tiff?)$`)

// OpenFrames opens a folder of numbered images played at fps frames a
// second (0 means 30).
func OpenFrames(dir string, fps float64) (Source, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("frames: %w: %w", ErrBadSource, err)
	}
	type numbered struct {
		n    int
		name string
	}
	var list []numbered
	for _, e := range entries {
		m := frameNumber.FindStringSubmatch(e.Name())
		if e.IsDir() || m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		list = append(list, numbered{n, filepath.Join(dir, e.Name())})
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("frames %s: %w: no numbered images (such as 0001.jpg)", dir, ErrBadSource)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].n < list[j].n })
	files := make([]string, len(list))
	for i, l := range list {
		files[i] = l.name
	}
	if fps <= 0 {
		fps = 30
	}
	return &framesSource{dir: dir, files: files, fps: fps}, nil
}

func (f *framesSource) Read(dst *gocv.Mat) (Frame, error) {
	if f.next >= len(f.files) {
		return Frame{}, io.EOF
	}
	name := f.files[f.next]
	fr := Frame{Index: f.next, Time: float64(f.next) / f.fps, Name: name}
	f.next++
	img, err := ReadImage(name)
	if err != nil {
		if !errors.Is(err, ErrCorruptFrame) {
			err = fmt.Errorf("%w: %w", ErrCorruptFrame, err) // gone since listed: skipped too
		}
		return fr, err
	}
	img.CopyTo(dst)
	img.Close()
	return fr, nil
}

func (f *framesSource) Reopen() error { return io.EOF }
func (f *framesSource) Skip(index int) error {
	f.next = max(f.next, min(index, len(f.files)))
	return nil
}
func (f *framesSource) FPS() float64   { return f.fps }
func (f *framesSource) Close() error   { return nil }
func (f *framesSource) Live() bool     { return false }
func (f *framesSource) String() string { return "frames " + f.dir }
