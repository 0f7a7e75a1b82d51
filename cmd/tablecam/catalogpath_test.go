package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tinyCatalogJSON writes a one-card catalog in the older API shape.
func tinyCatalogJSON(name string) string {
	return `[{"name":"` + name + `","slug":"` + strings.ToLower(strings.ReplaceAll(name, " ", "_")) + `",
  "guardian":{"type":"Site","rarity":"Ordinary","rulesText":"","cost":null,"attack":null,"defence":null,"life":null,
  "thresholds":{"air":0,"earth":0,"fire":1,"water":0}},"elements":"Fire","subTypes":"","sets":[]}]`
}

func writeCatalogTestFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// catalogTestRoot makes a temporary root with nothing in it yet: root/work
// is the working directory, so its ../shared is root/shared; the program's
// checkout is root/far/checkout (samples/ in it), beside root/far/shared;
// the user cache is root/cache.
func catalogTestRoot(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	work := filepath.Join(root, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(work)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(root, "cache"))
	t.Setenv("HOME", filepath.Join(root, "home"))
	t.Setenv("TABLECAM_SAMPLES", filepath.Join(root, "far", "checkout", "samples"))
	t.Setenv("TABLECAM_CATALOG", "")
	return root
}

func TestOpenCatalogChoosesDefaultsInOrder(t *testing.T) {
	root := catalogTestRoot(t)

	var stderr bytes.Buffer
	if _, err := openCatalog("", &stderr); err == nil {
		t.Fatal("no catalog anywhere: want an error")
	}

	writeCatalogTestFile(t, filepath.Join(root, "far", "checkout", "samples", "doc.go"), "package samples\n")
	writeCatalogTestFile(t, filepath.Join(root, "far", "checkout", "samples", "catalog", "cards.json"), tinyCatalogJSON("Sample Site"))
	writeCatalogTestFile(t, filepath.Join(root, "far", "shared", "data", "sorcery-cards.json"), tinyCatalogJSON("Far Shared Site"))
	writeCatalogTestFile(t, filepath.Join(root, "shared", "data", "sorcery-cards.json"), tinyCatalogJSON("Shared Site"))
	writeCatalogTestFile(t, filepath.Join(root, "cache", "tablecam", "cards.json"), tinyCatalogJSON("Cached Site"))
	writeCatalogTestFile(t, filepath.Join(root, "mine.json"), tinyCatalogJSON("My Site"))
	writeCatalogTestFile(t, filepath.Join(root, "env.json"), tinyCatalogJSON("Env Site"))

	steps := []struct {
		flag, env, want, message string
		remove                   string // removed after this step
	}{
		{flag: filepath.Join(root, "mine.json"), env: filepath.Join(root, "env.json"), want: "My Site"},
		{env: filepath.Join(root, "env.json"), want: "Env Site", message: "from $TABLECAM_CATALOG"},
		{want: "Shared Site", message: "shared card list ../shared/data/sorcery-cards.json", remove: filepath.Join(root, "shared")},
		{want: "Far Shared Site", message: "shared card list " + filepath.Join(root, "far", "shared"), remove: filepath.Join(root, "far", "shared")},
		{want: "Cached Site", message: "cached card list", remove: filepath.Join(root, "cache")},
		{want: "Sample Site", message: "bundled sample catalog"},
	}
	for _, s := range steps {
		t.Setenv("TABLECAM_CATALOG", s.env)
		stderr.Reset()
		cat, err := openCatalog(s.flag, &stderr)
		if err != nil {
			t.Fatalf("flag %q: %v", s.flag, err)
		}
		if _, err := cat.Lookup(s.want); err != nil {
			t.Errorf("flag %q: want the catalog holding %q: %v", s.flag, s.want, err)
		}
		if s.message == "" && stderr.Len() != 0 {
			t.Errorf("flag %q: a catalog the user named needs no message, got %q", s.flag, stderr.String())
		}
		if s.message != "" && (!strings.Contains(stderr.String(), s.message) || strings.Count(stderr.String(), "\n") != 1) {
			t.Errorf("want one line naming the %s, got %q", s.message, stderr.String())
		}
		if s.remove != "" {
			if err := os.RemoveAll(s.remove); err != nil {
				t.Fatal(err)
			}
		}
	}

	t.Setenv("TABLECAM_CATALOG", filepath.Join(root, "gone.json"))
	if _, err := openCatalog("", &stderr); err == nil || !strings.Contains(err.Error(), "$TABLECAM_CATALOG") {
		t.Errorf("a missing $TABLECAM_CATALOG: %v", err)
	}
}

func TestOpenCatalogMissingFlagPath(t *testing.T) {
	_, err := openCatalog(filepath.Join(t.TempDir(), "nope.json"), &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "nope.json") {
		t.Fatalf("want an error naming the file, got %v", err)
	}
}

// The commands that read camera frames pass over a default card list with
// no faces (the shared list is names and rules only) for the bundled
// sample catalog, which has them; with only face-less lists, the error says
// what is missing.
func TestOpenFaceCatalogPassesOverListsWithoutFaces(t *testing.T) {
	root := catalogTestRoot(t)
	samplesDir := filepath.Join(root, "far", "checkout", "samples")
	writeCatalogTestFile(t, filepath.Join(samplesDir, "doc.go"), "package samples\n")
	writeCatalogTestFile(t, filepath.Join(samplesDir, "catalog", "cards.json"), tinyCatalogJSON("Sample Site"))
	writeCatalogTestFile(t, filepath.Join(root, "shared", "data", "sorcery-cards.json"), tinyCatalogJSON("Shared Site"))

	var stderr bytes.Buffer
	_, err := openFaceCatalog("", &stderr)
	if err == nil || !strings.Contains(err.Error(), "card faces") || !strings.Contains(err.Error(), "sorcery-cards.json") {
		t.Fatalf("only face-less catalogs: want an error naming them and the missing faces, got %v", err)
	}
	if cat, err := openCatalog("", &stderr); err != nil || cat.Len() != 1 {
		t.Fatalf("openCatalog needs no faces: %v", err)
	} else if _, err := cat.Lookup("Shared Site"); err != nil {
		t.Errorf("openCatalog: want the shared list first: %v", err)
	}

	writeCatalogTestFile(t, filepath.Join(samplesDir, "catalog", "images", "sample_site.png"), "not read here")
	stderr.Reset()
	cat, err := openFaceCatalog("", &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cat.Lookup("Sample Site"); err != nil {
		t.Errorf("want the bundled sample catalog, which has faces: %v", err)
	}
	if !strings.Contains(stderr.String(), "bundled sample catalog") {
		t.Errorf("want one line naming the bundled sample catalog, got %q", stderr.String())
	}
}
