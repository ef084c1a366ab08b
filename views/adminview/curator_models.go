package adminview

// AdminCurator is Admin → Curator: the changes agents propose to outside
// systems (the media curator's Plex collections and labels), shown before
// anything reaches them.
type AdminCurator struct {
	AdminPage
	Notice Notice
	Lists  CuratorLists
}

// CuratorLists are the page's live part: what waits for a decision, then
// what was decided recently.
type CuratorLists struct {
	CSRF    string
	Waiting []CuratorRun
	Decided []CuratorRun
}

// CuratorRun is one agent run's proposals.
type CuratorRun struct {
	RunID, Agent, When string
	Items              []CuratorItem
}

// CuratorItem is one proposed change. Summary, Lines and Result come from
// the agent and the outside system: they are rendered as text only.
type CuratorItem struct {
	ID      string
	Summary string
	Lines   []string
	// Status is pending, applying, applied, failed or discarded.
	Status string
	// Result is the applier's result, or why it failed.
	Result string
	// Decided is when it was applied or decided ("" while pending).
	Decided string
}

// curatorStatusText says a proposal's status in words.
func curatorStatusText(s string) string {
	switch s {
	case "pending":
		return "waiting"
	case "applying":
		return "being applied (or interrupted: confirm again to finish)"
	case "applied":
		return "applied"
	case "failed":
		return "failed"
	case "discarded":
		return "discarded"
	}
	return s
}
