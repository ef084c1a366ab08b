package admin

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/health"
	"hearth/internal/household"
	"hearth/internal/messages"
	"hearth/views"
	"hearth/views/adminview"
	"hearth/web/httpkit"
)

// householdPages are Admin → Household: members, goals, programs, a
// member's messages, export and erasure.
type householdPages struct {
	*core
	household  HouseholdAdmin
	memberData MemberData        // nil: no export or erasure
	programs   ProgramControls   // nil: no program controls
	messages   Messages          // nil: no messages on the member page
	settings   HouseholdSettings // nil: no time zone and night cards
	lifePlan   bool              // link each member's life plan page
	copilot    bool              // the copilot panel beside the new-member and profile forms
}

var memberFormFields = []string{"id", "name", "avatar", "color", "unit", "goal_weight", "calories", "protein_g", "carbs_g",
	"fat_g", "height_cm", "birth_date", "sex", "activity_level", "private_figures", "role"}

func fmtOpt(f *float64) string {
	if f == nil {
		return ""
	}
	return strconv.FormatFloat(*f, 'f', -1, 64)
}

func memberForm(m health.Member) map[string]string {
	v := map[string]string{"id": m.ID, "name": m.Name, "avatar": m.Avatar, "color": m.Color, "unit": string(m.Unit),
		"calories": fmtOpt(m.Targets.Calories), "protein_g": fmtOpt(m.Targets.ProteinG), "carbs_g": fmtOpt(m.Targets.CarbsG),
		"fat_g": fmtOpt(m.Targets.FatG), "height_cm": fmtOpt(m.HeightCm), "sex": m.Sex, "activity_level": m.ActivityLevel,
		"role": string(m.Role.OrAdult())}
	if m.GoalWeightKg != nil {
		v["goal_weight"] = strconv.FormatFloat(views.Round1(m.Unit.FromKg(*m.GoalWeightKg)), 'f', -1, 64)
	}
	if m.BirthDate != nil {
		v["birth_date"] = m.BirthDate.Format(time.DateOnly)
	}
	if m.PrivateFigures {
		v["private_figures"] = "1"
	}
	return v
}

// optFloat parses an optional numeric form field.
func optFloat(c echo.Context, name string, errs map[string]string) *float64 {
	v := strings.TrimSpace(c.FormValue(name))
	if v == "" {
		return nil
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(v, ",", "."), 64)
	if err != nil {
		errs[name] = "must be a number"
		return nil
	}
	return &f
}

func memberInput(c echo.Context, errs map[string]string) household.MemberInput {
	return household.MemberInput{ID: c.FormValue("id"), Name: c.FormValue("name"), Color: c.FormValue("color"),
		Avatar: c.FormValue("avatar"), Unit: health.Unit(c.FormValue("unit")),
		Calories: optFloat(c, "calories", errs), ProteinG: optFloat(c, "protein_g", errs), CarbsG: optFloat(c, "carbs_g", errs),
		FatG: optFloat(c, "fat_g", errs), GoalWeight: optFloat(c, "goal_weight", errs), HeightCm: optFloat(c, "height_cm", errs),
		BirthDate: c.FormValue("birth_date"), Sex: c.FormValue("sex"), ActivityLevel: c.FormValue("activity_level"),
		PrivateFigures: c.FormValue("private_figures") == "1", Role: health.Role(c.FormValue("role"))}
}

// formFailure turns an Invalid error into a FormState keeping the typed values;
// other errors are returned for the error handler.
func formFailure(err error, values map[string]string) (views.FormState, error) {
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Code != apperr.Invalid {
		return views.FormState{}, err
	}
	fs := views.FormState{Values: values, Errors: map[string]string{}}
	for k, v := range ae.Fields {
		fs.Errors[k] = v
	}
	if len(ae.Fields) == 0 {
		fs.Errors["_"] = ae.Message
	}
	return fs, nil
}

