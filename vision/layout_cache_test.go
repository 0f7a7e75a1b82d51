package vision

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/tablecam/tablecam/models"
)

func sameLayouts(a, b *cardLayouts) bool {
	return a.sw == b.sw && a.sh == b.sh && (a.standard == nil) == (b.standard == nil) && (a.site == nil) == (b.site == nil) &&
		slices.Equal(a.standard, b.standard) && slices.Equal(a.site, b.site)
}

// TestCardLayoutsCached checks that the layouts kept in the disk cache are
// those newCardLayouts reads from the faces, that they are read from the
// cache file (and a file that cannot be read is replaced), and that the
// file is another for a catalog whose kinds differ or an index that was
// not cached.
func TestCardLayoutsCached(t *testing.T) {
	a := newTestAnalyzer(t, devCatalog(t))
	want := newCardLayouts(a.cat, a.opts)
	if want.standard == nil || want.site == nil {
		t.Fatal("the sample catalog has no layout of a kind: the comparison says little")
	}
	path := layoutCachePath(a.cat, a.opts, a.index)
	if path == "" {
		t.Fatal("no layout cache file for an index read from the cache")
	}
	if _, err := os.Stat(path); err == nil {
		t.Fatalf("%s exists before the layouts were read", path)
	}
	if got := cardLayoutsFor(a.cat, a.opts, a.index); !sameLayouts(got, want) {
		t.Error("the layouts first read differ from newCardLayouts'")
	}
	if got, err := readLayoutCache(path); err != nil || !sameLayouts(got, want) {
		t.Fatalf("the cached layouts (%v) differ from newCardLayouts'", err)
	}
	if got := cardLayoutsFor(a.cat, a.opts, a.index); !sameLayouts(got, want) {
		t.Error("the layouts read from the cache differ from newCardLayouts'")
	}
	// What the file holds is what is read.
	marked := &cardLayouts{standard: slices.Clone(want.standard), site: want.site, sw: want.sw, sh: want.sh}
	marked.standard[0] += 1
	if err := writeLayoutCache(path, marked); err != nil {
		t.Fatal(err)
	}
	if got := cardLayoutsFor(a.cat, a.opts, a.index); !sameLayouts(got, marked) {
		t.Error("the layouts were not read from the cache file")
	}
	// A file that cannot be read, or holds other layouts' format, is replaced.
	var old bytes.Buffer
	if err := gob.NewEncoder(&old).Encode(cachedLayouts{Format: "tablecam-vision-layouts-0", SW: want.sw, SH: want.sh, Standard: marked.standard, Site: want.site}); err != nil {
		t.Fatal(err)
	}
	for _, data := range [][]byte{[]byte("not gob"), old.Bytes()} {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if got := cardLayoutsFor(a.cat, a.opts, a.index); !sameLayouts(got, want) {
			t.Error("the layouts read past a bad cache file differ from newCardLayouts'")
		}
		if got, err := readLayoutCache(path); err != nil || !sameLayouts(got, want) {
			t.Errorf("a bad cache file was not replaced (%v)", err)
		}
	}
	// A card of another kind (a token by its subtype, which the index key
	// does not cover) makes other layouts.
	var cards []*models.Card
	turned := false
	for _, c := range a.cat.Cards() {
		cc := *c
		if !turned && kindOf(c) != models.KindToken {
			cc.Subtypes = append(slices.Clone(cc.Subtypes), "Token")
			turned = true
		}
		cards = append(cards, &cc)
	}
	if other := layoutCachePath(models.NewCatalog(cards), a.opts, a.index); other == path || other == "" {
		t.Errorf("a catalog of other kinds has the layout cache file %q, the first %q", other, path)
	}
	// An index not read from the cache or written to it has none.
	b, err := NewAnalyzer(a.cat, Options{NoCache: true, NoReuse: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if p := layoutCachePath(b.cat, b.opts, b.index); p != "" {
		t.Errorf("an index built without the cache has the layout cache file %s", p)
	}
	if got := cardLayoutsFor(b.cat, b.opts, b.index); !sameLayouts(got, want) {
		t.Error("the layouts read without the cache differ from newCardLayouts'")
	}
}

// TestLayoutCachePruned checks that writing a layout cache file leaves the
// keptIndexes layout files used last, itself among them, and no index
// file or other file removed.
func TestLayoutCachePruned(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-time.Hour)
	var names []string
	for i := 0; i < keptIndexes+3; i++ {
		name := filepath.Join(dir, fmt.Sprintf("layouts-%02d.bin", i))
		if err := os.WriteFile(name, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		at := old.Add(time.Duration(i) * time.Minute) // the later, the more recently used
		if err := os.Chtimes(name, at, at); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	others := []string{filepath.Join(dir, "index-aa.bin"), filepath.Join(dir, "notes.txt")}
	for _, name := range others {
		if err := os.WriteFile(name, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(name, old, old); err != nil {
			t.Fatal(err)
		}
	}
	written := filepath.Join(dir, "layouts-new.bin")
	if err := writeLayoutCache(written, &cardLayouts{standard: []float32{1, 2}, sw: 1, sh: 2}); err != nil {
		t.Fatal(err)
	}
	want := append([]string{written}, names[len(names)-(keptIndexes-1):]...)
	want = append(want, others...)
	var got []string
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		got = append(got, filepath.Join(dir, e.Name()))
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("after writing a layout file the cache holds %v, want %v", got, want)
	}
}
