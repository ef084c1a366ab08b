package api

import (
	"bytes"
	_ "embed"
	"net/http"

	"github.com/labstack/echo/v4"
)

// spec is the OpenAPI 3.1 description of every /api route, kept in the
// repository beside the handlers. TestOpenAPIDescribesEveryRoute fails
// when a route under /api is missing from it, and TestAPIResponsesMatch…
// validates real responses against it (kin-openapi).
//
//go:embed openapi.json
var spec []byte

// Spec returns the OpenAPI description (a copy): the assembly hands it to
// the admin's API page.
func Spec() []byte { return bytes.Clone(spec) }

// serveSpec answers GET /api/openapi.json.
func serveSpec(c echo.Context) error {
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSONCharsetUTF8, spec)
}
