package adminview

// ModelLesson is one thing Hearth learned about an endpoint, and why.
type ModelLesson struct {
	When, What, Because string
}

// ModelEndpointView is one remembered endpoint in Admin → Model.
type ModelEndpointView struct {
	BaseURL, Model string
	Family         string // e.g. "ollama"
	Detected       string // how the family was found
	Settings       string // the settings in one line
	Updated        string
	Checked        string // last connection check ("" = never)
	Current        bool   // the configured endpoint
	Lessons        []ModelLesson
}

// ModelCheckStep is one step of a connection check.
type ModelCheckStep struct {
	Name, State, Detail, Took string
}

// ModelCheckView is the running or last connection check.
type ModelCheckView struct {
	Started  string
	Running  bool
	Usable   bool
	Steps    []ModelCheckStep
	Settings string // what Hearth chose, once done
}

// ModelStatus is the live part of Admin → Model.
type ModelStatus struct {
	Configured bool
	BaseURL    string
	Model      string
	Key        string // "set" or "not set", never the key
	Server     string // HEARTH_MODEL_SERVER, or "auto"
	Check      *ModelCheckView
	Endpoints  []ModelEndpointView
}

// AdminModel is Admin → Model.
type AdminModel struct {
	AdminPage
	Notice Notice
	Status ModelStatus
	Usage  *ModelUsage // nil: no agents
}

// ModelUsage is the cost in plain figures: tokens per member per day by
// part, the monthly projection and the latency per run.
type ModelUsage struct {
	Days    int
	Rows    []ModelUsageRow
	Price   string // the configured model's price, or that it has none
	Budget  string // the household's budget per run
	Monthly string
	Timed   int
	Median  string
	P95     string
}

// ModelUsageRow is one member's use of one part (an assignment or chat).
type ModelUsageRow struct {
	Member, Part        string
	Runs                int
	PerDayIn, PerDayOut string
	Monthly             string
}

// checkStateText says a check step's state in words.
func checkStateText(s string) string {
	switch s {
	case "ok":
		return "works"
	case "degraded":
		return "works, adapted"
	case "unknown":
		return "not offered"
	case "failed":
		return "failed"
	}
	return "checking…"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
