package views

import (
	"strings"
	"testing"
)

// The stream's version sits inside a Datastar expression: only letters
// and digits go in, anything else is dropped (the stream then sends every
// widget, as without a version).
func TestStreamExprVersion(t *testing.T) {
	if got := streamExpr("/live/m/ada", "", "3k9x0a"); !strings.HasPrefix(got, "@get('/live/m/ada?v=3k9x0a', {") {
		t.Fatalf("with a version: %s", got)
	}
	for _, v := range []string{"", "a'b", "A1", "1 2", "abc)", strings.Repeat("a", 17), "a?v=b"} {
		if got := streamExpr("/live/m/ada", "", v); !strings.HasPrefix(got, "@get('/live/m/ada', {") {
			t.Errorf("version %q: %s", v, got)
		}
	}
	if got := streamExpr("/admin/live/todos", "todos-live", "abc"); !strings.HasPrefix(got, "@get('/admin/live/todos?v=abc', {contentType: 'form', selector: '#todos-live', ") {
		t.Errorf("with a form: %s", got)
	}
}
