// Package qrtest reads QR codes back for tests, with the Go port of ZXing's
// reader (github.com/makiuchi-d/gozxing): from an image (a browser
// screenshot), from package qr's SVG path data and from its terminal
// drawing, so a test checks what a phone would read, not how it was drawn.
package qrtest

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"strings"

	"github.com/makiuchi-d/gozxing"
	zxqr "github.com/makiuchi-d/gozxing/qrcode"
)

// DecodeImage finds and reads one QR code in img.
func DecodeImage(img image.Image) (string, error) {
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		return "", err
	}
	res, err := zxqr.NewQRCodeReader().Decode(bmp, map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_TRY_HARDER: true})
	if err != nil {
		return "", fmt.Errorf("qrtest: no readable QR code: %w", err)
	}
	return res.GetText(), nil
}

// DecodePath reads the symbol drawn by SVG path data of package qr's form
// ("M<x> <y>h<n>v1h-<n>z" per run of dark modules) in a size×size box.
func DecodePath(size int, path string) (string, error) {
	dark := grid(size)
	for _, run := range strings.Split(strings.TrimSuffix(path, "z"), "z") {
		var x, y, n, m int
		if _, err := fmt.Sscanf(run, "M%d %dh%dv1h-%d", &x, &y, &n, &m); err != nil || n != m || n < 1 || x < 0 || y < 0 || x+n > size || y >= size {
			return "", fmt.Errorf("qrtest: bad run %q in path: %v", run, err)
		}
		for i := range n {
			dark[y][x+i] = true
		}
	}
	return DecodeImage(raster(dark))
}

// DecodeTerminal reads a symbol drawn with half blocks (two module rows a
// line); drawn cells are light modules unless lightBackground.
func DecodeTerminal(text string, lightBackground bool) (string, error) {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	width := len([]rune(lines[0]))
	dark := grid(max(width, 2*len(lines)))
	for y, line := range lines {
		r := []rune(line)
		if len(r) != width {
			return "", fmt.Errorf("qrtest: line %d has %d cells, want %d", y, len(r), width)
		}
		for x, c := range r {
			var top, bottom bool // drawn halves
			switch c {
			case '█':
				top, bottom = true, true
			case '▀':
				top = true
			case '▄':
				bottom = true
			case ' ':
			default:
				return "", errors.New("qrtest: unexpected character " + string(c))
			}
			dark[2*y][x] = top == lightBackground
			dark[2*y+1][x] = bottom == lightBackground
		}
	}
	return DecodeImage(raster(dark))
}

func grid(n int) [][]bool {
	g := make([][]bool, n)
	for i := range g {
		g[i] = make([]bool, n)
	}
	return g
}

// raster draws modules at 4 pixels each inside a 4-module light margin.
func raster(dark [][]bool) *image.Gray {
	const scale, margin = 4, 4
	n := len(dark)
	side := (n + 2*margin) * scale
	img := image.NewGray(image.Rect(0, 0, side, side))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	for y, row := range dark {
		for x, d := range row {
			if !d {
				continue
			}
			for dy := range scale {
				for dx := range scale {
					img.SetGray((x+margin)*scale+dx, (y+margin)*scale+dy, color.Gray{})
				}
			}
		}
	}
	return img
}
