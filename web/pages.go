package web

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/household"
	"hearth/views"
)

func (s *Server) pageHousehold(c echo.Context) error {
	ctx := c.Request().Context()
	ms, err := s.deps.Household.Members(ctx)
	if err != nil {
		return err
	}
	p := views.HouseholdPage{Page: s.page(c, "Household")}
	for _, m := range ms {
		t := views.MemberTile{ID: m.ID, Name: m.Name, Color: m.Color, Avatar: m.Avatar, Private: m.PrivateFigures}
		if ws, err := s.deps.Household.Weights(ctx, m.ID, 1); err == nil && len(ws) > 0 {
			t.Glance, t.GlanceLabel = m.Unit.Format(ws[0].WeightKg), "weight"
		}
		p.Members = append(p.Members, t)
	}
	return render(c, http.StatusOK, views.Household(p))
}

func (s *Server) memberPage(c echo.Context, forms map[string]views.FormState) (views.MemberPage, error) {
	ctx := c.Request().Context()
	m, err := s.deps.Household.Member(ctx, c.Param("member"))
	if err != nil {
		return views.MemberPage{}, err
	}
	loc := s.opt.Location
	p := views.MemberPage{Page: s.page(c, m.Name), MemberID: m.ID, Name: m.Name, Color: m.Color, Avatar: m.Avatar,
		Unit: string(m.Unit), Forms: forms}
	ws, err := s.deps.Household.Weights(ctx, m.ID, 60)
	if err != nil {
		return p, err
	}
	if len(ws) > 0 {
		p.Weight = append(p.Weight, views.Row{Label: "Current", Value: m.Unit.Format(ws[0].WeightKg)},
			views.Row{Label: "Measured", Value: ws[0].MeasuredAt.In(loc).Format("Mon 2 Jan 15:04")})
		for _, w := range ws {
			if ws[0].MeasuredAt.Sub(w.MeasuredAt) >= 7*24*time.Hour {
				d := m.Unit.FromKg(ws[0].WeightKg - w.WeightKg)
				p.Weight = append(p.Weight, views.Row{Label: "Change vs a week ago", Value: fmt.Sprintf("%+.1f %s", d, m.Unit)})
				break
			}
		}
		if m.GoalWeightKg != nil {
			p.Weight = append(p.Weight, views.Row{Label: "Goal", Value: m.Unit.Format(*m.GoalWeightKg)})
		}
	}
	meals, err := s.deps.Household.Meals(ctx, m.ID, 50)
	if err != nil {
		return p, err
	}
	today := time.Now().In(loc)
	var kcal, prot float64
	n := 0
	for _, x := range meals {
		if sameDay(x.EatenAt.In(loc), today) {
			kcal, prot, n = kcal+x.Calories, prot+x.ProteinG, n+1
		}
	}
	if n > 0 {
		p.Nutrition = append(p.Nutrition, views.Row{Label: "Calories", Value: withTarget(kcal, m.Targets.Calories, "kcal")},
			views.Row{Label: "Protein", Value: withTarget(prot, m.Targets.ProteinG, "g")},
			views.Row{Label: "Meals", Value: strconv.Itoa(n)})
	}
	wos, err := s.deps.Household.Workouts(ctx, m.ID, 5)
	if err != nil {
		return p, err
	}
	for _, w := range wos {
		v := fmt.Sprintf("%s · %.0f min", w.Title, w.DurationMin)
		if w.AvgHR != nil {
			v += fmt.Sprintf(" · %d bpm", *w.AvgHR)
		}
		p.Workouts = append(p.Workouts, views.Row{Label: w.StartedAt.In(loc).Format("Mon 2 Jan"), Value: v})
	}
	scans, err := s.deps.Household.BodyScans(ctx, m.ID, 1)
	if err != nil {
		return p, err
	}
	if len(scans) > 0 {
		sc := scans[0]
		p.Scan = append(p.Scan, views.Row{Label: "Body fat", Value: fmt.Sprintf("%.1f %%", sc.BodyFatPct)},
			views.Row{Label: "Lean mass", Value: m.Unit.Format(sc.LeanMassKg)},
			views.Row{Label: "Scanned", Value: sc.ScannedAt.In(loc).Format("2 Jan 2006")})
	}
	return p, nil
}

func sameDay(a, b time.Time) bool {
	ay, am, ad := a.Date()
	by, bm, bd := b.Date()
	return ay == by && am == bm && ad == bd
}

