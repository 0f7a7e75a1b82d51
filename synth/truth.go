package synth

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/tablecam/tablecam/models"
)

// SceneTruth is the ground truth of a still scene, as stored in NNNN.json.
type SceneTruth struct {
	// Image is the file name of the frame, beside the truth file.
	Image  string `json:"image,omitempty"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
	Seed   int64  `json:"seed"`
	// Corners are the realm's outer corners in image pixels: A1 (SW), E1 (SE), E4 (NE), A4 (NW).
	Corners models.Quad `json:"corners"`
	// Occluded is true when a hand or arm covers part of the realm.
	Occluded bool                 `json:"occluded"`
	Geometry models.RealmGeometry `json:"geometry"`
	// RealmToImage maps realm millimetres (origin at the A1 corner, y north) to
	// image pixels, row-major 3×3.
	RealmToImage Homography `json:"realm_to_image"`
	// Camera pose in degrees, for the record.
	TiltDeg float64 `json:"tilt_deg"`
	RollDeg float64 `json:"roll_deg"`
	// Cards in stacking order, bottom first.
	Cards []CardTruth `json:"cards"`
}

// CardTruth is one card in a scene.
type CardTruth struct {
	// Cell is where the card's centre lies, nil when it is off the grid.
	Cell  *models.Cell    `json:"cell"`
	Name  string          `json:"name"`
	Slug  string          `json:"slug"`
	Type  models.CardType `json:"type"`
	Token bool            `json:"token"`
	Owner models.Player   `json:"owner"`
	// Rotation is the clockwise turn of the upright face from upright for the
	// south player: 0 south untapped, 90 south tapped, 180 north untapped, 270 north tapped.
	Rotation int  `json:"rotation"`
	Tapped   bool `json:"tapped"`
	// Quad is the face's corners in image pixels: its top-left, then clockwise.
	Quad models.Quad `json:"quad"`
	// VisibleFraction is the share of the face that the camera sees: not
	// covered by cards above it or by hands, and inside the frame.
	VisibleFraction float64 `json:"visible_fraction"`
	// ImageTurn is how far (clockwise, degrees) the catalog's reference
	// image must turn to show the upright face: 90 for sites stored portrait
	// as real scans are, else 0. The turn from the reference image to the
	// card in the frame is ImageTurn + Rotation.
	ImageTurn int `json:"image_turn"`
	// CenterMM is the card's centre in realm millimetres and AngleDeg its exact
	// clockwise turn (rotation plus placement jitter).
	CenterMM models.Point `json:"center_mm"`
	AngleDeg float64      `json:"angle_deg"`
}

// LoadSceneTruth reads a scene's truth file.
func LoadSceneTruth(path string) (*SceneTruth, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("scene truth: %w", err)
	}
	var t SceneTruth
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, fmt.Errorf("scene truth %s: %w", path, err)
	}
	if t.Width <= 0 || t.Height <= 0 {
		return nil, fmt.Errorf("scene truth %s: missing image size", path)
	}
	for i, c := range t.Cards {
		if c.Owner != models.South && c.Owner != models.North {
			return nil, fmt.Errorf("scene truth %s: card %d (%s): owner must be south or north", path, i, c.Name)
		}
		if c.Rotation%90 != 0 || c.Rotation < 0 || c.Rotation >= 360 {
			return nil, fmt.Errorf("scene truth %s: card %d (%s): rotation %d is not 0, 90, 180 or 270", path, i, c.Name, c.Rotation)
		}
	}
	return &t, nil
}

// Save writes the truth as indented JSON.
func (t *SceneTruth) Save(path string) error {
	data, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		return fmt.Errorf("scene truth: %w", err)
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("scene truth: %w", err)
	}
	return nil
}
