package adminview

import (
	"slices"
	"strings"

	"hearth/views"
)

// AdminPolicies is Admin → Policies: the Talos policy as a form, one
// section per role, and the decision log below it.
type AdminPolicies struct {
	AdminPage
	Notice Notice
	// Form holds the policy's fields, named like the policy's JSON paths
	// ("roles.child.entities", "roles.child.climate.min"), so the save's
	// field errors land on their fields; a role's tools are one value,
	// the checked tool names a line each.
	Form  views.FormState
	Roles []PolicyRole
	Tools []PolicyTool
	Log   PolicyLog
}

// PolicyRole is one role's section of the form.
type PolicyRole struct {
	ID, Label, Hint string
}

// PolicyTool is one tool Talos has, with a short label.
type PolicyTool struct {
	Name, Label string
}

// PolicyLog is the decision log with its filters (the query's values).
type PolicyLog struct {
	Member, Role, Outcome, Tool string
	Members                     []views.Option
	Roles, Outcomes, Tools      []views.Option
	Rows                        []DecisionRow
	// Filtered: a filter is set (the empty state says so).
	Filtered bool
}

// DecisionRow is one recorded decision; every text is rendered as text
// (targets and reasons come from the model and from Home Assistant).
type DecisionRow struct {
	ID                         string
	When, Who, Role, Tool      string
	Target, Action             string
	Outcome, OutcomeText, Rule string
	Reason, Result             string
	DecidedBy, DecidedAt       string
	// Expires is when a waiting decision is refused if nobody answers.
	Expires string
	Waiting bool
}

// AdminPolicyReset confirms a reset to the default policy.
type AdminPolicyReset struct {
	AdminPage
	Error string
}

// policyField is the form field name of one of a role's settings.
func policyField(role, key string) string { return "roles." + role + "." + key }

// toolChecked reports whether the form has tool checked for role.
func toolChecked(f views.FormState, role, tool string) bool {
	return slices.Contains(strings.Split(f.Value(policyField(role, "tools")), "\n"), tool)
}
