package web

import (
	_ "embed"
	"net/http"

	"github.com/labstack/echo/v4"
)

// openAPIDoc is the OpenAPI 3.1 description of every /api route, kept in
// the repository beside the handlers. TestOpenAPIDescribesEveryRoute fails
// when a route under /api is missing from it, and TestAPIResponsesMatch…
// validates real responses against it (kin-openapi).
//
//go:embed openapi.json
var openAPIDoc []byte

// OpenAPI returns the embedded description.
func OpenAPI() []byte { return openAPIDoc }

func (s *Server) apiOpenAPI(c echo.Context) error {
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSONCharsetUTF8, openAPIDoc)
}
