package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/samples"
)

// sharedCatalogPath is the full public card list, when it sits beside the
// repository (as it does in a development checkout and in CI).
const sharedCatalogPath = "../shared/data/sorcery-cards.json"

// catalogCandidate is one place a catalog may come from, with a short
// description for the message that names the chosen one.
type catalogCandidate struct {
	path, what string
}

// userCacheCatalogPath is where "tablecam catalog fetch" stores the card list.
func userCacheCatalogPath() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "tablecam", "cards.json"), nil
}

// defaultCatalogCandidates lists, best first, the catalogs tried when the user
// names none: the shared card list, the user cache, then the bundled samples.
func defaultCatalogCandidates() []catalogCandidate {
	cands := []catalogCandidate{{sharedCatalogPath, "shared card list"}}
	if p, err := userCacheCatalogPath(); err == nil {
		cands = append(cands, catalogCandidate{p, "cached card list"})
	}
	if p, err := samples.Path("catalog"); err == nil {
		cands = append(cands, catalogCandidate{p, "bundled sample catalog"})
	}
	return cands
}

// openCatalog loads the catalog the user named with --catalog (a cards.json
// file or a catalog directory). When flagValue is empty it picks the first
// catalog that exists among the shared card list, the user cache and the
// bundled sample catalog, and names its choice in one line on stderr.
func openCatalog(flagValue string, stderr io.Writer) (*models.Catalog, error) {
	if flagValue != "" {
		return models.LoadCatalog(flagValue)
	}
	var tried []string
	for _, c := range defaultCatalogCandidates() {
		if _, err := os.Stat(c.path); err != nil {
			tried = append(tried, c.path)
			continue
		}
		cat, err := models.LoadCatalog(c.path)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(stderr, "tablecam: using the %s %s (%d cards; choose another with --catalog)\n", c.what, c.path, cat.Len())
		return cat, nil
	}
	return nil, fmt.Errorf("no card catalog found (looked for %v); give one with --catalog or run \"tablecam catalog fetch\"", tried)
}
