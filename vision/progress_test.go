package vision

import (
	"bytes"
	"strings"
	"testing"
)

// TestIndexProgressNotTerminal checks that indexing progress written to a
// pipe or a log is a few lines, not hundreds of redraws.
func TestIndexProgressNotTerminal(t *testing.T) {
	var buf bytes.Buffer
	p := newIndexProgress(&buf, 1104)
	for i := 0; i < 1104; i++ {
		p.Add(1)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 4 || lines[3] != "indexing card faces: 1104/1104" || strings.Contains(buf.String(), "\r") {
		t.Errorf("progress on a non-terminal:\n%s", buf.String())
	}
}
