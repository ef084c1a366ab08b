package adminview

// APIDoc is the OpenAPI description as Admin → API shows it.
type APIDoc struct {
	Title, Version, Description string
	Ops                         []APIOp
	Schemas                     []APISchema
}

// APIOp is one route.
type APIOp struct {
	Method, Path, Summary, Description, Auth, Anchor string
	Params                                           []APIParam
	Body                                             string // request body schema, indented JSON
	Responses                                        []APIResponse
}

// APIParam is a path or query parameter.
type APIParam struct {
	Name, In, Description, Schema string
	Required                      bool
}

// APIResponse is one status code's answer.
type APIResponse struct {
	Code, Description, Schema string
}

// APISchema is a named schema of the description.
type APISchema struct {
	Name, JSON string
}

// AdminAPI is Admin → API.
type AdminAPI struct {
	AdminPage
	Doc APIDoc
}
