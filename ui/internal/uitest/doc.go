// Package uitest builds known game states and a synthetic camera image for the
// overlay's tests, examples and screenshots.
package uitest
