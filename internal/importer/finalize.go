package importer

import (
	"fmt"
	"strings"
	"time"

	"hearth/internal/store"
)

// slotTotals sums the staged dietary samples of every slot that received a
// sample in import ?1, or lost or gained one when a sample was regrouped by
// its meal, for member ?2 (see the package doc).
const slotTotals = `WITH touched AS (
		SELECT slot_key FROM import_samples WHERE import_id = ?1 AND slot_key IS NOT NULL
		UNION SELECT slot_key FROM import_touched WHERE import_id = ?1),
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
		carbs_g = totals.carbs, fat_g = totals.fat, import_id = ?1
	FROM totals
	WHERE meals.member_id = ?2 AND meals.source = 'apple_health' AND meals.source_key = 'slot:' || totals.slot_key`

const insertSlotMeals = slotTotals + `
	INSERT INTO meals (member_id, eaten_at, name, calories, protein_g, carbs_g, fat_g, source, source_key, created_at, import_id)
	SELECT ?2, at, CASE substr(slot_key, 12)
			WHEN 'breakfast' THEN 'Breakfast' WHEN 'lunch' THEN 'Lunch' WHEN 'snack' THEN 'Snack' WHEN 'dinner' THEN 'Dinner'
			ELSE substr(slot_key, 13) -- "2024-01-05:=Post-Workout": a meal the member named
		END || ' (Apple Health)', calories, protein, carbs, fat, 'apple_health', 'slot:' || slot_key, ?3, ?1
	FROM totals WHERE true
	ON CONFLICT DO NOTHING`

// deleteEmptySlotMeals removes the meal of a slot whose samples all moved to
// their meal's slot.
const deleteEmptySlotMeals = `DELETE FROM meals WHERE member_id = ?2 AND source = 'apple_health' AND source_key IN (
	SELECT 'slot:' || t.slot_key FROM import_touched t WHERE t.import_id = ?1
		AND NOT EXISTS (SELECT 1 FROM import_samples s INDEXED BY import_samples_slot
			WHERE s.member_id = ?2 AND s.slot_key = t.slot_key AND s.slot_key IS NOT NULL))`

// entrySlots picks, for each food entry of one app at one instant ("s:")
// that import ?1 added samples to or moved samples into, for member ?2, the
// one slot all its samples go to when they are not in one already: the
// meal a record of it names (the first by name if they disagree), else its
// time's slot. (A correlation's samples get one slot while the file is read.)
const entrySlots = `WITH g AS (
		SELECT DISTINCT at, group_key FROM import_samples INDEXED BY import_samples_import
			WHERE import_id = ?1 AND slot_key IS NOT NULL AND group_key LIKE 's:%'
		UNION SELECT at, group_key FROM import_touched_entries WHERE import_id = ?1),
	choice AS (
		SELECT g.at AS at, g.group_key AS group_key, coalesce(min(CASE WHEN s.slot_explicit THEN s.slot_key END), min(s.slot_key)) AS slot,
			max(s.slot_explicit) AS explicit
		FROM g CROSS JOIN import_samples s ON s.member_id = ?2 AND s.kind IN ('energy', 'protein', 'carbs', 'fat') AND s.at = g.at
			AND s.group_key = g.group_key
		GROUP BY g.at, g.group_key HAVING count(DISTINCT s.slot_key) > 1)`

// touchEntrySlots marks the slots such an entry's samples leave and join.
const touchEntrySlots = entrySlots + `
	INSERT INTO import_touched (import_id, slot_key)
	SELECT ?1, slot_key FROM (
		SELECT s.slot_key AS slot_key FROM choice c CROSS JOIN import_samples s
			ON s.member_id = ?2 AND s.kind IN ('energy', 'protein', 'carbs', 'fat') AND s.at = c.at AND s.group_key = c.group_key
		UNION SELECT slot FROM choice) WHERE slot_key IS NOT NULL
	ON CONFLICT DO NOTHING`

