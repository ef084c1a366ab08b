package admin

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/health"
	"hearth/internal/talos"
	"hearth/views"
	"hearth/views/adminview"
	"hearth/web/httpkit"
)

// policyPages are Admin → Policies: the kiosk assistant's (Talos's)
// policy per role as a form, and the log of what it decided.
type policyPages struct {
	*core
	policies Policies
}

const policiesPath = "/admin/policies"

// policyTools label every tool Talos has, in talos.ToolNames' order.
var policyTools = map[string]string{
	talos.ToolListEntities: "List the house's devices",
	talos.ToolGetState:     "Read a device's state",
	talos.ToolCallService:  "Act on a device (lights, locks, thermostat, …)",
	talos.ToolListClients:  "List the Plex players",
	talos.ToolFindMedia:    "Find media in Plex",
	talos.ToolPlay:         "Play media on a Plex player",
}

var roleHints = map[health.Role]string{
	health.RoleAdult: "Members whose role is Adult. Adults also confirm the actions that wait for a tap.",
	health.RoleChild: "Members whose role is Child.",
	health.RoleGuest: "Members whose role is Guest, and anyone at a screen who has not chosen a member.",
}

func roleLabel(r health.Role) string {
	switch r {
	case health.RoleAdult:
		return "Adult"
	case health.RoleChild:
		return "Child"
	case health.RoleGuest:
		return "Guest"
	}
	return string(r)
}

var decisionOutcomeText = map[talos.Outcome]string{talos.Allowed: "Allowed", talos.Denied: "Denied", talos.Waiting: "Waiting for an adult",
	talos.Confirmed: "Confirmed", talos.Refused: "Refused", talos.TimedOut: "Timed out"}

var decisionOutcomes = []talos.Outcome{talos.Allowed, talos.Denied, talos.Waiting, talos.Confirmed, talos.Refused, talos.TimedOut}

// policyKeys are a role's form fields besides its tools, named like the
// policy's JSON paths under roles.<role>. (Policy.Validate's field keys).
var policyKeys = []string{"entities", "confirm", "climate.min", "climate.max", "quiet_hours.from", "quiet_hours.to", "per_hour"}

func field(r health.Role, key string) string { return "roles." + string(r) + "." + key }

// policyForm is p as the form's values.
func policyForm(p talos.Policy) map[string]string {
	v := map[string]string{}
	for _, r := range health.Roles {
		rp := p.Role(r)
		v[field(r, "tools")] = strings.Join(rp.Tools, "\n")
		v[field(r, "entities")] = strings.Join(rp.Entities, "\n")
		v[field(r, "confirm")] = strings.Join(rp.Confirm, "\n")
		if c := rp.Climate; c != nil {
			v[field(r, "climate.min")] = strconv.FormatFloat(c.Min, 'f', -1, 64)
			v[field(r, "climate.max")] = strconv.FormatFloat(c.Max, 'f', -1, 64)
		}
		if w := rp.QuietHours; w != nil {
			v[field(r, "quiet_hours.from")], v[field(r, "quiet_hours.to")] = w.From, w.To
		}
		v[field(r, "per_hour")] = strconv.Itoa(rp.PerHour)
	}
	return v
}