func withTarget(v float64, target *float64, unit string) string {
	if target == nil {
		return fmt.Sprintf("%.0f %s", v, unit)
	}
	return fmt.Sprintf("%.0f / %.0f %s", v, *target, unit)
}

func (s *Server) pageMember(c echo.Context) error {
	p, err := s.memberPage(c, map[string]views.FormState{})
	if err != nil {
		return err
	}
	if ok := c.QueryParam("saved"); ok != "" {
		p.Forms[ok] = views.FormState{OK: "Saved."}
	}
	return render(c, http.StatusOK, views.Member(p))
}

// formValues keeps what the user typed for re-display.
func formValues(c echo.Context, names ...string) map[string]string {
	out := map[string]string{}
	for _, n := range names {
		out[n] = c.FormValue(n)
	}
	return out
}

func formFloat(c echo.Context, name string, required bool, errs map[string]string) float64 {
	v := strings.TrimSpace(c.FormValue(name))
	if v == "" {
		if required {
			errs[name] = "is required"
		}
		return 0
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(v, ",", "."), 64)
	if err != nil {
		errs[name] = "must be a number"
	}
	return f
}

func formIntPtr(c echo.Context, name string, errs map[string]string) *int {
	v := strings.TrimSpace(c.FormValue(name))
	if v == "" {
		return nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		errs[name] = "must be a whole number"
		return nil
	}
	return &n
}

// formResult redirects after a successful post (so reload does not resubmit)
// and re-renders the page with the typed values and messages otherwise.
func (s *Server) formResult(c echo.Context, form string, values map[string]string, err error) error {
	if err == nil {
		return c.Redirect(http.StatusSeeOther, "/m/"+c.Param("member")+"?saved="+form)
	}
	code := apperr.CodeOf(err)
	if code != apperr.Invalid {
		return err
	}
	fs := views.FormState{Values: values, Errors: map[string]string{}}
	var ae *apperr.Error
	if e, ok := err.(*apperr.Error); ok {
		ae = e
	}
	if ae != nil {
		for k, v := range ae.Fields {
			fs.Errors[k] = v
		}
		if len(ae.Fields) == 0 {
			fs.Errors["_"] = ae.Message
		}
	}
	// Field names in the service are API names; map them to this form's inputs.
	if v, ok := fs.Errors["weight_kg"]; ok {
		fs.Errors["weight"] = v
	}
	p, perr := s.memberPage(c, map[string]views.FormState{form: fs})
	if perr != nil {
		return perr
	}
	return render(c, http.StatusBadRequest, views.Member(p))
}

func (s *Server) formWeight(c echo.Context) error {
	errs := map[string]string{}
	vals := formValues(c, "weight")
	m, err := s.deps.Household.Member(c.Request().Context(), c.Param("member"))
	if err != nil {
		return err
	}
	w := formFloat(c, "weight", true, errs)
	if len(errs) > 0 {
		return s.formResult(c, "weight", vals, apperr.FieldErrors(errs))
	}
	_, err = s.deps.Household.LogWeight(c.Request().Context(), m.ID, household.WeightInput{Weight: w, Unit: m.Unit})
	return s.formResult(c, "weight", vals, err)
}

func (s *Server) formMeal(c echo.Context) error {
	errs := map[string]string{}
	vals := formValues(c, "name", "calories", "protein_g", "carbs_g", "fat_g")
	in := household.MealInput{Name: c.FormValue("name"), Calories: formFloat(c, "calories", true, errs),
		ProteinG: formFloat(c, "protein_g", false, errs), CarbsG: formFloat(c, "carbs_g", false, errs), FatG: formFloat(c, "fat_g", false, errs)}
	if len(errs) > 0 {
		return s.formResult(c, "meal", vals, apperr.FieldErrors(errs))
	}
	_, err := s.deps.Household.LogMeal(c.Request().Context(), c.Param("member"), in)
	return s.formResult(c, "meal", vals, err)
}

func (s *Server) formWorkout(c echo.Context) error {
	errs := map[string]string{}
	vals := formValues(c, "type", "title", "duration_min", "avg_hr")
	in := household.WorkoutInput{Type: c.FormValue("type"), Title: c.FormValue("title"),
		DurationMin: formFloat(c, "duration_min", true, errs), AvgHR: formIntPtr(c, "avg_hr", errs)}
	if len(errs) > 0 {
		return s.formResult(c, "workout", vals, apperr.FieldErrors(errs))
	}
	_, err := s.deps.Household.LogWorkout(c.Request().Context(), c.Param("member"), in)
	return s.formResult(c, "workout", vals, err)
}
