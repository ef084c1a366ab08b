package health

import "strconv"

// trimFloat prints v without trailing zeros ("81.4", "80").
func trimFloat(v float64) string {
	return strconv.FormatFloat(v, 'f', -1, 64)
}
