package vision

import "math/bits"

// hamming is the number of differing bits of two descriptors.
func hamming(a, b *descriptor) int {
	return bits.OnesCount64(a[0]^b[0]) + bits.OnesCount64(a[1]^b[1]) +
		bits.OnesCount64(a[2]^b[2]) + bits.OnesCount64(a[3]^b[3])
}
