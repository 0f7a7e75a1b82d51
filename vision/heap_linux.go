package vision

// #include <malloc.h>
// static void tablecam_keep_freed_memory(void) {
// 	mallopt(M_MMAP_THRESHOLD, 32 << 20);
// 	mallopt(M_TRIM_THRESHOLD, 256 << 20);
// }
import "C"

// keepFreedMemory asks the C allocator to keep the memory OpenCV frees for
// the next frame rather than give it back to the system: reading a frame
// allocates and frees image buffers of megabytes (OpenCV's own, inside
// Canny or ORB, among them), and memory given back is paged in again, page
// by page, on the next frame. It costs the process its peak heap, tens of
// megabytes.
func keepFreedMemory() { C.tablecam_keep_freed_memory() }
