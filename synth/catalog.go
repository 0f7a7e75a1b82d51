package synth

import (
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/tablecam/tablecam/models"
)

// CatalogOptions tunes RenderCatalog.
type CatalogOptions struct {
	// Progress, when set, is called after each card with the number done and the total.
	Progress func(done, total int)
	// Style is how the faces are drawn (the sample look by default).
	Style FaceStyle
}

// SampleCards builds the made-up cards of the sample catalog, without images.
func SampleCards() []*models.Card {
	data, err := sampleCardsJSON()
	if err != nil {
		panic(err) // the table above always marshals
	}
	cards, err := models.ParseCards(data)
	if err != nil {
		panic(err)
	}
	return cards
}

// RenderCatalog writes the sample catalog to dir: cards.json in the public
// API's older shape and a reference face for each card in images/<slug>.png.
// Every other site is stored the way real scans store sites: portrait, with
// the landscape face turned 90° counter-clockwise (see UprightFace). The
// same seed gives the same images, byte for byte.
func RenderCatalog(dir string, seed int64, opts CatalogOptions) (*models.Catalog, error) {
	data, err := sampleCardsJSON()
	if err != nil {
		return nil, fmt.Errorf("synth: catalog: %w", err)
	}
	cards, err := models.ParseCards(data)
	if err != nil {
		return nil, fmt.Errorf("synth: catalog: %w", err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "images"), 0o755); err != nil {
		return nil, fmt.Errorf("synth: catalog: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cards.json"), data, 0o644); err != nil {
		return nil, fmt.Errorf("synth: catalog: %w", err)
	}
	// Which sites are stored portrait, as real scans store them.
	portrait := make([]bool, len(cards))
	sites := 0
	for i, card := range cards {
		if card.Type == models.Site && !card.Token {
			portrait[i] = sites%2 == 1
			sites++
		}
	}
	jobs := make(chan int)
	errs := make([]error, len(cards))
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for w := 0; w < runtime.NumCPU(); w++ {
		fonts, err := newFaceFonts()
		if err != nil {
			return nil, err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				card, spec := cards[i], sampleCards[i]
				pal := makePalette(spec.paletteKey, seed)
				var face *image.RGBA
				switch artSeed := seed ^ int64(hashString(card.Name)); opts.Style {
				case StylePoster:
					face = renderPosterFace(card, pal, artSeed, fonts)
				case StyleFullArt:
					face = renderFullArtFace(card, pal, artSeed, fonts)
				default:
					face = renderFace(card, pal, artSeed, fonts)
				}
				stored := face
				if portrait[i] {
					stored = rotateCCW(face)
				}
				path := filepath.Join(dir, "images", card.Slug+".png")
				if opts.Style != StyleSample {
					// Smooth gradients, or art seen through a veil: no palette.
					errs[i] = writePNG(path, stored)
				} else {
					errs[i] = writePalettedPNG(path, stored, pngPalette(pal))
				}
				mu.Lock()
				done++
				if opts.Progress != nil {
					opts.Progress(done, len(cards))
				}
				mu.Unlock()
			}
		}()
	}
	for i := range cards {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("synth: catalog: %w", err)
	}
	cat, err := models.LoadCatalog(dir)
	if err != nil {
		return nil, fmt.Errorf("synth: catalog: %w", err)
	}
	return cat, nil
}

// apiCardJSON is the public API's older card shape, which models.ParseCards reads.
type apiCardJSON struct {
	Name     string `json:"name"`
	Slug     string `json:"slug"`
	Guardian struct {
		Type       string            `json:"type"`
		Rarity     string            `json:"rarity"`
		RulesText  string            `json:"rulesText"`
		Cost       *int              `json:"cost"`
		Attack     *int              `json:"attack"`
		Defence    *int              `json:"defence"`
		Life       *int              `json:"life"`
		Thresholds models.Thresholds `json:"thresholds"`
	} `json:"guardian"`
	Elements string       `json:"elements"`
	SubTypes string       `json:"subTypes"`
	Sets     []apiSetJSON `json:"sets"`
}

type apiSetJSON struct {
	Name     string `json:"name"`
	Variants []struct {
		Slug string `json:"slug"`
	} `json:"variants"`
}

func sampleCardsJSON() ([]byte, error) {
	out := make([]apiCardJSON, 0, len(sampleCards))
	for _, s := range sampleCards {
		var c apiCardJSON
		c.Name, c.Slug = s.name, slug(s.name)
		c.Guardian.Type = string(s.typ)
		c.Guardian.Rarity = string(s.rarity)
		c.Guardian.RulesText = s.rules
		if s.cost >= 0 && !s.isToken() {
			c.Guardian.Cost = models.IntPtr(s.cost)
		}
		if s.attack >= 0 && s.typ != models.Avatar || s.typ == models.Avatar {
			c.Guardian.Attack = models.IntPtr(max(s.attack, 0))
			c.Guardian.Defence = models.IntPtr(max(s.attack, 0))
		}
		if s.typ == models.Magic || s.typ == models.Aura || s.typ == models.Artifact || s.typ == models.Site {
			c.Guardian.Attack, c.Guardian.Defence = nil, nil
		}
		if s.life >= 0 {
			c.Guardian.Life = models.IntPtr(s.life)
		}
		c.Guardian.Thresholds = s.th
		c.Elements = elementsText(s.th)
		c.SubTypes = s.subTypes
		set := apiSetJSON{Name: "Tablecam Samples"}
		set.Variants = append(set.Variants, struct {
			Slug string `json:"slug"`
		}{Slug: "tcs-" + c.Slug + "-b-s"})
		c.Sets = []apiSetJSON{set}
		out = append(out, c)
	}
	return json.MarshalIndent(out, "", "  ")
}

