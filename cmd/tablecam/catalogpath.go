package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"time"

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

// catalogEnv names a catalog to use when --catalog is not given.
const catalogEnv = "TABLECAM_CATALOG"

// defaultCatalogCandidates lists, best first, the catalogs tried when the user
// names none: the shared card list (beside the working directory, then
// beside the checkout the program runs from), the user cache, then the
// bundled samples.
func defaultCatalogCandidates() []catalogCandidate {
	cands := []catalogCandidate{{sharedCatalogPath, "shared card list"}}
	samplesDir, samplesErr := samples.Dir()
	if samplesErr == nil {
		// samples/ is in the checkout; ../shared sits beside the checkout.
		beside := filepath.Join(filepath.Dir(filepath.Dir(samplesDir)), "shared", "data", "sorcery-cards.json")
		if abs, err := filepath.Abs(sharedCatalogPath); err != nil || abs != beside {
			cands = append(cands, catalogCandidate{beside, "shared card list"})
		}
	}
	if p, err := userCacheCatalogPath(); err == nil {
		cands = append(cands, catalogCandidate{p, "cached card list"})
	}
	if samplesErr == nil {
		cands = append(cands, catalogCandidate{filepath.Join(samplesDir, "catalog"), "bundled sample catalog"})
	}
	return cands
}

// openCatalog loads the catalog the user named with --catalog (a cards.json
// file or a catalog directory), else the one $TABLECAM_CATALOG names. With
// neither, it picks the first catalog that exists among the shared card
// list, the user cache and the bundled sample catalog. When the user named
// none it says which it chose, in one line on stderr.
func openCatalog(flagValue string, stderr io.Writer) (*models.Catalog, error) {
	return openCatalogFor(flagValue, stderr, false)
}

// openFaceCatalog is openCatalog for the commands that read cards in camera
// frames: they need reference faces, so a default catalog without any (the
// card lists are names and rules only) is passed over for the next one.
func openFaceCatalog(flagValue string, stderr io.Writer) (*models.Catalog, error) {
	return openCatalogFor(flagValue, stderr, true)
}

func openCatalogFor(flagValue string, stderr io.Writer, needFaces bool) (*models.Catalog, error) {
	if flagValue != "" {
		return models.LoadCatalog(flagValue)
	}
	if env := os.Getenv(catalogEnv); env != "" {
		cat, err := models.LoadCatalog(env)
		if err != nil {
			return nil, fmt.Errorf("$%s: %w", catalogEnv, err)
		}
		fmt.Fprintf(stderr, "tablecam: using the catalog %s from $%s (%d cards)\n", env, catalogEnv, cat.Len())
		return cat, nil
	}
	var tried, faceless []string
	for _, c := range defaultCatalogCandidates() {
		if _, err := os.Stat(c.path); err != nil {
			tried = append(tried, c.path)
			continue
		}
		cat, err := models.LoadCatalog(c.path)
		if err != nil {
			return nil, err
		}
		if needFaces && !hasFaces(cat) {
			faceless = append(faceless, c.path)
			continue
		}
		fmt.Fprintf(stderr, "tablecam: using the %s %s (%d cards; choose another with --catalog)\n", c.what, c.path, cat.Len())
		return cat, nil
	}
	if len(faceless) > 0 {
		return nil, fmt.Errorf("no card catalog with card faces found (%v hold names only; a catalog directory holds cards.json and images/<slug>.png); give one with --catalog", faceless)
	}
	return nil, fmt.Errorf("no card catalog found (looked for %v); give one with --catalog or run \"tablecam catalog fetch\"", tried)
}

// hasFaces reports whether any card of the catalog has a face image.
func hasFaces(cat *models.Catalog) bool {
	for _, c := range cat.Cards() {
		if c.Image != "" {
			return true
		}
	}
	return false
}

// isDir reports whether path is a directory.
func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// defaultCardListURL is the public Sorcery card list.
const defaultCardListURL = "https://api.sorcerytcg.com/api/cards"

// maxCardListBytes bounds a download: the whole list is a few megabytes.
const maxCardListBytes = 256 << 20

// catalogFetch is "tablecam catalog fetch": it downloads the card list,
// checks that it reads as a card list, and only then replaces the file at
// out (default: the user cache), through a temporary file and a rename so
// that a failed or interrupted download never leaves a broken catalog.
func catalogFetch(ctx context.Context, e env, url, out string) int {
	if out == "" {
		p, err := userCacheCatalogPath()
		if err != nil {
			fmt.Fprintf(e.stderr, "tablecam catalog fetch: no user cache folder (%v); give --out PATH\n", err)
			return 1
		}
		out = p
	}
	n, err := fetchCardList(ctx, url, out)
	if err != nil {
		fmt.Fprintf(e.stderr, "tablecam catalog fetch: %v\n", err)
		return 1
	}
	fmt.Fprintf(e.stdout, "fetched %d cards from %s into %s\n", n, url, out)
	return 0
}

// fetchCardList downloads url into the file out and gives the card count.
func fetchCardList(ctx context.Context, url, out string) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "tablecam (card catalog fetch)")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("%s: %s", url, resp.Status)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxCardListBytes+1))
	if err != nil {
		return 0, fmt.Errorf("%s: %w", url, err)
	}
	if len(data) > maxCardListBytes {
		return 0, fmt.Errorf("%s: more than %d MB; not a card list", url, maxCardListBytes>>20)
	}
	cards, err := models.ParseCards(data)
	if err != nil {
		var ce *models.CatalogError
		if errors.As(err, &ce) {
			ce.File = url
		}
		return 0, fmt.Errorf("the download is not a card list, so %s was left as it was: %w", out, err)
	}
	if len(cards) == 0 {
		return 0, fmt.Errorf("%s holds no cards, so %s was left as it was", url, out)
	}
	if err := writeFileAtomically(out, data); err != nil {
		return 0, err
	}
	return len(cards), nil
}

// writeFileAtomically writes data to a temporary file beside path and renames
// it over path, so readers see the old file or the new one, never half.
func writeFileAtomically(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".cards-*.json")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once renamed
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// catalogDirIn gives the first of dirs that is a catalog folder (it holds
// cards.json).
func catalogDirIn(dirs ...string) (string, bool) {
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "cards.json")); err == nil {
			return filepath.Clean(d), true
		}
	}
	return "", false
}
