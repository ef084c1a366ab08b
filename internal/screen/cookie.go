package screen

import "net/http"

// Cookie names one screen (a browser) so an unlock holds on that screen
// only. Its value is a random id, not a secret that grants anything by
// itself: the unlock lives in the server's memory (Unlocks).
const Cookie = "hearth_screen"

// IDLen is the length of a screen id (16 random bytes, base64url).
const IDLen = 22

// IDOf is r's screen id, "" before the screen's first page.
func IDOf(r *http.Request) string {
	if ck, err := r.Cookie(Cookie); err == nil && len(ck.Value) == IDLen {
		return ck.Value
	}
	return ""
}
