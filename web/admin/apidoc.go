package admin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"hearth/views/adminview"
	"hearth/web/httpkit"
)

// oasDoc is the part of the document the admin page renders.
type oasDoc struct {
	Info struct {
		Title, Version, Description string
	}
	Paths      map[string]map[string]oasOp
	Components struct {
		Schemas   map[string]json.RawMessage
		Responses map[string]struct {
			Description string
			Content     map[string]struct{ Schema json.RawMessage }
		}
	}
}

type oasOp struct {
	Summary, Description string
	Tags                 []string
	Parameters           []struct {
		Name, In, Description string
		Required              bool
		Schema                json.RawMessage
	}
	RequestBody *struct {
		Description string
		Content     map[string]struct{ Schema json.RawMessage }
	}
	Responses map[string]struct {
		Ref         string `json:"$ref"`
		Description string
		Content     map[string]struct{ Schema json.RawMessage }
	}
	Security []map[string][]string
}

// apiDocPage is Admin → API: the OpenAPI description (Options.APISpec),
// parsed once per server on first view.
type apiDocPage struct {
	*core
	spec []byte
	once sync.Once
	view adminview.APIDoc
	err  error
}

// apiDocView turns the description into the admin page's view model, once.
func (s *apiDocPage) apiDocView() (adminview.APIDoc, error) {
	s.once.Do(func() { s.view, s.err = parseAPIDoc(s.spec) })
	return s.view, s.err
}

// parseAPIDoc turns the description into the admin page's view model.
func parseAPIDoc(spec []byte) (adminview.APIDoc, error) {
	var d oasDoc
	if err := json.Unmarshal(spec, &d); err != nil {
		return adminview.APIDoc{}, err
	}
	v := adminview.APIDoc{Title: d.Info.Title, Version: d.Info.Version, Description: d.Info.Description}
	paths := make([]string, 0, len(d.Paths))
	for p := range d.Paths {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		for _, m := range []string{"get", "post", "put", "patch", "delete"} {
			o, ok := d.Paths[p][m]
			if !ok {
				continue
			}
			op := adminview.APIOp{Method: strings.ToUpper(m), Path: p, Summary: o.Summary, Description: o.Description,
				Auth: "none (household network)", Anchor: strings.NewReplacer("/", "-", "{", "", "}", "").Replace(m + p)}
			if len(o.Security) > 0 {
				op.Auth = "admin: session cookie, bearer token, or a loopback client when neither is configured"
			}
			for _, pr := range o.Parameters {
				op.Params = append(op.Params, adminview.APIParam{Name: pr.Name, In: pr.In, Required: pr.Required,
					Description: pr.Description, Schema: compact(pr.Schema)})
			}
			if o.RequestBody != nil {
				op.Body = pretty(o.RequestBody.Content["application/json"].Schema)
			}
			codes := make([]string, 0, len(o.Responses))
			for c := range o.Responses {
				codes = append(codes, c)
			}
			slices.Sort(codes)
			for _, c := range codes {
				r := o.Responses[c]
				desc, schema := r.Description, pretty(r.Content["application/json"].Schema)
				if r.Ref != "" {
					name := strings.TrimPrefix(r.Ref, "#/components/responses/")
					cr := d.Components.Responses[name]
					desc, schema = cr.Description, pretty(cr.Content["application/json"].Schema)
				}
				op.Responses = append(op.Responses, adminview.APIResponse{Code: c, Description: desc, Schema: schema})
			}
			v.Ops = append(v.Ops, op)
		}
	}
	names := make([]string, 0, len(d.Components.Schemas))
	for n := range d.Components.Schemas {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		v.Schemas = append(v.Schemas, adminview.APISchema{Name: n, JSON: pretty(d.Components.Schemas[n])})
	}
	return v, nil
}

func pretty(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return string(raw)
	}
	return b.String()
}

func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}

// adminAPIDoc renders the description readably (server-side, no CDN).
func (s *apiDocPage) adminAPIDoc(c echo.Context) error {
	v, err := s.apiDocView()
	if err != nil {
		return fmt.Errorf("admin: openapi.json: %w", err)
	}
	return httpkit.Render(c, http.StatusOK, adminview.AdminAPIPage(adminview.AdminAPI{AdminPage: s.adminPage(c, "API", "api"), Doc: v}))
}
