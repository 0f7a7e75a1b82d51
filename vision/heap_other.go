//go:build !linux

package vision

// keepFreedMemory does nothing outside Linux (see heap_linux.go).
func keepFreedMemory() {}
