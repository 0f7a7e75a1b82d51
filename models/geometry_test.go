package models

import (
	"strings"
	"testing"
)

func TestParseCellMM(t *testing.T) {
	tests := []struct {
		in      string
		want    RealmGeometry
		wantErr string
	}{
		{in: "100x75", want: RealmGeometry{CellWidthMM: 100, CellHeightMM: 75}},
		{in: " 120X90 ", want: RealmGeometry{CellWidthMM: 120, CellHeightMM: 90}},
		{in: "97.5×73", want: RealmGeometry{CellWidthMM: 97.5, CellHeightMM: 73}},
		{in: "100", wantErr: "want WIDTHxHEIGHT"},
		{in: "100x", wantErr: "height"},
		{in: "ax75", wantErr: "width"},
		{in: "10x7.5", wantErr: "outside"},
		{in: "1000x750", wantErr: "outside"},
		{in: "100x-75", wantErr: "outside"},
		{in: "NaNx75", wantErr: "outside"},
	}
	for _, tt := range tests {
		got, err := ParseCellMM(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), tt.in) {
				t.Errorf("ParseCellMM(%q) = %v, %v; want an error naming the input and %q", tt.in, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseCellMM(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
		if back, err := ParseCellMM(got.String()); err != nil || back != got {
			t.Errorf("ParseCellMM(%q.String() = %q) = %v, %v", tt.in, got.String(), back, err)
		}
	}
}