// patternLines splits a textarea into patterns: one a line (commas, as
// in the examples, also separate them).
func patternLines(s string) []string {
	out := []string{}
	for _, p := range strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' || r == ',' }) {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// policyFromForm reads the posted policy and the values typed (kept on a
// refused save); errs gets what cannot even be read (a number that is
// not one, half a range).
func policyFromForm(c echo.Context, errs map[string]string) (talos.Policy, map[string]string, error) {
	form, err := c.FormParams()
	if err != nil {
		return talos.Policy{}, nil, apperr.Invalidf("the form could not be read")
	}
	typed := map[string]string{}
	p := talos.Policy{Roles: map[health.Role]talos.RolePolicy{}}
	for _, r := range health.Roles {
		for _, k := range policyKeys {
			typed[field(r, k)] = form.Get(field(r, k))
		}
		tools := form[field(r, "tools")]
		typed[field(r, "tools")] = strings.Join(tools, "\n")
		rp := talos.RolePolicy{Tools: slices.Clone(tools), Entities: patternLines(typed[field(r, "entities")]),
			Confirm: patternLines(typed[field(r, "confirm")])}
		if rp.Tools == nil {
			rp.Tools = []string{}
		}
		lo, hi := strings.TrimSpace(typed[field(r, "climate.min")]), strings.TrimSpace(typed[field(r, "climate.max")])
		switch {
		case lo == "" && hi == "":
		case lo == "" || hi == "":
			errs[field(r, "climate")] = "give both temperatures, or neither for no range"
		default:
			mn, err1 := strconv.ParseFloat(strings.ReplaceAll(lo, ",", "."), 64)
			mx, err2 := strconv.ParseFloat(strings.ReplaceAll(hi, ",", "."), 64)
			if err1 != nil {
				errs[field(r, "climate.min")] = "must be a number"
			}
			if err2 != nil {
				errs[field(r, "climate.max")] = "must be a number"
			}
			if err1 == nil && err2 == nil {
				rp.Climate = &talos.Range{Min: mn, Max: mx}
			}
		}
		from, to := strings.TrimSpace(typed[field(r, "quiet_hours.from")]), strings.TrimSpace(typed[field(r, "quiet_hours.to")])
		switch {
		case from == "" && to == "":
		case from == "" || to == "":
			errs[field(r, "quiet_hours")] = "give both times, or neither for no quiet hours"
		default:
			rp.QuietHours = &talos.Window{From: from, To: to}
		}
		// Required: a post without it is not this form (and a blank cap
		// must not silently become "no cap").
		n, err := strconv.Atoi(strings.TrimSpace(typed[field(r, "per_hour")]))
		if err != nil {
			errs[field(r, "per_hour")] = "must be a whole number (0: no cap)"
		}
		rp.PerHour = n
		p.Roles[r] = rp
	}
	return p, typed, nil
}

func (s *policyPages) render(c echo.Context, status int, form views.FormState, notice adminview.Notice) error {
	ctx := c.Request().Context()
	log, err := s.decisionLog(ctx, c)
	if err != nil {
		return err
	}
	p := adminview.AdminPolicies{AdminPage: s.adminPage(c, "Policies", "policies"), Notice: notice, Form: form, Log: log}
	for _, r := range health.Roles {
		p.Roles = append(p.Roles, adminview.PolicyRole{ID: string(r), Label: roleLabel(r), Hint: roleHints[r]})
	}
	for _, t := range talos.ToolNames {
		p.Tools = append(p.Tools, adminview.PolicyTool{Name: t, Label: policyTools[t]})
	}
	return httpkit.Render(c, status, adminview.AdminPoliciesPage(p))
}

// decisionLog lists the decisions the query's filters select, newest
// first.
func (s *policyPages) decisionLog(ctx context.Context, c echo.Context) (adminview.PolicyLog, error) {
	l := adminview.PolicyLog{Member: c.QueryParam("member"), Role: c.QueryParam("role"), Outcome: c.QueryParam("outcome"),
		Tool: c.QueryParam("tool")}
	l.Filtered = l.Member != "" || l.Role != "" || l.Outcome != "" || l.Tool != ""
	names := map[string]string{}
	if s.members != nil {
		ms, err := s.members.Members(ctx)
		if err != nil {
			return l, err
		}
		for _, m := range ms {
			names[m.ID] = m.Name
			l.Members = append(l.Members, views.Option{Value: m.ID, Label: m.Name})
		}
	}
	for _, r := range health.Roles {
		l.Roles = append(l.Roles, views.Option{Value: string(r), Label: roleLabel(r)})
	}
	for _, o := range decisionOutcomes {
		l.Outcomes = append(l.Outcomes, views.Option{Value: string(o), Label: decisionOutcomeText[o]})
	}
	for _, t := range talos.ToolNames {
		l.Tools = append(l.Tools, views.Option{Value: t, Label: t})
	}
	rs, err := s.policies.Decisions(ctx, talos.Filter{Member: l.Member, Role: health.Role(l.Role), Outcome: talos.Outcome(l.Outcome),
		Tool: l.Tool, Limit: 200})
	if err != nil {
		return l, err
	}
	who := func(id string) string {
		if n := names[id]; n != "" {
			return n
		}
		return id
	}
	for _, r := range rs {
		row := adminview.DecisionRow{ID: strconv.FormatInt(r.ID, 10), When: s.fmtWhen(r.At), Who: "Guest", Role: roleLabel(r.Role),
			Tool: r.Tool, Target: r.Target, Action: r.Action, Outcome: string(r.Outcome), OutcomeText: decisionOutcomeText[r.Outcome],
			Rule: r.Rule, Reason: r.Reason, Result: r.Result, DecidedBy: who(r.DecidedBy), DecidedAt: s.fmtWhenPtr(r.DecidedAt),
			Expires: s.fmtWhenPtr(r.ExpiresAt), Waiting: r.Outcome == talos.Waiting}
		if r.Member != "" {
			row.Who = who(r.Member)
		}
		if row.OutcomeText == "" {
			row.OutcomeText = string(r.Outcome)
		}
		l.Rows = append(l.Rows, row)
	}
	return l, nil
}

// adminPolicies shows the policy in force and the decision log.
func (s *policyPages) adminPolicies(c echo.Context) error {
	p, err := s.policies.Policy(c.Request().Context())
	if err != nil {
		return err
	}
	notice := adminview.Notice{}
	switch c.QueryParam("saved") {
	case "1":
		notice.Text = "Saved. The assistant follows it from its next request."
	case "reset":
		notice.Text = "The policy is back to the default."
	}
	return s.render(c, http.StatusOK, views.FormState{Values: policyForm(p)}, notice)
}

// adminPolicySave validates and saves the posted policy; a refused one
// comes back with its errors next to their fields and what was typed.
func (s *policyPages) adminPolicySave(c echo.Context) error {
	errs := map[string]string{}
	p, typed, err := policyFromForm(c, errs)
	if err != nil {
		return err
	}
	// Every problem at once: what the form could not read, and what the
	// policy's own validation finds in the rest.
	if ae := apperr.As(p.Validate(talos.ToolNames)); ae != nil {
		for k, v := range ae.Fields {
			if errs[k] == "" {
				errs[k] = v
			}
		}
	}
	if len(errs) > 0 {
		err = apperr.FieldErrors(errs)
	} else {
		err = s.policies.SavePolicy(c.Request().Context(), p, talos.ToolNames, decidedBy)
	}
	if err == nil {
		s.log.Info("talos policy saved")
		return c.Redirect(http.StatusSeeOther, policiesPath+"?saved=1")
	}
	fs, err := formFailure(err, typed)
	if err != nil {
		return err
	}
	if len(fs.Errors) > 0 {
		fs.Errors["_"] = fmt.Sprintf("Nothing was saved: %s. Fix the fields marked below.", problems(len(fs.Errors)))
	}
	return s.render(c, http.StatusBadRequest, fs, adminview.Notice{})
}

func problems(n int) string {
	if n == 1 {
		return "one problem"
	}
	return strconv.Itoa(n) + " problems"
}

// adminPolicyResetPage asks before the policy goes back to the default.
func (s *policyPages) adminPolicyResetPage(c echo.Context) error {
	return httpkit.Render(c, http.StatusOK, adminview.AdminPolicyResetPage(adminview.AdminPolicyReset{
		AdminPage: s.adminPage(c, "Reset the policy", "policies")}))
}

// adminPolicyReset saves talos.DefaultPolicy, once the confirmation page
// was answered (confirm=reset).
func (s *policyPages) adminPolicyReset(c echo.Context) error {
	if c.FormValue("confirm") != "reset" {
		return httpkit.Render(c, http.StatusBadRequest, adminview.AdminPolicyResetPage(adminview.AdminPolicyReset{
			AdminPage: s.adminPage(c, "Reset the policy", "policies"), Error: "Nothing was reset: confirm below."}))
	}
	if err := s.policies.SavePolicy(c.Request().Context(), talos.DefaultPolicy(), talos.ToolNames, decidedBy); err != nil {
		return err
	}
	s.log.Info("talos policy reset to the default")
	return c.Redirect(http.StatusSeeOther, policiesPath+"?saved=reset")
}
