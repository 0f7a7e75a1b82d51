package synth

import (
	"fmt"
	"image"
	_ "image/jpeg" // user scans
	_ "image/png"
	"os"
	"sync"

	"github.com/tablecam/tablecam/models"
)

// Renderer draws scenes with the cards of one catalog. It caches the card
// faces and mat textures, so render many scenes with one Renderer. It is safe
// for concurrent use.
type Renderer struct {
	cat  *models.Catalog
	geom models.RealmGeometry

	mu     sync.Mutex
	faces  map[*models.Card]*mipFace
	turns  map[*models.Card]int
	mats   map[int]*image.RGBA
	tables map[int]*image.RGBA
	fonts  *faceFonts

	sites, units, tokens, avatars, spells []*models.Card
}

// NewRenderer prepares a renderer for the catalog's cards. Cards with a
// reference image (catalog directories) are drawn from it; cards without one
// get a procedural face. The catalog needs sites and units to place.
func NewRenderer(cat *models.Catalog) (*Renderer, error) {
	fonts, err := newFaceFonts()
	if err != nil {
		return nil, err
	}
	r := &Renderer{cat: cat, geom: models.DefaultRealm(), faces: map[*models.Card]*mipFace{}, turns: map[*models.Card]int{},
		mats: map[int]*image.RGBA{}, tables: map[int]*image.RGBA{}, fonts: fonts}
	for _, c := range cat.Cards() {
		switch {
		case c.Token:
			r.tokens = append(r.tokens, c)
		case c.Type == models.Site:
			r.sites = append(r.sites, c)
		case c.Type == models.Avatar:
			r.avatars = append(r.avatars, c)
		case c.Type == models.Minion || c.Type == models.Artifact:
			r.units = append(r.units, c)
		case c.Type.IsSpell():
			r.spells = append(r.spells, c)
		}
	}
	if len(r.sites) == 0 || len(r.units)+len(r.avatars) == 0 {
		return nil, fmt.Errorf("synth: catalog %s has %d sites and %d units; scenes need both", cat.Path, len(r.sites), len(r.units)+len(r.avatars))
	}
	if len(r.avatars) == 0 {
		r.avatars = r.units
	}
	return r, nil
}

// Catalog gives the renderer's catalog.
func (r *Renderer) Catalog() *models.Catalog { return r.cat }

// face gives a card's upright face with its resolution levels.
func (r *Renderer) face(c *models.Card) (*mipFace, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if f, ok := r.faces[c]; ok {
		return f, nil
	}
	var img *image.RGBA
	if c.Image != "" {
		var err error
		img, err = LoadFace(c)
		if err != nil {
			return nil, err
		}
		if w, h := FaceSizeMM(c); (w > h) != (img.Bounds().Dx() > img.Bounds().Dy()) {
			return nil, fmt.Errorf("synth: %s: the image is %v but a %s lies %s in play",
				c.Image, img.Bounds().Size(), c.Type, map[bool]string{true: "landscape", false: "portrait"}[w > h])
		}
		if cfg, err := imageSize(c.Image); err == nil && cfg.X < cfg.Y && c.Type == models.Site && !c.Token {
			r.turns[c] = 90
		}
	} else {
		key := []string{"ember", "tide", "moss", "sky", "storm", "quarry", "lantern", "marsh", "ash"}[hashString(c.Name)%9]
		img = renderFace(c, makePalette(key, 1), int64(hashString(c.Name)), r.fonts)
	}
	w, h := FaceSizeMM(c)
	f := newMipFace(img, w, h)
	r.faces[c] = f
	return f, nil
}

// ImageTurn gives how far (clockwise, in degrees) the card's catalog image
// must turn to show the upright face: 90 for sites scanned portrait, else 0.
func (r *Renderer) ImageTurn(c *models.Card) int {
	if _, err := r.face(c); err != nil {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.turns[c]
}

// imageSize reads an image file's size without decoding its pixels.
func imageSize(path string) (image.Point, error) {
	f, err := os.Open(path)
	if err != nil {
		return image.Point{}, err
	}
	defer f.Close()
	cfg, _, err := image.DecodeConfig(f)
	if err != nil {
		return image.Point{}, err
	}
	return image.Pt(cfg.Width, cfg.Height), nil
}

// FaceOf gives the upright face the renderer draws for a card: its catalog
// image turned upright, or the procedural face when it has none.
func (r *Renderer) FaceOf(c *models.Card) (*image.RGBA, error) {
	f, err := r.face(c)
	if err != nil {
		return nil, err
	}
	return f.levels[0], nil
}

func (r *Renderer) matArt(variant int) *image.RGBA {
	r.mu.Lock()
	defer r.mu.Unlock()
	if m, ok := r.mats[variant]; ok {
		return m
	}
	m := renderMatArt(variant, r.geom)
	r.mats[variant] = m
	return m
}

func (r *Renderer) table(variant int) *image.RGBA {
	r.mu.Lock()
	defer r.mu.Unlock()
	if t, ok := r.tables[variant]; ok {
		return t
	}
	t := renderTable(variant)
	r.tables[variant] = t
	return t
}

// SetGeometry makes the renderer draw mats whose realm cells have another
// size than models.DefaultRealm() (a tight or roomy playmat); the scenes'
// truth carries it. Cards keep their real size. Call it before rendering.
func (r *Renderer) SetGeometry(g models.RealmGeometry) error {
	if err := g.Validate(); err != nil {
		return fmt.Errorf("synth: %w", err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.geom = g
	r.mats = map[int]*image.RGBA{}
	return nil
}
