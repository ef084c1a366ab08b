package importer

import (
	"context"
	"fmt"
	"time"

	"hearth/internal/store"
)

// slotTotals sums the staged dietary samples of every slot that received a
// sample in import ?1, for member ?2 (see the package doc).
const slotTotals = `WITH touched AS (
		SELECT DISTINCT slot_key FROM import_samples WHERE import_id = ?1 AND slot_key IS NOT NULL),
	totals AS (
		SELECT s.slot_key AS slot_key, min(s.at) AS at,
			total(CASE WHEN s.kind = 'energy' THEN s.value END) AS calories,
			total(CASE WHEN s.kind = 'protein' THEN s.value END) AS protein,
			total(CASE WHEN s.kind = 'carbs' THEN s.value END) AS carbs,
			total(CASE WHEN s.kind = 'fat' THEN s.value END) AS fat
		FROM touched t CROSS JOIN import_samples s INDEXED BY import_samples_slot -- t outer: CROSS JOIN fixes the join order
			ON s.member_id = ?2 AND s.slot_key = t.slot_key AND s.slot_key IS NOT NULL -- lets the partial index serve
		GROUP BY s.slot_key)`

const updateSlotMeals = slotTotals + `
	UPDATE meals SET eaten_at = totals.at, calories = totals.calories, protein_g = totals.protein,
		carbs_g = totals.carbs, fat_g = totals.fat
	FROM totals
	WHERE meals.member_id = ?2 AND meals.source = 'apple_health' AND meals.source_key = 'slot:' || totals.slot_key`

const insertSlotMeals = slotTotals + `
	INSERT INTO meals (member_id, eaten_at, name, calories, protein_g, carbs_g, fat_g, source, source_key, created_at)
	SELECT ?2, at, CASE substr(slot_key, 12)
			WHEN 'breakfast' THEN 'Breakfast' WHEN 'lunch' THEN 'Lunch' WHEN 'snack' THEN 'Snack' ELSE 'Dinner'
		END || ' (Apple Health)', calories, protein, carbs, fat, 'apple_health', 'slot:' || slot_key, ?3
	FROM totals WHERE true
	ON CONFLICT DO NOTHING`

// linkBody fills body fat (or lean mass) on the member's Apple weight
// readings in [?2, ?3] that lack it, from the staged sample nearest in time
// within 15 minutes (SQLite returns the bare column of the min() row).
const linkBody = `UPDATE weight_readings SET %[1]s = best.value
	FROM (SELECT w.id AS id, s.value AS value, min(abs(julianday(s.at) - julianday(w.measured_at))) AS distance
		FROM weight_readings w JOIN import_samples s ON s.member_id = w.member_id AND s.kind = '%[2]s'
			AND s.at BETWEEN strftime('%%Y-%%m-%%dT%%H:%%M:%%fZ', w.measured_at, '-15 minutes')
			AND strftime('%%Y-%%m-%%dT%%H:%%M:%%fZ', w.measured_at, '+15 minutes')
		WHERE w.member_id = ?1 AND w.source = 'apple_health' AND w.%[1]s IS NULL AND w.measured_at BETWEEN ?2 AND ?3
		GROUP BY w.id) AS best
	WHERE weight_readings.id = best.id`

var (
	linkBodyFat  = fmt.Sprintf(linkBody, "body_fat_pct", "body_fat")
	linkLeanMass = fmt.Sprintf(linkBody, "lean_mass_kg", "lean_mass")
)

// finalizeApple derives meals from the staged dietary samples and links body
// composition to weigh-ins, inside the file's transaction.
func finalizeApple(ctx context.Context, w *writer) error {
	res, err := w.q.tx.ExecContext(ctx, updateSlotMeals, w.importID, w.member)
	if err != nil {
		return fmt.Errorf("importer: update meals: %w", err)
	}
	updated, _ := res.RowsAffected()
	res, err = w.q.tx.ExecContext(ctx, insertSlotMeals, w.importID, w.member, store.FormatTime(w.now))
	if err != nil {
		return fmt.Errorf("importer: insert meals: %w", err)
	}
	created, _ := res.RowsAffected()
	w.sum.MealsCreated, w.sum.MealsUpdated = int(created), int(updated)
	if w.bodyFrom.IsZero() {
		return nil
	}
	from := store.FormatTime(w.bodyFrom.Add(-15 * time.Minute))
	to := store.FormatTime(w.bodyTo.Add(15 * time.Minute))
	for _, q := range []string{linkBodyFat, linkLeanMass} {
		res, err := w.q.tx.ExecContext(ctx, q, w.member, from, to)
		if err != nil {
			return fmt.Errorf("importer: link body composition: %w", err)
		}
		n, _ := res.RowsAffected()
		w.sum.BodyCompLinked += int(n)
	}
	return nil
}
