package vision

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/tablecam/tablecam/models"
)

// TestIndexCachePruned checks that writing an index cache file leaves the
// keptIndexes used last (a cache hit counts as a use) and removes older
// ones, and leaves every other file of the directory alone.
func TestIndexCachePruned(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-48 * time.Hour)
	var stale []string
	for i := range keptIndexes + 3 {
		path := filepath.Join(dir, fmt.Sprintf("index-old%02d.bin", i))
		if err := os.WriteFile(path, []byte("an old index"), 0o644); err != nil {
			t.Fatal(err)
		}
		at := old.Add(time.Duration(i) * time.Hour) // old00 the least recently used
		if err := os.Chtimes(path, at, at); err != nil {
			t.Fatal(err)
		}
		stale = append(stale, path)
	}
	markCacheUsed(stale[0]) // read again just now
	other := filepath.Join(dir, "layouts-x.bin")
	if err := os.WriteFile(other, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(other, old, old); err != nil {
		t.Fatal(err)
	}
	written := filepath.Join(dir, "index-new.bin")
	if err := writeCache(written, nil); err != nil {
		t.Fatal(err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "index-*.bin"))
	// The new one, the one used just now, and the newest of the rest.
	want := []string{written, stale[0]}
	want = append(want, stale[len(stale)-(keptIndexes-2):]...)
	slices.Sort(left)
	slices.Sort(want)
	if !slices.Equal(left, want) {
		t.Errorf("index files left %v, want %v", left, want)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("another cache file was removed: %v", err)
	}
}

// TestIndexKeyHasKind checks that the index cache key changes with what
// makes a card a token (its subtypes, as well as its token mark), which
// shapes its reference face: a catalog whose subtypes changed is indexed
// again, not read from the old cache.
func TestIndexKeyHasKind(t *testing.T) {
	face := filepath.Join(t.TempDir(), "face.png")
	if err := os.WriteFile(face, []byte("face bytes"), 0o644); err != nil {
		t.Fatal(err)
	}
	card := func(subtypes ...string) []*models.Card {
		return []*models.Card{{Name: "Foot Soldier", Slug: "foot_soldier", Type: models.Minion, Subtypes: subtypes, Image: face}}
	}
	keys := map[string]string{}
	for name, cards := range map[string][]*models.Card{
		"plain":         card("Soldier"),
		"token subtype": card("Soldier Token"),
	} {
		k, err := indexKey(cards, Options{})
		if err != nil {
			t.Fatal(err)
		}
		keys[name] = k
	}
	if keys["plain"] == keys["token subtype"] {
		t.Error("a card that became a token by its subtypes keeps its index cache key")
	}
}
