package models

import (
	"errors"
	"os"
	"reflect"
	"testing"
)

func TestSplitList(t *testing.T) {
	tests := []struct {
		json string
		want []string // nil with ok false
		ok   bool
	}{
		{`[]`, []string{}, true},
		{" [ ] \n", []string{}, true},
		{`[{"a":1}]`, []string{`{"a":1}`}, true},
		{"[\n {\"a\": [1, {\"b\": 2}]},\n {\"c\": \"]},{\\\"\"} \n]", []string{`{"a": [1, {"b": 2}]}`, `{"c": "]},{\""}`}, true},
		{`[1, "two", null]`, []string{`1`, `"two"`, `null`}, true},
		{`{"cards": []}`, nil, false},     // wrapped: the careful parse reads it
		{`[{"a":1} {"b":2}]`, nil, false}, // missing comma
		{`[{"a":1},]`, nil, false},        // trailing comma
		{`[{"a":1}] x`, nil, false},       // trailing text
		{`[{"a":1}`, nil, false},          // cut short
		{`[{"a":"1}]`, nil, false},        // unclosed string
		{``, nil, false},
	}
	for _, tt := range tests {
		spans, ok := splitList([]byte(tt.json))
		if ok != tt.ok {
			t.Errorf("splitList(%q) ok = %v, want %v", tt.json, ok, tt.ok)
			continue
		}
		if !ok {
			continue
		}
		got := []string{}
		for _, s := range spans {
			got = append(got, tt.json[s.start:s.end])
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("splitList(%q) = %q, want %q", tt.json, got, tt.want)
		}
	}
}

// TestFastAndCarefulParsesAgree checks that the parallel parse and the
// card-by-card parse read the public card list the same way.
func TestFastAndCarefulParsesAgree(t *testing.T) {
	data, err := os.ReadFile(realCatalogPath)
	if err != nil {
		t.Skip(err)
	}
	fast, err := ParseCards(data)
	if err != nil {
		t.Fatal(err)
	}
	careful, err := parseCardsCarefully(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(fast) != 1104 || !reflect.DeepEqual(fast, careful) {
		t.Errorf("fast parse: %d cards, careful parse: %d; equal %v", len(fast), len(careful), reflect.DeepEqual(fast, careful))
	}
	for _, c := range fast {
		for i := 1; i < len(c.Elements); i++ {
			if c.Elements[i-1] >= c.Elements[i] {
				t.Errorf("%s: elements %v not in air, earth, fire, water order", c.Name, c.ElementNames())
			}
		}
	}
}

// TestWrappedListErrorsNameTheCard checks the careful parse on a list
// wrapped in an object, which the fast parse leaves to it.
func TestWrappedListErrorsNameTheCard(t *testing.T) {
	data := "{\"count\": 2, \"cards\": [\n {\"name\": \"A\", \"engine\": {\"type\": \"Site\"}},\n {\"name\": \"B\", \"engine\": {\"type\": \"Site\", \"life\": []}}\n]}"
	_, err := ParseCards([]byte(data))
	var ce *CatalogError
	if !errors.As(err, &ce) || ce.Card != 2 || ce.Name != "B" || ce.Line != 3 || ce.Column != 43 {
		t.Fatalf("got %+v (%v)", ce, err)
	}
	cards, err := ParseCards([]byte("{\"data\": [{\"name\": \"A\", \"engine\": {\"type\": \"Site\", \"fire\": 1}}]}"))
	if err != nil || len(cards) != 1 || cards[0].Thresholds.Fire != 1 {
		t.Fatalf("%v %v", cards, err)
	}
}

// FuzzParseCards checks that any input gives cards or a *CatalogError with a
// place inside the input, and never a panic.
func FuzzParseCards(f *testing.F) {
	f.Add([]byte(olderShapeCards))
	f.Add([]byte(newerShapeCards))
	f.Add([]byte(`[{"name":"X","guardian":{"cost":"1"}}]`))
	f.Add([]byte(`[{"name":"X","engine":{"threshold":"AQ"}},]`))
	f.Add([]byte(`{"cards":[{"name":`))
	f.Fuzz(func(t *testing.T, data []byte) {
		cards, err := ParseCards(data)
		if err == nil {
			for _, c := range cards {
				if c == nil || c.Name == "" {
					t.Fatalf("card without a name: %+v", c)
				}
			}
			return
		}
		var ce *CatalogError
		if !errors.As(err, &ce) {
			t.Fatalf("%T %v", err, err)
		}
		if ce.Offset < 0 || ce.Offset > int64(len(data)) || ce.Line < 1 || ce.Column < 1 {
			t.Fatalf("place %d (%d:%d) outside %d bytes: %v", ce.Offset, ce.Line, ce.Column, len(data), err)
		}
	})
}
