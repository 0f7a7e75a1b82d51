package vision

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// The disk cache's files (the indexes, index-KEY.bin, and the card
// layouts, layouts-KEY.bin) are gob encoded, written whole or not at all,
// and pruned to those of the catalogs used last.

// readCacheFile decodes the cache file at path into v. A file that does not
// decode is errCorruptCache.
func readCacheFile(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(v); err != nil {
		return fmt.Errorf("%w %s: %v", errCorruptCache, path, err)
	}
	return nil
}

// writeCacheFile writes v to the cache file path, named prefix…".bin":
// into a temporary file first, renamed to path once whole, so that a
// reader never sees half of it. Then it prunes the directory's files of
// that prefix (pruneCache).
func writeCacheFile(path, prefix string, v any) error {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(v); err != nil {
		return err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+prefix+"*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(buf.Bytes())
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return err
	}
	pruneCache(path, prefix)
	return nil
}

// keptIndexes is how many index cache files a cache directory keeps: those
// of the catalogs used last (a player's deck, the full card list, a
// friend's catalog...). The full list's index is tens of megabytes, and a
// new one is written whenever the catalog or its faces change.
const keptIndexes = 6

// pruneCache removes from the directory of the cache file keep the files
// named prefix…".bin" (the indexes', "index-", or the card layouts',
// "layouts-") beyond the keptIndexes used last (by modification time: a
// cache hit touches its file, see markCacheUsed), never keep itself. It is
// best effort: a file it cannot list or remove stays.
func pruneCache(keep, prefix string) {
	dir := filepath.Dir(keep)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type cacheFile struct {
		path string
		used time.Time
	}
	var files []cacheFile
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasPrefix(name, prefix) || !strings.HasSuffix(name, ".bin") {
			continue
		}
		path := filepath.Join(dir, name)
		if path == keep {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		files = append(files, cacheFile{path, info.ModTime()})
	}
	slices.SortFunc(files, func(a, b cacheFile) int { return b.used.Compare(a.used) })
	for _, f := range files[min(len(files), keptIndexes-1):] {
		os.Remove(f.path)
	}
}

// markCacheUsed sets a cache file's modification time to now, so that
// pruneCache keeps the files in use.
func markCacheUsed(path string) {
	now := time.Now()
	_ = os.Chtimes(path, now, now)
}
