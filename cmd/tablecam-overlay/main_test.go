package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestBadFlags(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--volume", "2", "--camera", "0"}, "--volume"},
		{[]string{"--camera", "0", "--frames", "dir"}, "one of --camera"},
		{[]string{"--camera", "0", "extra"}, "unexpected argument"},
		{[]string{"--no-such-flag"}, "no-such-flag"},
	}
	for _, tc := range tests {
		var out, errs bytes.Buffer
		if code := run(context.Background(), tc.args, &out, &errs); code != 2 || !strings.Contains(errs.String(), tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 mentioning %q", tc.args, code, errs.String(), tc.want)
		}
	}
}

func TestMissingCatalog(t *testing.T) {
	var out, errs bytes.Buffer
	code := run(context.Background(), []string{"--frames", t.TempDir(), "--catalog", "/nonexistent/catalog"}, &out, &errs)
	if code != 1 || !strings.Contains(errs.String(), "/nonexistent/catalog") {
		t.Errorf("exit %d, stderr %q: want 1 naming the catalog", code, errs.String())
	}
}