func (s *householdPages) householdPage(c echo.Context, newForm views.FormState) (adminview.AdminHousehold, error) {
	ms, err := s.household.Members(c.Request().Context())
	if err != nil {
		return adminview.AdminHousehold{}, err
	}
	p := adminview.AdminHousehold{AdminPage: s.adminPage(c, "Household", "household"), New: newForm, LifePlan: s.lifePlan,
		Copilot: s.copilot}
	for _, m := range ms {
		row := adminview.AdminMemberRow{ID: m.ID, Name: m.Name, Color: m.Color, Avatar: m.Avatar, Unit: string(m.Unit)}
		if r := m.Role.OrAdult(); r != health.RoleAdult { // adults are the usual case: only the others get a badge
			row.Role = roleLabel(r)
		}
		if t := m.Targets; t.Calories != nil {
			row.Targets = fmt.Sprintf("%s kcal · P %s g · C %s g · F %s g", fmtOpt(t.Calories), fmtOpt(t.ProteinG), fmtOpt(t.CarbsG), fmtOpt(t.FatG))
		}
		if m.GoalWeightKg != nil {
			row.Goal = m.Unit.Format(*m.GoalWeightKg)
		}
		p.Members = append(p.Members, row)
	}
	return p, nil
}

func (s *householdPages) adminHousehold(c echo.Context) error {
	var zone, night *views.FormState
	if s.settings != nil {
		switch c.QueryParam("saved") {
		case "time-zone", "night":
			hs, err := s.settingsCards(c, nil, nil)
			if err != nil {
				return err
			}
			if c.QueryParam("saved") == "night" {
				night = &hs.Night
			} else {
				zone = &hs.Zone
			}
		}
	}
	if zone != nil {
		zone.OK = "Saved."
	}
	if night != nil {
		night.OK = "Saved. Open screens reload to follow it."
	}
	return s.renderHousehold(c, http.StatusOK, zone, night)
}

func (s *householdPages) adminMemberCreate(c echo.Context) error {
	errs := map[string]string{}
	in := memberInput(c, errs)
	var err error
	if len(errs) > 0 {
		err = apperr.FieldErrors(errs)
	} else {
		_, err = s.household.CreateMember(c.Request().Context(), in)
	}
	if err == nil {
		httpkit.Owner(c, in.ID)
		return c.Redirect(http.StatusSeeOther, "/admin/household/"+in.ID)
	}
	fs, err := formFailure(err, httpkit.FormValues(c, memberFormFields...))
	if apperr.Is(err, apperr.Conflict) {
		fs, err = views.FormState{Values: httpkit.FormValues(c, memberFormFields...), Errors: map[string]string{"id": "is already taken"}}, nil
	}
	if err != nil {
		return err
	}
	p, err := s.householdPage(c, fs)
	if err != nil {
		return err
	}
	if p.Settings, err = s.settingsCards(c, nil, nil); err != nil {
		return err
	}
	return httpkit.Render(c, http.StatusBadRequest, adminview.AdminHouseholdPage(p))
}

func (s *householdPages) memberAdminPage(c echo.Context, form, goal *views.FormState) (adminview.AdminMember, error) {
	ctx := c.Request().Context()
	m, err := s.household.Member(ctx, c.Param("member"))
	if err != nil {
		return adminview.AdminMember{}, err
	}
	goals, err := s.household.Goals(ctx, m.ID, false)
	if err != nil {
		return adminview.AdminMember{}, err
	}
	p := adminview.AdminMember{AdminPage: s.adminPage(c, m.Name, "household"), ID: m.ID,
		Form: views.FormState{Values: memberForm(m)}, Goal: views.FormState{Values: map[string]string{"kind": "weight"}},
		HasPIN: m.HasPIN, LifePlan: s.lifePlan, Copilot: s.copilot}
	if form != nil {
		p.Form = *form
	}
	if goal != nil {
		p.Goal = *goal
	}
	for _, g := range goals {
		row := adminview.AdminGoalRow{ID: g.ID, Kind: g.Kind, Description: g.Description, Status: g.Status}
		if g.Target != nil {
			row.Target = fmtOpt(g.Target) + " " + g.Unit
		}
		p.Goals = append(p.Goals, row)
	}
	if s.programs != nil {
		if p.Program, err = s.programs.Card(ctx, m.ID, "/admin/household/"+m.ID+"/program", false); err != nil {
			return p, err
		}
	}
	if p.Program != nil {
		p.Program.CSRF = p.CSRF
	}
	p.Messages, err = messageRows(ctx, s.messages, s.opt.Location, messages.Filter{Member: m.ID, Limit: 20})
	return p, err
}