// pngPalette is the colours a stored face is quantized to: the card's art
// ramp plus the frame's colours. Paletted PNGs keep the catalog small.
func pngPalette(pal palette) color.Palette {
	p := color.Palette{color.RGBA{}}
	for i := 0; i < 40; i++ {
		p = append(p, pal.at(float64(i)/39))
	}
	p = append(p, frameDark, tint(frameDark, pal[1], 0.15), parchment, parchmentDk, inkColour, discColour,
		color.RGBA{126, 112, 90, 255}, color.RGBA{170, 155, 125, 255}, color.RGBA{80, 66, 52, 255})
	for _, e := range models.Elements {
		p = append(p, elementInk[e])
	}
	return p
}

func writePalettedPNG(path string, img image.Image, pal color.Palette) error {
	pm := quantize(toRGBA(img), pal)
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := png.Encoder{CompressionLevel: png.DefaultCompression}
	if err := enc.Encode(f, pm); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}

func writePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}

// quantize maps each pixel to its nearest palette colour. The art is
// posterized, so a cache of colours already seen does most of the work.
func quantize(img *image.RGBA, pal color.Palette) *image.Paletted {
	pm := image.NewPaletted(image.Rect(0, 0, img.Rect.Dx(), img.Rect.Dy()), pal)
	cache := map[uint32]uint8{}
	for y := 0; y < pm.Rect.Dy(); y++ {
		for x := 0; x < pm.Rect.Dx(); x++ {
			i := img.PixOffset(img.Rect.Min.X+x, img.Rect.Min.Y+y)
			p := img.Pix[i : i+4 : i+4]
			key := uint32(p[0])<<24 | uint32(p[1])<<16 | uint32(p[2])<<8 | uint32(p[3])
			idx, ok := cache[key]
			if !ok {
				idx = uint8(pal.Index(color.RGBA{p[0], p[1], p[2], p[3]}))
				cache[key] = idx
			}
			pm.Pix[y*pm.Stride+x] = idx
		}
	}
	return pm
}

// rotateCCW turns an image 90° counter-clockwise.
func rotateCCW(src *image.RGBA) *image.RGBA {
	b := src.Bounds()
	dst := image.NewRGBA(image.Rect(0, 0, b.Dy(), b.Dx()))
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			// Source (x, y) goes to (y, W-1-x).
			i := src.PixOffset(b.Min.X+x, b.Min.Y+y)
			j := dst.PixOffset(y, b.Dx()-1-x)
			copy(dst.Pix[j:j+4], src.Pix[i:i+4])
		}
	}
	return dst
}

// rotateCW turns an image 90° clockwise.
func rotateCW(src *image.RGBA) *image.RGBA {
	b := src.Bounds()
	dst := image.NewRGBA(image.Rect(0, 0, b.Dy(), b.Dx()))
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			// Source (x, y) goes to (H-1-y, x).
			i := src.PixOffset(b.Min.X+x, b.Min.Y+y)
			j := dst.PixOffset(b.Dy()-1-y, x)
			copy(dst.Pix[j:j+4], src.Pix[i:i+4])
		}
	}
	return dst
}

// UprightFace turns a catalog reference image into the card's upright face
// as it lies in play for its owner. Site scans stored portrait (as real scans
// are) hold the landscape face turned 90° counter-clockwise; UprightFace turns
// them back clockwise. Other images are returned as RGBA unchanged.
func UprightFace(c *models.Card, img image.Image) *image.RGBA {
	rgba := toRGBA(img)
	b := rgba.Bounds()
	if c.Type == models.Site && !c.Token && b.Dy() > b.Dx() {
		return rotateCW(rgba)
	}
	return rgba
}

// LoadFace reads a card's reference image from the catalog and returns its
// upright face (see UprightFace).
func LoadFace(c *models.Card) (*image.RGBA, error) {
	if c.Image == "" {
		return nil, fmt.Errorf("synth: card %q has no reference image", c.Name)
	}
	f, err := os.Open(c.Image)
	if err != nil {
		return nil, fmt.Errorf("synth: %w", err)
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		return nil, fmt.Errorf("synth: %s: %w", c.Image, err)
	}
	return UprightFace(c, img), nil
}

func toRGBA(img image.Image) *image.RGBA {
	if r, ok := img.(*image.RGBA); ok && r.Rect.Min == (image.Point{}) {
		return r
	}
	b := img.Bounds()
	r := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(r, r.Rect, img, b.Min, draw.Src)
	return r
}
