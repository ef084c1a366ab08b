package api

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/household"
	"hearth/web/httpkit"
)

// Corrections over the JSON API: PATCH changes the fields a body names
// (the entry's other values stay; the bodies are the create routes'),
// DELETE removes the entry. Another member's id answers 404, like a
// missing one.

// patchTime parses an optional RFC 3339 field of a patch (nil: unchanged).
func patchTime(s *string, field string, errs map[string]string) *time.Time {
	if s == nil {
		return nil
	}
	if *s == "" {
		errs[field] = "must be an RFC 3339 time like 2026-02-14T07:30:00Z"
		return nil
	}
	t := httpkit.OptTime(s, field, errs)
	if t.IsZero() {
		return nil
	}
	return &t
}

func (h entries) weightEdit(c echo.Context) error {
	id, err := httpkit.PositiveID(c, "entry")
	if err != nil {
		return err
	}
	var b weightBody
	if err := httpkit.BindJSON(c, &b); err != nil {
		return err
	}
	errs := map[string]string{}
	p := household.WeightPatch{MeasuredAt: patchTime(b.MeasuredAt, "measured_at", errs), Weight: b.WeightKg,
		BodyFatPct: b.BodyFatPct, LeanMassKg: b.LeanMassKg, Confirm: b.Confirm}
	if len(errs) > 0 {
		return apperr.FieldErrors(errs)
	}
	r, err := h.h.EditWeight(c.Request().Context(), c.Param("member"), id, p)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, r)
}

func (h entries) mealEdit(c echo.Context) error {
	id, err := httpkit.PositiveID(c, "entry")
	if err != nil {
		return err
	}
	var b mealBody
	if err := httpkit.BindJSON(c, &b); err != nil {
		return err
	}
	errs := map[string]string{}
	p := household.MealPatch{EatenAt: patchTime(b.EatenAt, "eaten_at", errs), Name: b.Name, Calories: b.Calories,
		ProteinG: b.ProteinG, CarbsG: b.CarbsG, FatG: b.FatG, Confirm: b.Confirm}
	if len(errs) > 0 {
		return apperr.FieldErrors(errs)
	}
	m, err := h.h.EditMeal(c.Request().Context(), c.Param("member"), id, p)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, m)
}

type workoutPatchBody struct {
	StartedAt   *string  `json:"started_at"`
	Type        *string  `json:"type"`
	Title       *string  `json:"title"`
	DurationMin *float64 `json:"duration_min"`
	AvgHR       *int     `json:"avg_hr"`
	MaxHR       *int     `json:"max_hr"`
}

func (h entries) workoutEdit(c echo.Context) error {
	id, err := httpkit.PositiveID(c, "entry")
	if err != nil {
		return err
	}
	var b workoutPatchBody
	if err := httpkit.BindJSON(c, &b); err != nil {
		return err
	}
	errs := map[string]string{}
	p := household.WorkoutPatch{StartedAt: patchTime(b.StartedAt, "started_at", errs), Type: b.Type, Title: b.Title,
		DurationMin: b.DurationMin, AvgHR: b.AvgHR, MaxHR: b.MaxHR}
	if len(errs) > 0 {
		return apperr.FieldErrors(errs)
	}
	w, err := h.h.EditWorkout(c.Request().Context(), c.Param("member"), id, p)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, w)
}

func (h entries) scanEdit(c echo.Context) error {
	id, err := httpkit.PositiveID(c, "entry")
	if err != nil {
		return err
	}
	var b scanBody
	if err := httpkit.BindJSON(c, &b); err != nil {
		return err
	}
	errs := map[string]string{}
	p := household.ScanPatch{ScannedAt: patchTime(b.ScannedAt, "scanned_at", errs), BodyFatPct: b.BodyFatPct,
		LeanMassKg: b.LeanMassKg, FatMassKg: b.FatMassKg, BoneMassKg: b.BoneMassKg, VisceralFat: b.VisceralFat}
	if len(errs) > 0 {
		return apperr.FieldErrors(errs)
	}
	sc, err := h.h.EditBodyScan(c.Request().Context(), c.Param("member"), id, p)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, sc)
}

// delete deletes one entry of kind: 204, or 404 for an id that is
// not the member's.
func (h entries) delete(kind household.EntryKind) echo.HandlerFunc {
	return func(c echo.Context) error {
		id, err := httpkit.PositiveID(c, "entry")
		if err != nil {
			return err
		}
		if _, err := h.h.Delete(c.Request().Context(), c.Param("member"), kind, id); err != nil {
			return err
		}
		return c.NoContent(http.StatusNoContent)
	}
}
