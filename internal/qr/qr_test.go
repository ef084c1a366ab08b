package qr_test

import (
	"strings"
	"testing"

	"hearth/internal/qr"
	"hearth/internal/qr/qrtest"
)

// The SVG path and both terminal drawings read back (ZXing's reader) as the
// URL encoded.
func TestPathAndTerminalDecode(t *testing.T) {
	for _, url := range []string{"http://192.168.1.20:8080/", "http://hearth.lan/", "http://[fd00::1]:8080/",
		"http://very-long-household-host-name.example.internal:18080/"} {
		c, err := qr.Encode(url)
		if err != nil {
			t.Fatal(err)
		}
		if c.Size() < 21+8 || !c.Dark(4, 4) || c.Dark(0, 0) { // version 1 or larger, finder pattern, quiet zone
			t.Fatalf("%s: size %d, finder %v, quiet zone %v", url, c.Size(), c.Dark(4, 4), !c.Dark(0, 0))
		}
		if got, err := qrtest.DecodePath(c.Size(), c.Path()); err != nil || got != url {
			t.Fatalf("SVG path decodes to %q (%v), want %q", got, err, url)
		}
		for _, light := range []bool{false, true} {
			out := c.Terminal(light)
			if !strings.HasSuffix(out, "\n") {
				t.Fatal("the terminal drawing does not end its last line")
			}
			if w := len([]rune(strings.SplitN(out, "\n", 2)[0])); w != c.Size() {
				t.Fatalf("terminal is %d wide, want %d", w, c.Size())
			}
			if got, err := qrtest.DecodeTerminal(out, light); err != nil || got != url {
				t.Fatalf("terminal (light=%v) decodes to %q (%v), want %q", light, got, err, url)
			}
		}
	}
}

func TestEncodeTooLong(t *testing.T) {
	if _, err := qr.Encode(strings.Repeat("x", 5000)); err == nil {
		t.Fatal("5000 bytes encoded")
	}
}