func (s *householdPages) adminMember(c echo.Context) error {
	var ok *views.FormState
	if c.QueryParam("saved") == "1" {
		m, err := s.household.Member(c.Request().Context(), c.Param("member"))
		if err != nil {
			return err
		}
		ok = &views.FormState{Values: memberForm(m), OK: "Saved."}
	}
	p, err := s.memberAdminPage(c, ok, nil)
	if err != nil {
		return err
	}
	if c.QueryParam("pin") == "1" {
		p.PIN.OK = "PIN saved."
	}
	return httpkit.Render(c, http.StatusOK, adminview.AdminMemberPage(p))
}

func (s *householdPages) adminMemberUpdate(c echo.Context) error {
	errs := map[string]string{}
	in := memberInput(c, errs)
	in.ID = c.Param("member")
	var err error
	if len(errs) > 0 {
		err = apperr.FieldErrors(errs)
	} else {
		_, err = s.household.UpdateMember(c.Request().Context(), in)
	}
	if err == nil {
		return c.Redirect(http.StatusSeeOther, "/admin/household/"+in.ID+"?saved=1")
	}
	fs, err := formFailure(err, httpkit.FormValues(c, memberFormFields...))
	if err != nil {
		return err
	}
	p, err := s.memberAdminPage(c, &fs, nil)
	if err != nil {
		return err
	}
	return httpkit.Render(c, http.StatusBadRequest, adminview.AdminMemberPage(p))
}

func (s *householdPages) adminGoalCreate(c echo.Context) error {
	errs := map[string]string{}
	in := household.GoalInput{Kind: c.FormValue("kind"), Description: c.FormValue("description"), Unit: c.FormValue("unit"),
		Target: optFloat(c, "target", errs), TargetDate: c.FormValue("target_date")}
	var err error
	if len(errs) > 0 {
		err = apperr.FieldErrors(errs)
	} else {
		_, err = s.household.AddGoal(c.Request().Context(), c.Param("member"), in)
	}
	if err == nil {
		return c.Redirect(http.StatusSeeOther, "/admin/household/"+c.Param("member"))
	}
	fs, err := formFailure(err, httpkit.FormValues(c, "kind", "description", "target", "unit", "target_date"))
	if err != nil {
		return err
	}
	p, err := s.memberAdminPage(c, nil, &fs)
	if err != nil {
		return err
	}
	return httpkit.Render(c, http.StatusBadRequest, adminview.AdminMemberPage(p))
}

func (s *householdPages) adminGoalStatus(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("goal"), 10, 64)
	if err != nil {
		return apperr.NotFoundf("no goal %q", c.Param("goal"))
	}
	if err := s.household.SetGoalStatus(c.Request().Context(), c.Param("member"), id, c.FormValue("status")); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/admin/household/"+c.Param("member"))
}

// adminMemberPIN sets or removes a member's PIN for shared screens (4 to
// 8 digits, typed twice; only a hash is kept).
func (s *householdPages) adminMemberPIN(c echo.Context) error {
	id := c.Param("member")
	pin, again := c.FormValue("pin"), c.FormValue("pin_again")
	var err error
	switch {
	case c.FormValue("remove") == "1":
		pin = ""
	case pin != again:
		err = apperr.FieldErrors(map[string]string{"pin_again": "The two PINs differ."})
	case pin == "":
		err = apperr.FieldErrors(map[string]string{"pin": "Type a PIN of 4 to 8 digits."})
	}
	if err == nil {
		if err = s.household.SetPIN(c.Request().Context(), id, pin); err == nil {
			s.log.Info("member PIN", "member", id, "set", pin != "")
			return c.Redirect(http.StatusSeeOther, "/admin/household/"+id+"?pin=1")
		}
	}
	fs, ferr := formFailure(err, map[string]string{}) // a PIN is never typed back into the page
	if ferr != nil {
		return ferr
	}
	p, perr := s.memberAdminPage(c, nil, nil)
	if perr != nil {
		return perr
	}
	p.PIN = fs
	return httpkit.Render(c, http.StatusBadRequest, adminview.AdminMemberPage(p))
}
