package vision

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

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
