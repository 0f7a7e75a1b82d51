package models

import (
	"encoding/json"
	"strconv"
)

func unmarshalJSON(b []byte, v any) error { return json.Unmarshal(b, v) }

func appendPoint(dst []byte, p Point) []byte {
	dst = append(dst, '[')
	dst = strconv.AppendFloat(dst, round2(p.X), 'f', -1, 64)
	dst = append(dst, ',')
	dst = strconv.AppendFloat(dst, round2(p.Y), 'f', -1, 64)
	return append(dst, ']')
}

func round2(x float64) float64 {
	if x < 0 {
		return -float64(int64(-x*100+0.5)) / 100
	}
	return float64(int64(x*100+0.5)) / 100
}
