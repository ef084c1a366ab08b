package web

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/household"
	"hearth/views"
)

// isDatastar reports whether the request came from a Datastar action (the
// answer is then an SSE patch, not a page).
func isDatastar(c echo.Context) bool { return c.Request().Header.Get("Datastar-Request") == "true" }

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

// failedForm turns a validation error into a form state that keeps the typed
// values; ok is false for any other error (handled by the error handler).
func failedForm(err error, values map[string]string) (views.FormState, bool) {
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Code != apperr.Invalid {
		return views.FormState{}, false
	}
	fs := views.FormState{Values: values, Errors: map[string]string{}}
	for k, v := range ae.Fields {
		fs.Errors[k] = v
	}
	if len(ae.Fields) == 0 {
		fs.Errors["_"] = ae.Message
	}
	// The service names fields as the API does; map them to the form's inputs.
	if v, ok := fs.Errors["weight_kg"]; ok {
		fs.Errors["weight"] = v
	}
	return fs, true
}

var savedText = map[string]string{"weight": "Weight saved.", "meal": "Meal saved.", "workout": "Workout saved."}

// sheetResult answers a logging sheet. Datastar: patch the form (errors
// inline, values kept) or reset it, close the sheet and flash; the open
// live streams update the widgets. Plain form: redirect, or re-render the
// page with the sheet open.
func (s *Server) sheetResult(c echo.Context, form string, values map[string]string, err error) error {
	fs := views.FormState{}
	if err != nil {
		var ok bool
		if fs, ok = failedForm(err, values); !ok {
			return err
		}
	}
	if !isDatastar(c) {
		if err == nil {
			return c.Redirect(http.StatusSeeOther, "/m/"+c.Param("member"))
		}
		return s.renderDashboard(c, http.StatusBadRequest, form, fs)
	}
	sh := views.Sheets{MemberID: c.Param("member"), CSRF: csrfToken(c)}
	if m, merr := s.deps.Household.Member(c.Request().Context(), sh.MemberID); merr == nil {
		sh.Unit = string(m.Unit.Normalize())
	}
	if err == nil {
		fs.OK = savedText[form]
	}
	sse := newSSE(c)
	switch form {
	case "weight":
		sh.Weight = fs
		_ = sse.PatchElementTempl(views.WeightForm(sh))
	case "meal":
		sh.Meal = fs
		_ = sse.PatchElementTempl(views.MealForm(sh))
	case "workout":
		sh.Workout = fs
		_ = sse.PatchElementTempl(views.WorkoutForm(sh))
	}
	if err == nil {
		_ = sse.MarshalAndPatchSignals(map[string]any{"_sheet": ""})
		_ = sse.PatchElementTempl(views.Flash(savedText[form], false))
	}
	return nil
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
		return s.sheetResult(c, "weight", vals, apperr.FieldErrors(errs))
	}
	_, err = s.deps.Household.LogWeight(c.Request().Context(), m.ID, household.WeightInput{Weight: w, Unit: m.Unit})
	return s.sheetResult(c, "weight", vals, err)
}

func (s *Server) formMeal(c echo.Context) error {
	errs := map[string]string{}
	vals := formValues(c, "name", "calories", "protein_g", "carbs_g", "fat_g")
	in := household.MealInput{Name: c.FormValue("name"), Calories: formFloat(c, "calories", true, errs),
		ProteinG: formFloat(c, "protein_g", false, errs), CarbsG: formFloat(c, "carbs_g", false, errs), FatG: formFloat(c, "fat_g", false, errs)}
	if strings.TrimSpace(in.Name) == "" {
		errs["name"] = "is required"
	}
	if len(errs) > 0 {
		return s.sheetResult(c, "meal", vals, apperr.FieldErrors(errs))
	}
	_, err := s.deps.Household.LogMeal(c.Request().Context(), c.Param("member"), in)
	return s.sheetResult(c, "meal", vals, err)
}

func (s *Server) formWorkout(c echo.Context) error {
	errs := map[string]string{}
	vals := formValues(c, "type", "title", "duration_min", "avg_hr")
	in := household.WorkoutInput{Type: c.FormValue("type"), Title: c.FormValue("title"),
		DurationMin: formFloat(c, "duration_min", true, errs), AvgHR: formIntPtr(c, "avg_hr", errs)}
	if len(errs) > 0 {
		return s.sheetResult(c, "workout", vals, apperr.FieldErrors(errs))
	}
	_, err := s.deps.Household.LogWorkout(c.Request().Context(), c.Param("member"), in)
	return s.sheetResult(c, "workout", vals, err)
}