// joinEntrySlots moves the samples of such an entry to its slot.
const joinEntrySlots = entrySlots + `
	UPDATE import_samples SET slot_key = c.slot, slot_explicit = c.explicit
	FROM choice c
	WHERE import_samples.member_id = ?2 AND import_samples.kind IN ('energy', 'protein', 'carbs', 'fat')
		AND import_samples.at IN (SELECT at FROM choice) -- searched by instant, not over all the member's samples
		AND import_samples.at = c.at AND import_samples.group_key = c.group_key AND import_samples.slot_key != c.slot`

// joinedCounts counts the dietary samples import ?1 added, the food
// entries they belong to and the meals they went to.
const joinedCounts = `SELECT count(*), count(DISTINCT group_key), count(DISTINCT slot_key)
	FROM import_samples INDEXED BY import_samples_import WHERE import_id = ?1 AND slot_key IS NOT NULL`

// A body-fat or lean-mass reading with no Apple weigh-in within 15 minutes
// becomes a body-composition entry of its own (one per instant), so what an
// import reports as added is what the member sees; a later export that
// brings the weigh-in attaches the reading to it and removes the entry.
const (
	weighInNear = `SELECT 1 FROM weight_readings w WHERE w.member_id = ?1 AND w.source = 'apple_health'
		AND w.measured_at BETWEEN strftime('%Y-%m-%dT%H:%M:%fZ', %[1]s, '-15 minutes')
		AND strftime('%Y-%m-%dT%H:%M:%fZ', %[1]s, '+15 minutes')`
	insertBodyEntriesFmt = `INSERT INTO body_scans (member_id, scanned_at, body_fat_pct, lean_mass_kg, source, source_key, created_at)
	SELECT ?1, s.at, max(CASE WHEN s.kind = 'body_fat' THEN s.value END), max(CASE WHEN s.kind = 'lean_mass' THEN s.value END),
		'apple_health', 'body:' || s.at, ?4
	FROM import_samples s
	WHERE s.member_id = ?1 AND s.kind IN ('body_fat', 'lean_mass') AND s.at BETWEEN ?2 AND ?3
		AND NOT EXISTS (%s)
	GROUP BY s.at
	ON CONFLICT DO NOTHING`
	deleteBodyEntriesFmt = `DELETE FROM body_scans WHERE member_id = ?1 AND source = 'apple_health' AND scanned_at BETWEEN ?2 AND ?3
		AND EXISTS (%s)`
)

var (
	insertBodyEntries = fmt.Sprintf(insertBodyEntriesFmt, strings.ReplaceAll(weighInNear, "%[1]s", "s.at"))
	deleteBodyEntries = fmt.Sprintf(deleteBodyEntriesFmt, strings.ReplaceAll(weighInNear, "%[1]s", "body_scans.scanned_at"))
)

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

// sampleNear is a staged sample of a kind within 15 minutes of weigh-in w.
const sampleNear = `EXISTS (SELECT 1 FROM import_samples s WHERE s.member_id = w.member_id AND s.kind = '%s'
	AND s.at BETWEEN strftime('%%Y-%%m-%%dT%%H:%%M:%%fZ', w.measured_at, '-15 minutes')
	AND strftime('%%Y-%%m-%%dT%%H:%%M:%%fZ', w.measured_at, '+15 minutes'))`

var (
	linkBodyFat  = fmt.Sprintf(linkBody, "body_fat_pct", "body_fat")
	linkLeanMass = fmt.Sprintf(linkBody, "lean_mass_kg", "lean_mass")
	// countLinkable counts the weigh-ins the two links will give anything,
	// each once: "linked to 2 weigh-ins" when 3 samples went onto 2.
	countLinkable = `SELECT count(*) FROM weight_readings w WHERE w.member_id = ?1 AND w.source = 'apple_health'
		AND w.measured_at BETWEEN ?2 AND ?3 AND ((w.body_fat_pct IS NULL AND ` + fmt.Sprintf(sampleNear, "body_fat") + `)
			OR (w.lean_mass_kg IS NULL AND ` + fmt.Sprintf(sampleNear, "lean_mass") + `))`
)

