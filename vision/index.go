package vision

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/schollz/progressbar/v3"
	"github.com/tablecam/tablecam/models"
	"golang.org/x/term"
)

// indexFormat changes whenever the cached index's shape or the way faces are
// indexed changes, so that old cache files are not read.
const indexFormat = "tablecam-vision-index-15"

// catalogIndex is every reference face of a catalog and a nearest-neighbour
// index over all their descriptors.
type catalogIndex struct {
	refs []reference
	lsh  *lshIndex
	// siteRef marks the references that are sites (covered-site search).
	siteRef []bool
	// meanSiteThumb is the mean of the site thumbnails, pixel by pixel.
	meanSiteThumb []float64
	// faceSpots holds each face's keypoints but the generic ones by
	// position (verify); nil when the face's generic marks are missing.
	faceSpots []*spotGrid
	// peers counts, for each face, the other faces of its kind and size
	// (those markGeneric compares it with).
	peers []int
	// faceSizes lists the faces by size (identify.go).
	faceSizes []faceSize
	// looks holds the faces' colour thumbnails by kind (appearance.go).
	looks *lookIndex
	// cacheKey is the index's disk cache key (indexKey) when it was read
	// from the cache or written to it; "" otherwise. What else is worked
	// out from the faces once is cached under it (layout_cache.go).
	cacheKey string
}

// cachedIndex is what the disk cache holds.
type cachedIndex struct {
	Format string
	Refs   []reference
}

// indexKey hashes everything the index depends on: the options that shape
// it and each card's identity and face image bytes.
func indexKey(cards []*models.Card, opts Options) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s|%g|%d|%t\n", indexFormat, opts.pxPerMM(), opts.features(), opts.PortraitSiteTopRight)
	for _, c := range cards {
		fmt.Fprintf(h, "%s|%s|%s|%t|%s|", c.Slug, c.Name, c.Type, c.Token, kindOf(c))
		data, err := os.ReadFile(c.Image)
		if err != nil {
			return "", fmt.Errorf("vision: reference face of %q: %w", c.Name, err)
		}
		binary.Write(h, binary.LittleEndian, int64(len(data)))
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// cachePath gives the cache file for a key, or "" when caching is off.
func cachePath(key string, opts Options) string {
	if opts.NoCache {
		return ""
	}
	dir := opts.CacheDir
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(base, "tablecam")
	}
	return filepath.Join(dir, "index-"+key+".bin")
}

// errCorruptCache is wrapped when a cache file cannot be used.
var errCorruptCache = errors.New("corrupt index cache")

func readCache(path string, cards []*models.Card) ([]reference, error) {
	var c cachedIndex
	if err := readCacheFile(path, &c); err != nil {
		return nil, err
	}
	if c.Format != indexFormat || len(c.Refs) != len(cards) {
		return nil, fmt.Errorf("%w %s: holds %d faces, want %d", errCorruptCache, path, len(c.Refs), len(cards))
	}
	for i := range c.Refs {
		r := &c.Refs[i]
		if r.Slug != cards[i].Slug || len(r.Feat.Points) != len(r.Feat.Descs) || len(r.Generic) != len(r.Feat.Points) {
			return nil, fmt.Errorf("%w %s: face %d is not %q", errCorruptCache, path, i, cards[i].Slug)
		}
		r.card = cards[i]
	}
	return c.Refs, nil
}

func writeCache(path string, refs []reference) error {
	return writeCacheFile(path, "index-", cachedIndex{Format: indexFormat, Refs: refs})
}

// faceCards lists the catalog's cards that have a face image.
func faceCards(cat *models.Catalog) []*models.Card {
	var out []*models.Card
	for _, c := range cat.Cards() {
		if c.Image != "" {
			out = append(out, c)
		}
	}
	return out
}

// progressThreshold is the number of faces above which indexing shows a progress bar.
const progressThreshold = 60

// buildIndex indexes the catalog's faces, from the disk cache when it holds
// this exact catalog. A cache file that cannot be read is rebuilt.
func buildIndex(cat *models.Catalog, opts Options) (*catalogIndex, error) {
	cards := faceCards(cat)
	if len(cards) == 0 {
		return nil, fmt.Errorf("vision: catalog %s has no card faces to match against (want images/<slug>.png beside cards.json)", cat.Path)
	}
	key, err := indexKey(cards, opts)
	if err != nil {
		return nil, err
	}
	path := cachePath(key, opts)
	if path != "" {
		refs, err := readCache(path, cards)
		if err == nil {
			markCacheUsed(path)
			x := newCatalogIndex(refs)
			x.cacheKey = key
			return x, nil
		}
		if errors.Is(err, errCorruptCache) && opts.Progress != nil {
			fmt.Fprintf(opts.Progress, "vision: rebuilding the index: %v\n", err)
		}
	}
	refs, err := indexFaces(cards, opts)
	if err != nil {
		return nil, err
	}
	markGeneric(refs)
	x := newCatalogIndex(refs)
	if path != "" {
		if err := writeCache(path, refs); err == nil {
			x.cacheKey = key
		} else if opts.Progress != nil {
			fmt.Fprintf(opts.Progress, "vision: cannot cache the index: %v\n", err)
		}
	}
	return x, nil
}

