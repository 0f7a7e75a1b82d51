package vision

// #cgo !windows pkg-config: opencv4
// #cgo CXXFLAGS: --std=c++11
// #include "threads.h"
import "C"

// SetOpenCVThreads sets how many threads OpenCV's parallel loops use (1 to
// measure single-core speed; 0 turns its threading off, negative restores
// the default) and returns the previous setting. gocv v0.32 has no binding
// for cv::setNumThreads; this is one.
func SetOpenCVThreads(n int) int {
	prev := int(C.tablecam_get_num_threads())
	C.tablecam_set_num_threads(C.int(n))
	return prev
}
