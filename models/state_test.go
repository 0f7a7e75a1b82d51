package models

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestPlayerStatesJSONOrder(t *testing.T) {
	tests := []struct {
		name string
		ps   PlayerStates
		want string
	}{
		{"south first", PlayerStates{"north": {Life: 3}, "south": {Life: 20}}, `{"south":{"life":20`},
		{"only north", PlayerStates{"north": {Life: 3}}, `{"north":{"life":3`},
		{"empty", PlayerStates{}, `{}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(GameState{Players: tt.ps})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), `"players":`+tt.want) {
				t.Errorf("got %s, want players to start %s", b, tt.want)
			}
			var back GameState
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			if len(back.Players) != len(tt.ps) {
				t.Errorf("round trip lost players: %v", back.Players)
			}
		})
	}
}
