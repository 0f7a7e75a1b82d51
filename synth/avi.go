package synth

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/jpeg"
	"os"
)

// aviWriter writes Motion-JPEG frames into an AVI (RIFF) file, the format
// OpenCV's VideoWriter produces with the MJPG fourcc and that OpenCV's
// VideoCapture and common players read. It is written in Go because gocv's
// VideoWriter (v0.32) cannot set the JPEG quality: at OpenCV's default a
// 1280×720 frame of a busy table takes about 100 KB, and a demo game must
// stay under 20 MB. Go's encoder also subsamples chroma (4:2:0), which
// halves the size again at equal quality.
type aviWriter struct {
	f             *os.File
	w             *bufio.Writer
	width, height int
	fps           int
	quality       int
	index         []aviIndexEntry
	moviStart     int64 // file offset of the "movi" fourcc
	pos           int64
	frames        int
	maxFrameSize  int
	buf           bytes.Buffer
}

type aviIndexEntry struct {
	offset, size uint32
}

func newAVIWriter(path string, width, height, fps, quality int) (*aviWriter, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("synth: %w", err)
	}
	a := &aviWriter{f: f, w: bufio.NewWriterSize(f, 1<<20), width: width, height: height, fps: fps, quality: quality}
	// The headers are written with placeholder counts and patched on close.
	a.writeHeaders()
	return a, nil
}

func (a *aviWriter) writeHeaders() {
	var h bytes.Buffer
	le := func(v any) { _ = binary.Write(&h, binary.LittleEndian, v) }
	fourcc := func(s string) { h.WriteString(s) }
	fourcc("RIFF")
	le(uint32(0)) // patched: file size - 8
	fourcc("AVI ")
	fourcc("LIST")
	le(uint32(4 + (8 + 56) + 8 + 4 + (8 + 56) + (8 + 40)))
	fourcc("hdrl")
	fourcc("avih")
	le(uint32(56))
	le(uint32(1000000 / a.fps)) // microseconds per frame
	le(uint32(0))               // max bytes per second (patched)
	le(uint32(0))               // padding granularity
	le(uint32(0x10))            // flags: AVIF_HASINDEX
	le(uint32(0))               // total frames (patched)
	le(uint32(0))               // initial frames
	le(uint32(1))               // streams
	le(uint32(0))               // suggested buffer size (patched)
	le(uint32(a.width))         // width
	le(uint32(a.height))        // height
	le([4]uint32{})             // reserved
	fourcc("LIST")
	le(uint32(4 + (8 + 56) + (8 + 40)))
	fourcc("strl")
	fourcc("strh")
	le(uint32(56))
	fourcc("vids")
	fourcc("MJPG")
	le(uint32(0))     // flags
	le(uint16(0))     // priority
	le(uint16(0))     // language
	le(uint32(0))     // initial frames
	le(uint32(1))     // scale
	le(uint32(a.fps)) // rate: fps = rate/scale
	le(uint32(0))     // start
	le(uint32(0))     // length in frames (patched)
	le(uint32(0))     // suggested buffer size (patched)
	le(int32(-1))     // quality
	le(uint32(0))     // sample size
	le([4]int16{0, 0, int16(a.width), int16(a.height)})
	fourcc("strf")
	le(uint32(40))
	le(uint32(40))      // BITMAPINFOHEADER size
	le(int32(a.width))  // width
	le(int32(a.height)) // height
	le(uint16(1))       // planes
	le(uint16(24))      // bit count
	fourcc("MJPG")      // compression
	le(uint32(a.width * a.height * 3))
	le([4]int32{}) // pels per metre, colours used, important
	fourcc("LIST")
	le(uint32(0)) // patched: movi list size
	fourcc("movi")
	a.moviStart = int64(h.Len()) - 4
	a.pos = int64(h.Len())
	_, _ = a.w.Write(h.Bytes())
}

// writeFrame appends one frame.
func (a *aviWriter) writeFrame(img image.Image) error {
	if b := img.Bounds(); b.Dx() != a.width || b.Dy() != a.height {
		return fmt.Errorf("synth: frame is %v, video is %d×%d", b.Size(), a.width, a.height)
	}
	a.buf.Reset()
	if err := jpeg.Encode(&a.buf, img, &jpeg.Options{Quality: a.quality}); err != nil {
		return fmt.Errorf("synth: %w", err)
	}
	data := a.buf.Bytes()
	var hdr [8]byte
	copy(hdr[:4], "00dc")
	binary.LittleEndian.PutUint32(hdr[4:], uint32(len(data)))
	a.index = append(a.index, aviIndexEntry{offset: uint32(a.pos - a.moviStart), size: uint32(len(data))})
	if _, err := a.w.Write(hdr[:]); err != nil {
		return fmt.Errorf("synth: %w", err)
	}
	if _, err := a.w.Write(data); err != nil {
		return fmt.Errorf("synth: %w", err)
	}
	a.pos += 8 + int64(len(data))
	if len(data)%2 == 1 {
		_ = a.w.WriteByte(0)
		a.pos++
	}
	a.frames++
	a.maxFrameSize = max(a.maxFrameSize, len(data))
	return nil
}

// size is the number of bytes written so far.
func (a *aviWriter) size() int64 { return a.pos }

// close writes the index and patches the headers.
func (a *aviWriter) close() error {
	moviSize := a.pos - a.moviStart
	var idx bytes.Buffer
	idx.WriteString("idx1")
	_ = binary.Write(&idx, binary.LittleEndian, uint32(16*len(a.index)))
	for _, e := range a.index {
		idx.WriteString("00dc")
		_ = binary.Write(&idx, binary.LittleEndian, [3]uint32{0x10, e.offset, e.size}) // AVIIF_KEYFRAME
	}
	if _, err := a.w.Write(idx.Bytes()); err != nil {
		return fmt.Errorf("synth: %w", err)
	}
	total := a.pos + int64(idx.Len())
	if err := a.w.Flush(); err != nil {
		return fmt.Errorf("synth: %w", err)
	}
	patch := func(off int64, v uint32) error {
		var b [4]byte
		binary.LittleEndian.PutUint32(b[:], v)
		_, err := a.f.WriteAt(b[:], off)
		return err
	}
	dur := float64(a.frames) / float64(a.fps)
	bps := uint32(0)
	if dur > 0 {
		bps = uint32(float64(total) / dur)
	}
	const avih = 12 + 12 + 8 // RIFF header, hdrl LIST header, avih chunk header
	const strh = avih + 56 + 12 + 8
	for _, p := range []struct {
		off int64
		v   uint32
	}{
		{4, uint32(total - 8)},
		{avih + 4, bps},
		{avih + 16, uint32(a.frames)},
		{avih + 28, uint32(a.maxFrameSize + 8)},
		{strh + 32, uint32(a.frames)},
		{strh + 36, uint32(a.maxFrameSize + 8)},
		{a.moviStart - 4, uint32(moviSize)},
	} {
		if err := patch(p.off, p.v); err != nil {
			return fmt.Errorf("synth: %w", err)
		}
	}
	return a.f.Close()
}
