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

func TestOpenCatalogChoosesDefaultsInOrder(t *testing.T) {
	root := t.TempDir()
	// root/work is the working directory, so its ../shared is root/shared;
	// the program's checkout is root/far/checkout, beside root/far/shared.
	work := filepath.Join(root, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(work)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(root, "cache"))
	t.Setenv("HOME", filepath.Join(root, "home"))
	t.Setenv("TABLECAM_SAMPLES", filepath.Join(root, "far", "checkout", "samples"))
	t.Setenv("TABLECAM_CATALOG", "")

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