func indexFaces(cards []*models.Card, opts Options) ([]reference, error) {
	var bar interface{ Add(int) error }
	if opts.Progress != nil && len(cards) > progressThreshold {
		bar = newIndexProgress(opts.Progress, len(cards))
	}
	orb := newORB(opts.features())
	defer orb.Close()
	refs := make([]reference, 0, len(cards))
	for _, c := range cards {
		r, err := newReference(c, &orb, opts)
		if err != nil {
			return nil, err
		}
		refs = append(refs, r)
		if bar != nil {
			bar.Add(1)
		}
	}
	if f, ok := bar.(interface{ Finish() error }); ok {
		f.Finish()
	}
	return refs, nil
}

// newIndexProgress shows indexing progress: a bar redrawn in place on a
// terminal; on a pipe or a log file, where each redraw would be a line of
// its own, a line at each quarter.
func newIndexProgress(w io.Writer, n int) interface{ Add(int) error } {
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return progressbar.NewOptions(n,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription("indexing card faces"),
			progressbar.OptionShowCount(),
			progressbar.OptionSetWidth(30),
			progressbar.OptionThrottle(100e6),
			progressbar.OptionOnCompletion(func() { fmt.Fprintln(w) }),
		)
	}
	return &quarterLines{w: w, n: n}
}

// quarterLines writes "indexing card faces: done/n" at each quarter.
type quarterLines struct {
	w             io.Writer
	n, done, last int
}

func (q *quarterLines) Add(k int) error {
	q.done += k
	if quarter := 4 * q.done / q.n; quarter > q.last {
		q.last = quarter
		fmt.Fprintf(q.w, "indexing card faces: %d/%d\n", q.done, q.n)
	}
	return nil
}

func newCatalogIndex(refs []reference) *catalogIndex {
	var descs []descriptor
	var owner []int32
	var late []bool
	for i, r := range refs {
		descs = append(descs, r.Feat.Descs...)
		for j := range r.Feat.Descs {
			owner = append(owner, int32(i))
			late = append(late, j >= len(r.Feat.Descs)-r.Late)
		}
	}
	site := make([]bool, len(refs))
	var mean []float64
	n := 0
	for i, r := range refs {
		site[i] = r.Kind == models.KindSite
		if !site[i] || len(r.Thumb) == 0 || (mean != nil && len(r.Thumb) != len(mean)) {
			continue
		}
		if mean == nil {
			mean = make([]float64, len(r.Thumb))
		}
		for j, p := range r.Thumb {
			mean[j] += float64(p)
		}
		n++
	}
	for j := range mean {
		mean[j] /= float64(n)
	}
	x := &catalogIndex{refs: refs, lsh: newLSHIndex(descs, owner, late), siteRef: site, meanSiteThumb: mean, peers: make([]int, len(refs))}
	x.faceSizes = facesBySize(refs)
	x.looks = newLookIndex(refs)
	type shape struct {
		kind models.CardKind
		w, h int
	}
	count := map[shape]int{} // faces by kind and size
	for _, r := range refs {
		count[shape{r.Kind, r.W, r.H}]++
	}
	for i, r := range refs {
		x.peers[i] = count[shape{r.Kind, r.W, r.H}] - 1
	}
	for _, r := range refs {
		var spots *spotGrid
		if len(r.Generic) == len(r.Feat.Points) {
			notGeneric := make([]bool, len(r.Generic))
			for j, g := range r.Generic {
				notGeneric[j] = !g
			}
			spots = newSpotGrid(r.Feat.Points, notGeneric, faceGridCell)
		}
		x.faceSpots = append(x.faceSpots, spots)
	}
	return x
}

// faceGrid holds a face's keypoints by position.
func faceGrid(r *reference) *pointGrid { return newPointGrid(r.Feat.Points, faceGridCell) }

// faceGridCell is the cell side (pixels) of the face keypoint grids.
const faceGridCell = 8

// descriptorOffset gives the first global descriptor id of each reference.
func (x *catalogIndex) descriptorOffsets() []int {
	off := make([]int, len(x.refs)+1)
	for i, r := range x.refs {
		off[i+1] = off[i] + len(r.Feat.Descs)
	}
	return off
}
