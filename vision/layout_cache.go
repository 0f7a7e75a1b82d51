package vision

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"

	"github.com/tablecam/tablecam/models"
)

// The catalog's layouts (newCardLayouts) are the mean of up to 64 of its
// faces, each read from its scan: against the 1,104-face catalog, whose
// scans are 504 × 704 PNGs, that is a third of a second of decoding at the
// first unknown card of a session, ten frames of a 30 fps camera. They
// depend on nothing but the faces the index is built from, so they are
// kept in the disk cache beside the index, under a key of their own (the
// index's, with the cards' kinds and layoutFormat).

// layoutFormat changes whenever the way newCardLayouts reads the faces
// changes (the scale, the faces chosen, the standardisation), so that old
// cached layouts are not read.
const layoutFormat = "tablecam-vision-layouts-1"

// cachedLayouts is what a layout cache file holds.
type cachedLayouts struct {
	Format         string
	SW, SH         int
	Standard, Site []float32
}

// cardLayoutsFor gives the catalog's layouts (newCardLayouts), from the
// disk cache when the index was read from or written to it (x.cacheKey);
// newly read ones are cached there.
func cardLayoutsFor(cat *models.Catalog, opts Options, x *catalogIndex) *cardLayouts {
	path := layoutCachePath(cat, opts, x)
	if path != "" {
		if l, err := readLayoutCache(path); err == nil {
			markCacheUsed(path)
			return l
		}
	}
	l := newCardLayouts(cat, opts)
	if path != "" {
		if err := writeLayoutCache(path, l); err != nil && opts.Progress != nil {
			fmt.Fprintf(opts.Progress, "vision: cannot cache the card layouts: %v\n", err)
		}
	}
	return l
}

// layoutCachePath gives the layout cache file of a catalog whose index is
// x, or "" when the index has no cache key (caching off, or built in a
// test) or caching is off.
func layoutCachePath(cat *models.Catalog, opts Options, x *catalogIndex) string {
	if x == nil || x.cacheKey == "" {
		return ""
	}
	index := cachePath(x.cacheKey, opts)
	if index == "" {
		return ""
	}
	// The index key covers the faces (their cards' slugs, names, types,
	// token flags and kinds, the scans' bytes, in order) and the options;
	// the layouts also depend on which cards have no face, and their kinds.
	h := sha256.New()
	fmt.Fprintf(h, "%s|%s|%g|%d|%d|%d\n", layoutFormat, x.cacheKey, layoutPxPerMM, layoutMaxFaces, layoutMinFaces, len(cat.Cards()))
	for _, c := range cat.Cards() {
		fmt.Fprintf(h, "%s|%s|%t|", c.Slug, kindOf(c), c.Image != "")
	}
	return filepath.Join(filepath.Dir(index), "layouts-"+hex.EncodeToString(h.Sum(nil))+".bin")
}

func readLayoutCache(path string) (*cardLayouts, error) {
	var c cachedLayouts
	if err := readCacheFile(path, &c); err != nil {
		return nil, err
	}
	if c.Format != layoutFormat || (c.Standard != nil && len(c.Standard) != c.SW*c.SH) || (c.Site != nil && len(c.Site) != c.SW*c.SH) {
		return nil, fmt.Errorf("%w %s: not layouts of %s", errCorruptCache, path, layoutFormat)
	}
	return &cardLayouts{standard: c.Standard, site: c.Site, sw: c.SW, sh: c.SH}, nil
}

func writeLayoutCache(path string, l *cardLayouts) error {
	return writeCacheFile(path, "layouts-", cachedLayouts{Format: layoutFormat, SW: l.sw, SH: l.sh, Standard: l.standard, Site: l.site})
}
