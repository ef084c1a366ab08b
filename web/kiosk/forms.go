package kiosk

import (
	"context"
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
	"hearth/views"
	"hearth/views/kioskview"
	"hearth/web/httpkit"
)

// entryForms are the logging sheets and the corrections of entries.
type entryForms struct {
	board     *dashboardModels // a plain form's failure re-renders the dashboard
	household Household
	loc       *time.Location
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

// localInput is the format of a datetime-local field.
const localInput = "2006-01-02T15:04"

// formWhen reads the "when" field (a datetime-local in the household's time
// zone); empty is now (the zero time).
func (f *entryForms) formWhen(c echo.Context, errs map[string]string) time.Time {
	v := strings.TrimSpace(c.FormValue("when"))
	if v == "" {
		return time.Time{}
	}
	t, err := time.ParseInLocation(localInput, v, f.loc)
	if err != nil {
		if t, err = time.ParseInLocation("2006-01-02T15:04:05", v, f.loc); err != nil {
			errs["when"] = "must be a date and time"
			return time.Time{}
		}
	}
	return t
}

func confirmed(c echo.Context) bool { return c.FormValue("confirm") == "1" }

// formFields are the service's field names as the forms call them.
var formFields = map[string]string{"weight_kg": "weight", "lean_mass_kg": "lean_mass", "measured_at": "when",
	"eaten_at": "when", "started_at": "when", "scanned_at": "when"}

// failedForm turns a validation error (or an implausible figure awaiting
// confirmation) into a form state that keeps the typed values; ok is false
// for any other error (handled by the error handler).
func failedForm(err error, values map[string]string) (views.FormState, bool) {
	var ae *apperr.Error
	if !errors.As(err, &ae) || (ae.Code != apperr.Invalid && ae.Code != apperr.Implausible) {
		return views.FormState{}, false
	}
	fs := views.FormState{Values: values, Errors: map[string]string{}}
	for k, v := range ae.Fields {
		if f, ok := formFields[k]; ok {
			k = f
		}
		fs.Errors[k] = v
	}
	if ae.Code == apperr.Implausible {
		fs.Confirm = ae.Message
	} else if len(ae.Fields) == 0 {
		fs.Errors["_"] = ae.Message
	}
	return fs, true
}

var savedText = map[string]string{"weight": "Weight saved.", "meal": "Meal saved.", "workout": "Workout saved.",
	"scan": "Body scan saved.", "entry": "Changes saved."}

// sheets is the sheet model of the member's dashboard for this client.
func (f *entryForms) sheets(c echo.Context, member string) kioskview.Sheets {
	sh := kioskview.Sheets{MemberID: member, CSRF: httpkit.CSRFToken(c), Now: time.Now().In(f.loc).Format(localInput)}
	if m, err := f.household.Member(c.Request().Context(), member); err == nil {
		sh.Unit = string(m.Unit.Normalize())
	}
	return sh
}

// sheetResult answers a logging sheet. Datastar: patch the form (errors
// inline, values kept) or reset it, close the sheet and flash; the open
// live streams update the widgets. Plain form: redirect, or re-render the
// page with the sheet open.
func (f *entryForms) sheetResult(c echo.Context, form string, values map[string]string, err error) error {
	fs := views.FormState{}
	if err != nil {
		var ok bool
		if fs, ok = failedForm(err, values); !ok {
			return err
		}
	}
	put := func(sh *kioskview.Sheets) {
		switch form {
		case "weight":
			sh.Weight = fs
		case "meal":
			sh.Meal = fs
		case "workout":
			sh.Workout = fs
		case "scan":
			sh.Scan = fs
		}
	}
	if !httpkit.IsDatastar(c) {
		if err == nil {
			return c.Redirect(http.StatusSeeOther, "/m/"+c.Param("member"))
		}
		return f.board.renderDashboard(c, http.StatusBadRequest, form, put)
	}
	sh := f.sheets(c, c.Param("member"))
	if err == nil {
		fs.OK = savedText[form]
	}
	put(&sh)
	sse := httpkit.NewSSE(c)
	switch form {
	case "weight":
		_ = sse.PatchElementTempl(kioskview.WeightForm(sh))
	case "meal":
		_ = sse.PatchElementTempl(kioskview.MealForm(sh))
	case "workout":
		_ = sse.PatchElementTempl(kioskview.WorkoutForm(sh))
	case "scan":
		_ = sse.PatchElementTempl(kioskview.ScanForm(sh))
	}
	if err == nil {
		_ = sse.MarshalAndPatchSignals(map[string]any{"_sheet": ""})
		_ = sse.PatchElementTempl(views.Flash(savedText[form], false))
	}
	return nil
}

func (f *entryForms) formWeight(c echo.Context) error {
	errs := map[string]string{}
	vals := httpkit.FormValues(c, "weight")
	m, err := f.household.Member(c.Request().Context(), c.Param("member"))
	if err != nil {
		return err
	}
	w := formFloat(c, "weight", true, errs)
	if len(errs) > 0 {
		return f.sheetResult(c, "weight", vals, apperr.FieldErrors(errs))
	}
	_, err = f.household.LogWeight(c.Request().Context(), m.ID, household.WeightInput{Weight: w, Unit: m.Unit.Normalize(),
		Confirm: confirmed(c)})
	return f.sheetResult(c, "weight", vals, err)
}

func (f *entryForms) mealInput(c echo.Context, errs map[string]string) household.MealInput {
	in := household.MealInput{EatenAt: f.formWhen(c, errs), Name: c.FormValue("name"), Calories: formFloat(c, "calories", true, errs),
		ProteinG: formFloat(c, "protein_g", false, errs), CarbsG: formFloat(c, "carbs_g", false, errs), FatG: formFloat(c, "fat_g", false, errs),
		Confirm: confirmed(c)}
	if strings.TrimSpace(in.Name) == "" {
		errs["name"] = "is required"
	}
	return in
}

func (f *entryForms) formMeal(c echo.Context) error {
	errs := map[string]string{}
	vals := httpkit.FormValues(c, "name", "calories", "protein_g", "carbs_g", "fat_g", "when")
	in := f.mealInput(c, errs)
	if len(errs) > 0 {
		return f.sheetResult(c, "meal", vals, apperr.FieldErrors(errs))
	}
	_, err := f.household.LogMeal(c.Request().Context(), c.Param("member"), in)
	return f.sheetResult(c, "meal", vals, err)
}

func (f *entryForms) workoutInput(c echo.Context, errs map[string]string) household.WorkoutInput {
	return household.WorkoutInput{StartedAt: f.formWhen(c, errs), Type: c.FormValue("type"), Title: c.FormValue("title"),
		DurationMin: formFloat(c, "duration_min", true, errs), AvgHR: formIntPtr(c, "avg_hr", errs)}
}

func (f *entryForms) formWorkout(c echo.Context) error {
	errs := map[string]string{}
	vals := httpkit.FormValues(c, "type", "title", "duration_min", "avg_hr", "when")
	in := f.workoutInput(c, errs)
	if len(errs) > 0 {
		return f.sheetResult(c, "workout", vals, apperr.FieldErrors(errs))
	}
	_, err := f.household.LogWorkout(c.Request().Context(), c.Param("member"), in)
	return f.sheetResult(c, "workout", vals, err)
}

func (f *entryForms) scanInput(c echo.Context, unit health.Unit, errs map[string]string) household.ScanInput {
	return household.ScanInput{ScannedAt: f.formWhen(c, errs), BodyFatPct: formFloat(c, "body_fat_pct", true, errs),
		LeanMassKg: unit.ToKg(formFloat(c, "lean_mass", true, errs))}
}

func (f *entryForms) formScan(c echo.Context) error {
	errs := map[string]string{}
	vals := httpkit.FormValues(c, "body_fat_pct", "lean_mass", "when")
	m, err := f.household.Member(c.Request().Context(), c.Param("member"))
	if err != nil {
		return err
	}
	in := f.scanInput(c, m.Unit.Normalize(), errs)
	if len(errs) > 0 {
		return f.sheetResult(c, "scan", vals, apperr.FieldErrors(errs))
	}
	_, err = f.household.LogBodyScan(c.Request().Context(), m.ID, in)
	return f.sheetResult(c, "scan", vals, err)
}

// Correcting an entry from the kiosk: tapping its row loads the "entry"
// sheet (GET), which saves (POST …/:id) or deletes it (POST …/:id/delete;
// a toast offers Undo for 10 s, POST /m/:member/undo/:trash).

var entryTitles = map[household.EntryKind]string{household.EntryWeight: "Edit weigh-in", household.EntryMeal: "Edit meal",
	household.EntryWorkout: "Edit workout", household.EntryScan: "Edit body scan"}

var entryNames = map[household.EntryKind]string{household.EntryWeight: "Weigh-in", household.EntryMeal: "Meal",
	household.EntryWorkout: "Workout", household.EntryScan: "Body scan"}

// entryParams reads the kind and id of an entry route (unknown: NotFound).
func entryParams(c echo.Context) (household.EntryKind, int64, error) {
	kind := household.EntryKind(c.Param("kind"))
	if _, ok := entryTitles[kind]; !ok {
		return "", 0, apperr.NotFoundf("no kind of entry %q", c.Param("kind"))
	}
	id, err := httpkit.PositiveID(c, "entry")
	return kind, id, err
}

// entryRequest reads an entry route: the member, the kind and the id.
func (f *entryForms) entryRequest(c echo.Context) (health.Member, household.EntryKind, int64, error) {
	kind, id, err := entryParams(c)
	if err != nil {
		return health.Member{}, "", 0, err
	}
	m, err := f.household.Member(c.Request().Context(), c.Param("member"))
	return m, kind, id, err
}

// entryForm is the correction sheet of an entry as stored now.
func (f *entryForms) entryForm(ctx context.Context, m health.Member, kind household.EntryKind, id int64) (kioskview.EntrySheet, error) {
	h, u, loc := f.household, m.Unit.Normalize(), f.loc
	vals := map[string]string{}
	num := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	local := func(t time.Time) string { return t.In(loc).Format(localInput) }
	switch kind {
	case household.EntryWeight:
		r, err := h.Weight(ctx, m.ID, id)
		if err != nil {
			return kioskview.EntrySheet{}, err
		}
		vals["weight"], vals["when"] = num(views.Round1(u.FromKg(r.WeightKg))), local(r.MeasuredAt)
	case household.EntryMeal:
		x, err := h.Meal(ctx, m.ID, id)
		if err != nil {
			return kioskview.EntrySheet{}, err
		}
		vals["name"], vals["calories"], vals["when"] = x.Name, num(x.Calories), local(x.EatenAt)
		vals["protein_g"], vals["carbs_g"], vals["fat_g"] = num(x.ProteinG), num(x.CarbsG), num(x.FatG)
	case household.EntryWorkout:
		x, err := h.Workout(ctx, m.ID, id)
		if err != nil {
			return kioskview.EntrySheet{}, err
		}
		vals["type"], vals["title"], vals["duration_min"], vals["when"] = x.Type, x.Title, num(x.DurationMin), local(x.StartedAt)
		if x.AvgHR != nil {
			vals["avg_hr"] = strconv.Itoa(*x.AvgHR)
		}
	case household.EntryScan:
		x, err := h.BodyScan(ctx, m.ID, id)
		if err != nil {
			return kioskview.EntrySheet{}, err
		}
		vals["when"] = local(x.ScannedAt)
		if x.BodyFatPct != nil {
			vals["body_fat_pct"] = num(*x.BodyFatPct)
		}
		if x.LeanMassKg != nil {
			vals["lean_mass"] = num(views.Round1(u.FromKg(*x.LeanMassKg)))
		}
	}
	return entrySheet(m.ID, kind, id, views.FormState{Values: vals}), nil
}

func entrySheet(member string, kind household.EntryKind, id int64, fs views.FormState) kioskview.EntrySheet {
	u := entryURL(member, kind, id)
	return kioskview.EntrySheet{Kind: string(kind), Title: entryTitles[kind], Action: u, Delete: u + "/delete", Form: fs}
}

// kioskEntry opens the correction sheet of one of the member's entries.
func (f *entryForms) kioskEntry(c echo.Context) error {
	ctx := c.Request().Context()
	m, kind, id, err := f.entryRequest(c)
	if err != nil {
		return err
	}
	e, err := f.entryForm(ctx, m, kind, id)
	if err != nil {
		return err
	}
	if !httpkit.IsDatastar(c) {
		return f.board.renderDashboard(c, http.StatusOK, "entry", func(sh *kioskview.Sheets) { sh.Entry = e })
	}
	sh := f.sheets(c, m.ID)
	sh.Entry = e
	sse := httpkit.NewSSE(c)
	_ = sse.PatchElementTempl(kioskview.EntryForm(sh))
	_ = sse.MarshalAndPatchSignals(map[string]any{"_sheet": "entry"})
	return nil
}

// kioskEntryEdit saves the correction sheet.
func (f *entryForms) kioskEntryEdit(c echo.Context) error {
	ctx := c.Request().Context()
	m, kind, id, err := f.entryRequest(c)
	if err != nil {
		return err
	}
	h, u := f.household, m.Unit.Normalize()
	errs := map[string]string{}
	var names []string
	var save func() error
	switch kind {
	case household.EntryWeight:
		names = []string{"weight", "when"}
		w, at := formFloat(c, "weight", true, errs), f.formWhen(c, errs)
		save = func() error {
			p := household.WeightPatch{Weight: &w, Unit: u, Confirm: confirmed(c)}
			if !at.IsZero() {
				p.MeasuredAt = &at
			}
			_, err := h.EditWeight(ctx, m.ID, id, p)
			return err
		}
	case household.EntryMeal:
		names = []string{"name", "calories", "protein_g", "carbs_g", "fat_g", "when"}
		in := f.mealInput(c, errs)
		save = func() error {
			p := household.MealPatch{Name: &in.Name, Calories: &in.Calories, ProteinG: &in.ProteinG, CarbsG: &in.CarbsG,
				FatG: &in.FatG, Confirm: in.Confirm}
			if !in.EatenAt.IsZero() {
				p.EatenAt = &in.EatenAt
			}
			_, err := h.EditMeal(ctx, m.ID, id, p)
			return err
		}
	case household.EntryWorkout:
		names = []string{"type", "title", "duration_min", "avg_hr", "when"}
		in := f.workoutInput(c, errs)
		save = func() error {
			p := household.WorkoutPatch{Type: &in.Type, Title: &in.Title, DurationMin: &in.DurationMin, AvgHR: in.AvgHR}
			if !in.StartedAt.IsZero() {
				p.StartedAt = &in.StartedAt
			}
			_, err := h.EditWorkout(ctx, m.ID, id, p)
			return err
		}
	case household.EntryScan:
		names = []string{"body_fat_pct", "lean_mass", "when"}
		in := f.scanInput(c, u, errs)
		save = func() error {
			p := household.ScanPatch{BodyFatPct: &in.BodyFatPct, LeanMassKg: &in.LeanMassKg}
			if !in.ScannedAt.IsZero() {
				p.ScannedAt = &in.ScannedAt
			}
			_, err := h.EditBodyScan(ctx, m.ID, id, p)
			return err
		}
	}
	vals := httpkit.FormValues(c, names...)
	if len(errs) > 0 {
		err = apperr.FieldErrors(errs)
	} else {
		err = save()
	}
	fs := views.FormState{}
	if err != nil {
		var ok bool
		if fs, ok = failedForm(err, vals); !ok {
			return err
		}
	}
	e := entrySheet(m.ID, kind, id, fs)
	if !httpkit.IsDatastar(c) {
		if err == nil {
			return c.Redirect(http.StatusSeeOther, "/m/"+m.ID)
		}
		return f.board.renderDashboard(c, http.StatusBadRequest, "entry", func(sh *kioskview.Sheets) { sh.Entry = e })
	}
	sh := f.sheets(c, m.ID)
	sse := httpkit.NewSSE(c)
	if err != nil {
		sh.Entry = e
		_ = sse.PatchElementTempl(kioskview.EntryForm(sh))
		return nil
	}
	_ = sse.PatchElementTempl(kioskview.EntryForm(sh)) // emptied: the next tap loads afresh
	_ = sse.MarshalAndPatchSignals(map[string]any{"_sheet": ""})
	_ = sse.PatchElementTempl(views.Flash(savedText["entry"], false))
	return nil
}

// kioskEntryDelete deletes the entry and offers Undo.
func (f *entryForms) kioskEntryDelete(c echo.Context) error {
	ctx := c.Request().Context()
	kind, id, err := entryParams(c)
	if err != nil {
		return err
	}
	member := c.Param("member")
	t, err := f.household.Delete(ctx, member, kind, id)
	if err != nil {
		return err
	}
	if !httpkit.IsDatastar(c) {
		return c.Redirect(http.StatusSeeOther, "/m/"+member)
	}
	sh := f.sheets(c, member)
	sse := httpkit.NewSSE(c)
	_ = sse.PatchElementTempl(kioskview.EntryForm(sh))
	_ = sse.MarshalAndPatchSignals(map[string]any{"_sheet": ""})
	_ = sse.PatchElementTempl(kioskview.Toast(entryNames[kind]+" deleted.", fmt.Sprintf("/m/%s/undo/%d", member, t.ID), sh.CSRF))
	return nil
}

// kioskUndo restores a deleted entry.
func (f *entryForms) kioskUndo(c echo.Context) error {
	member := c.Param("member")
	trash, err := strconv.ParseInt(c.Param("trash"), 10, 64)
	if err != nil || trash < 1 {
		return apperr.NotFoundf("nothing to undo")
	}
	t, err := f.household.Restore(c.Request().Context(), member, trash)
	if err != nil {
		return err
	}
	if !httpkit.IsDatastar(c) {
		return c.Redirect(http.StatusSeeOther, "/m/"+member)
	}
	_ = httpkit.NewSSE(c).PatchElementTempl(kioskview.Toast(entryNames[t.Kind]+" restored.", "", ""))
	return nil
}
