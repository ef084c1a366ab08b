package qr

// Dark reports whether the module at (x, y) is dark (tests check the finder
// pattern and the quiet zone with it).
func (c Code) Dark(x, y int) bool {
	return y >= 0 && y < len(c.modules) && x >= 0 && x < len(c.modules[y]) && c.modules[y][x]
}
