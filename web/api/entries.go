package api

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/health"
	"hearth/internal/household"
	"hearth/web/httpkit"
)

// entries are the household API's members and entries: list and create
// here, correct and delete in corrections.go.
type entries struct{ h Household }

func listLimit(c echo.Context) (int, error) {
	s := c.QueryParam("limit")
	if s == "" {
		return 100, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 10000 {
		return 0, apperr.Invalidf("limit must be a whole number between 1 and 10000")
	}
	return n, nil
}

func (h entries) members(c echo.Context) error {
	ms, err := h.h.Members(c.Request().Context())
	if err != nil {
		return err
	}
	if ms == nil {
		ms = []health.Member{}
	}
	return c.JSON(http.StatusOK, map[string]any{"members": ms})
}

type weightBody struct {
	MeasuredAt *string  `json:"measured_at"`
	WeightKg   *float64 `json:"weight_kg"`
	BodyFatPct *float64 `json:"body_fat_pct"`
	LeanMassKg *float64 `json:"lean_mass_kg"`
	Confirm    bool     `json:"confirm"`
}

func (h entries) weightCreate(c echo.Context) error {
	var b weightBody
	if err := httpkit.BindJSON(c, &b); err != nil {
		return err
	}
	errs := map[string]string{}
	at := httpkit.OptTime(b.MeasuredAt, "measured_at", errs)
	if b.WeightKg == nil {
		errs["weight_kg"] = "is required"
	}
	if len(errs) > 0 {
		return apperr.FieldErrors(errs)
	}
	r, err := h.h.LogWeight(c.Request().Context(), c.Param("member"),
		household.WeightInput{MeasuredAt: at, Weight: *b.WeightKg, Unit: health.KG, BodyFatPct: b.BodyFatPct, LeanMassKg: b.LeanMassKg,
			Confirm: b.Confirm})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, r)
}

func (h entries) weightList(c echo.Context) error {
	n, err := listLimit(c)
	if err != nil {
		return err
	}
	rs, err := h.h.Weights(c.Request().Context(), c.Param("member"), n)
	if err != nil {
		return err
	}
	if rs == nil {
		rs = []health.WeightReading{}
	}
	return c.JSON(http.StatusOK, map[string]any{"readings": rs})
}

type mealBody struct {
	EatenAt  *string  `json:"eaten_at"`
	Name     *string  `json:"name"`
	Calories *float64 `json:"calories"`
	ProteinG *float64 `json:"protein_g"`
	CarbsG   *float64 `json:"carbs_g"`
	FatG     *float64 `json:"fat_g"`
	Confirm  bool     `json:"confirm"`
}

func orZero(f *float64) float64 {
	if f == nil {
		return 0
	}
	return *f
}

func (h entries) mealCreate(c echo.Context) error {
	var b mealBody
	if err := httpkit.BindJSON(c, &b); err != nil {
		return err
	}
	errs := map[string]string{}
	at := httpkit.OptTime(b.EatenAt, "eaten_at", errs)
	if b.Name == nil {
		errs["name"] = "is required"
	}
	if b.Calories == nil {
		errs["calories"] = "is required"
	}
	if len(errs) > 0 {
		return apperr.FieldErrors(errs)
	}
	m, err := h.h.LogMeal(c.Request().Context(), c.Param("member"), household.MealInput{EatenAt: at,
		Name: *b.Name, Calories: *b.Calories, ProteinG: orZero(b.ProteinG), CarbsG: orZero(b.CarbsG), FatG: orZero(b.FatG), Confirm: b.Confirm})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, m)
}

func (h entries) mealList(c echo.Context) error {
	n, err := listLimit(c)
	if err != nil {
		return err
	}
	ms, err := h.h.Meals(c.Request().Context(), c.Param("member"), n)
	if err != nil {
		return err
	}
	if ms == nil {
		ms = []health.Meal{}
	}
	return c.JSON(http.StatusOK, map[string]any{"meals": ms})
}

type workoutBody struct {
	StartedAt   *string  `json:"started_at"`
	Type        *string  `json:"type"`
	Title       string   `json:"title"`
	DurationMin *float64 `json:"duration_min"`
	AvgHR       *int     `json:"avg_hr"`
	MaxHR       *int     `json:"max_hr"`
	ContentID   string   `json:"content_id"`
}

func (h entries) workoutCreate(c echo.Context) error {
	var b workoutBody
	if err := httpkit.BindJSON(c, &b); err != nil {
		return err
	}
	errs := map[string]string{}
	at := httpkit.OptTime(b.StartedAt, "started_at", errs)
	if b.Type == nil {
		errs["type"] = "is required"
	}
	if b.DurationMin == nil {
		errs["duration_min"] = "is required"
	}
	if len(errs) > 0 {
		return apperr.FieldErrors(errs)
	}
	w, err := h.h.LogWorkout(c.Request().Context(), c.Param("member"), household.WorkoutInput{StartedAt: at,
		Type: *b.Type, Title: b.Title, DurationMin: *b.DurationMin, AvgHR: b.AvgHR, MaxHR: b.MaxHR, ContentID: b.ContentID})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, w)
}

func (h entries) workoutList(c echo.Context) error {
	n, err := listLimit(c)
	if err != nil {
		return err
	}
	ws, err := h.h.Workouts(c.Request().Context(), c.Param("member"), n)
	if err != nil {
		return err
	}
	if ws == nil {
		ws = []health.Workout{}
	}
	return c.JSON(http.StatusOK, map[string]any{"workouts": ws})
}

type scanBody struct {
	ScannedAt   *string  `json:"scanned_at"`
	BodyFatPct  *float64 `json:"body_fat_pct"`
	LeanMassKg  *float64 `json:"lean_mass_kg"`
	FatMassKg   *float64 `json:"fat_mass_kg"`
	BoneMassKg  *float64 `json:"bone_mass_kg"`
	VisceralFat *float64 `json:"visceral_fat"`
}

func (h entries) scanCreate(c echo.Context) error {
	var b scanBody
	if err := httpkit.BindJSON(c, &b); err != nil {
		return err
	}
	errs := map[string]string{}
	at := httpkit.OptTime(b.ScannedAt, "scanned_at", errs)
	if b.BodyFatPct == nil {
		errs["body_fat_pct"] = "is required"
	}
	if b.LeanMassKg == nil {
		errs["lean_mass_kg"] = "is required"
	}
	if len(errs) > 0 {
		return apperr.FieldErrors(errs)
	}
	sc, err := h.h.LogBodyScan(c.Request().Context(), c.Param("member"), household.ScanInput{ScannedAt: at,
		BodyFatPct: *b.BodyFatPct, LeanMassKg: *b.LeanMassKg, FatMassKg: b.FatMassKg, BoneMassKg: b.BoneMassKg, VisceralFat: b.VisceralFat})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, sc)
}

func (h entries) scanList(c echo.Context) error {
	n, err := listLimit(c)
	if err != nil {
		return err
	}
	ss, err := h.h.BodyScans(c.Request().Context(), c.Param("member"), n)
	if err != nil {
		return err
	}
	if ss == nil {
		ss = []health.BodyScan{}
	}
	return c.JSON(http.StatusOK, map[string]any{"scans": ss})
}
