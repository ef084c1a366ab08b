package httpkit

import "github.com/labstack/echo/v4"

// ownerKey is where a handler leaves whose data its request touched.
const ownerKey = "hearth.owner"

// Owner marks the request as acting on member's data (a thread, run, task
// or entry of theirs). A reply recorded for replay (a request id's answer,
// which can hold a chat answer or a whole prompt) is attributed to them
// and deleted when they are erased. Handlers whose route has no :member
// call it once they have resolved the resource; "" says the request acted
// on several members or on none.
func Owner(c echo.Context, member string) { c.Set(ownerKey, member) }

// OwnerOf is the member marked with Owner, else the route's :member, else
// "".
func OwnerOf(c echo.Context) string {
	if m, ok := c.Get(ownerKey).(string); ok {
		return m
	}
	return c.Param("member")
}
