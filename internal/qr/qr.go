// Package qr draws QR codes for Admin → Screens (an SVG path, drawn
// on the server: no script, no CDN) and for `hearth screen-url` (half-block
// characters in a terminal). The symbol itself (mode, version, error
// correction and the mask choice of ISO/IEC 18004) comes from
// github.com/skip2/go-qrcode; this package only draws its modules.
package qr

import (
	"fmt"
	"strings"

	qrcode "github.com/skip2/go-qrcode"
)

// Code is an encoded symbol with its quiet zone (4 light modules each side).
type Code struct {
	q       *qrcode.QRCode
	modules [][]bool // [y][x], true = dark
}

// Encode makes the symbol for text at error correction level M (15 %): a
// URL stays a small symbol that a phone reads from across a room.
func Encode(text string) (Code, error) {
	q, err := qrcode.New(text, qrcode.Medium)
	if err != nil {
		return Code{}, fmt.Errorf("qr: %w", err)
	}
	return Code{q: q, modules: q.Bitmap()}, nil
}

// Size is the width (and height) in modules, quiet zone included.
func (c Code) Size() int { return len(c.modules) }

// Path is SVG path data for the dark modules, one unit per module: one
// rectangle per horizontal run, for <svg viewBox="0 0 Size Size">.
func (c Code) Path() string {
	var b strings.Builder
	for y, row := range c.modules {
		for x := 0; x < len(row); {
			if !row[x] {
				x++
				continue
			}
			n := 1
			for x+n < len(row) && row[x+n] {
				n++
			}
			fmt.Fprintf(&b, "M%d %dh%dv1h-%dz", x, y, n, n)
			x += n
		}
	}
	return b.String()
}

// Terminal draws the symbol with half blocks, two module rows per line.
// The blocks are light modules: on a dark terminal the background shows
// through as the dark ones. lightBackground draws the dark modules instead.
func (c Code) Terminal(lightBackground bool) string {
	s := c.q.ToSmallString(lightBackground)
	if !strings.HasSuffix(s, "\n") { // an odd number of rows ends without one
		s += "\n"
	}
	return s
}