// finalizeApple derives meals from the staged dietary samples and links body
// composition to weigh-ins, inside the file's transaction.
func finalizeApple(w *writer) error {
	ctx, tx := w.ctx, w.q.tx
	var joined int64
	// The samples of one app at one instant all get the slot of that
	// instant unless a record names its meal: only then (or when samples
	// staged before moved) can an entry be split across meals.
	if w.namedMeals || w.movedEntries {
		if _, err := tx.ExecContext(ctx, touchEntrySlots, w.importID, w.member); err != nil {
			return fmt.Errorf("importer: mark food entries' meals: %w", err)
		}
		res, err := tx.ExecContext(ctx, joinEntrySlots, w.importID, w.member)
		if err != nil {
			return fmt.Errorf("importer: join food entries: %w", err)
		}
		joined, _ = res.RowsAffected()
	}
	if err := tx.QueryRowContext(ctx, joinedCounts, w.importID).Scan(&w.sum.NutrientSamples, &w.sum.FoodEntries, &w.sum.NutrientMeals); err != nil {
		return fmt.Errorf("importer: count joined samples: %w", err)
	}
	res, err := tx.ExecContext(ctx, updateSlotMeals, w.importID, w.member)
	if err != nil {
		return fmt.Errorf("importer: update meals: %w", err)
	}
	updated, _ := res.RowsAffected()
	res, err = tx.ExecContext(ctx, insertSlotMeals, w.importID, w.member, store.FormatTime(w.now))
	if err != nil {
		return fmt.Errorf("importer: insert meals: %w", err)
	}
	created, _ := res.RowsAffected()
	w.sum.MealsCreated, w.sum.MealsUpdated = int(created), int(updated)
	if moved := w.upgrades + int(joined); moved > 0 {
		w.note(fmt.Sprintf("regrouped %s filed apart before their Food correlation was read (earlier in the file, or by an earlier import)",
			plural(moved, "nutrient sample")))
	}
	if _, err := tx.ExecContext(ctx, deleteEmptySlotMeals, w.importID, w.member); err != nil {
		return fmt.Errorf("importer: remove emptied meals: %w", err)
	}
	for _, q := range []string{`DELETE FROM import_touched WHERE import_id = ?`, `DELETE FROM import_touched_entries WHERE import_id = ?`} {
		if _, err := tx.ExecContext(ctx, q, w.importID); err != nil {
			return fmt.Errorf("importer: clear regrouped slots: %w", err)
		}
	}
	if w.bodyFrom.IsZero() {
		return nil
	}
	from := store.FormatTime(w.bodyFrom.Add(-15 * time.Minute))
	to := store.FormatTime(w.bodyTo.Add(15 * time.Minute))
	if err := tx.QueryRowContext(ctx, countLinkable, w.member, from, to).Scan(&w.sum.BodyCompLinked); err != nil {
		return fmt.Errorf("importer: count weigh-ins to link: %w", err)
	}
	for _, q := range []string{linkBodyFat, linkLeanMass} {
		if _, err := tx.ExecContext(ctx, q, w.member, from, to); err != nil {
			return fmt.Errorf("importer: link body composition: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, deleteBodyEntries, w.member, from, to); err != nil {
		return fmt.Errorf("importer: remove body-composition entries now on a weigh-in: %w", err)
	}
	res, err = tx.ExecContext(ctx, insertBodyEntries, w.member, from, to, store.FormatTime(w.now))
	if err != nil {
		return fmt.Errorf("importer: body-composition entries: %w", err)
	}
	n, _ := res.RowsAffected()
	w.sum.BodyCompEntries = int(n)
	return nil
}
