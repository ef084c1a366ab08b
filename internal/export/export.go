// Package export writes everything Hearth holds about one member as a zip:
// one CSV per kind (units in the headers) and member.json with the same
// rows, plus the member's voice memo recordings. The CSVs of weigh-ins,
// meals, workouts and body scans use the columns Hearth's own CSV importer
// reads (internal/importer), at full precision, so they import back
// unchanged. Text cells that a spreadsheet would run as a formula (starting
// with =, +, -, @, tab or CR, after any apostrophes) get one more leading
// apostrophe, which the importer removes again (Neutralize, Restore);
// member.json carries the text as stored.
package export

import (
	"archive/zip"
	"context"
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"hearth/internal/store"
)

// kind is one file of the export: a query over the member's rows.
type kind struct {
	file    string // CSV file name, also the key in member.json
	columns []string
	query   string // one ? for the member id; selects columns in order
}

// Kinds are the files of an export. The first four re-import: besides a
// record's values they carry its source, the source's own key for it and
// when Hearth stored it, so an entry re-imported into the same member is
// recognised (adds nothing) and one imported into another member is the
// same record in every stored column (internal/importer, "Hearth's own
// export").
var kinds = []kind{
	{"weights.csv", []string{"measured_at", "weight_kg", "body_fat_pct", "lean_mass_kg", "source", "source_key", "created_at"},
		`SELECT measured_at, weight_kg, body_fat_pct, lean_mass_kg, source, source_key, created_at FROM weight_readings
		WHERE member_id = ? ORDER BY measured_at, id`},
	{"meals.csv", []string{"eaten_at", "name", "energy_kcal", "protein_g", "carbs_g", "fat_g", "source", "source_key", "created_at"},
		`SELECT eaten_at, name, calories, protein_g, carbs_g, fat_g, source, source_key, created_at FROM meals
		WHERE member_id = ? ORDER BY eaten_at, id`},
	{"workouts.csv", []string{"started_at", "type", "title", "duration_min", "avg_hr_bpm", "max_hr_bpm", "energy_kcal", "distance_km",
		"content_id", "source", "source_key", "created_at"},
		`SELECT started_at, type, title, duration_min, avg_hr, max_hr, energy_kcal, distance_km, content_id, source, source_key, created_at
		FROM workouts WHERE member_id = ? ORDER BY started_at, id`},
	{"body_scans.csv", []string{"scanned_at", "body_fat_pct", "lean_mass_kg", "fat_mass_kg", "bone_mass_kg", "visceral_fat", "source",
		"source_key", "created_at"},
		`SELECT scanned_at, body_fat_pct, lean_mass_kg, fat_mass_kg, bone_mass_kg, visceral_fat, source, source_key, created_at
		FROM body_scans WHERE member_id = ? ORDER BY scanned_at, id`},
	{"goals.csv", []string{"created_at", "kind", "description", "target", "unit", "target_date", "status"},
		`SELECT created_at, kind, description, target, unit, target_date, status FROM goals WHERE member_id = ? ORDER BY id`},
	{"program_history.csv", []string{"program_id", "status", "start_date", "current_day", "pattern", "pace", "note", "paused_at", "ended_at", "created_at", "updated_at"},
		`SELECT program_id, status, start_date, current_day, pattern, pace, note, paused_at, ended_at, created_at, updated_at FROM program_states WHERE member_id = ? ORDER BY id`},
	{"program_substitutions.csv", []string{"program_id", "day", "original", "actual", "reason", "at"},
		`SELECT s.program_id, x.day, x.original, x.actual, x.reason, x.at FROM program_substitutions x JOIN program_states s ON s.id = x.state_id WHERE s.member_id = ? ORDER BY x.id`},
	{"prompt_answers.csv", []string{"day", "prompt_id", "question", "answer", "kind", "answered_at"},
		`SELECT day, prompt_id, question, answer, kind, answered_at FROM prompt_answers WHERE member_id = ? ORDER BY answered_at, id`},
	{"coach_memory.csv", []string{"agent_id", "key", "value", "expires_at", "updated_at", "updated_by"},
		`SELECT agent_id, key, value, expires_at, updated_at, updated_by FROM agent_memory WHERE member_id = ? ORDER BY agent_id, key`},
	{"coach_memory_history.csv", []string{"created_at", "agent_id", "key", "old_value", "new_value", "old_expires_at", "new_expires_at", "actor"},
		`SELECT created_at, agent_id, key, old_value, new_value, old_expires_at, new_expires_at, actor FROM agent_memory_history WHERE member_id = ? ORDER BY id`},
	{"coaching_notes.csv", []string{"created_at", "note"},
		`SELECT created_at, note FROM coaching_notes WHERE member_id = ? ORDER BY id`},
	{"coach_messages.csv", []string{"created_at", "agent_id", "source", "text", "dismissed_at"},
		`SELECT created_at, agent_id, source, text, dismissed_at FROM coach_messages WHERE member_id = ? ORDER BY id`},
	{"chat_messages.csv", []string{"thread_id", "agent_id", "thread_title", "role", "type", "tool_name", "tool_args", "content", "created_at"},
		`SELECT t.id, t.agent_id, t.title, m.role, m.type, m.tool_name, m.tool_args, m.content, m.created_at FROM agent_messages m JOIN agent_threads t ON t.id = m.thread_id WHERE t.member_id = ? ORDER BY m.id`},
	{"workflow_steps.csv", []string{"run_id", "workflow", "run_status", "path", "status", "asked", "answer", "output", "started_at", "finished_at"},
		`SELECT r.id, r.workflow_id, r.status, s.path, s.status, s.suspend_payload, s.resume_data, s.output, s.started_at, s.finished_at FROM workflow_steps s JOIN workflow_runs r ON r.id = s.run_id WHERE r.member_id = ? ORDER BY r.id, s.seq`},
	{"voice_memos.csv", []string{"created_at", "day", "prompt_id", "file", "mime", "size_bytes", "transcript", "status"},
		`SELECT created_at, day, prompt_id, path, mime, size, transcript, status FROM voice_memos WHERE member_id = ? ORDER BY id`},
	{"assistant_decisions.csv", []string{"at", "role", "tool", "target", "action", "args", "outcome", "rule", "reason", "decided_by", "decided_at", "result"},
		`SELECT at, role, tool, target, action, args, outcome, rule, reason, decided_by, decided_at, result FROM policy_decisions WHERE member_id = ? ORDER BY id`},
	{"daily_figures.csv", []string{"day", "kind", "value", "unit", "measured_at", "source", "source_key", "created_at"},
		`SELECT day, kind, value, unit, measured_at, source, source_key, created_at FROM daily_figures WHERE member_id = ? ORDER BY day, kind, id`},
	// The life plan (internal/lifeplan).
	{"lifeplan_purpose.csv", []string{"statement", "updated_at"},
		`SELECT statement, updated_at FROM lifeplan_purposes WHERE member_id = ?`},
	{"lifeplan_values.csv", []string{"rank", "name", "description"},
		`SELECT rank, name, description FROM lifeplan_values WHERE member_id = ? ORDER BY rank, id`},
	{"lifeplan_beliefs.csv", []string{"belief_id", "if", "then", "state", "confidence", "created_at", "updated_at"},
		`SELECT id, if_text, then_text, state, confidence, created_at, updated_at FROM lifeplan_beliefs WHERE member_id = ? ORDER BY id`},
	{"lifeplan_evidence.csv", []string{"belief_id", "text", "source", "status", "created_at", "decided_at"},
		`SELECT belief_id, text, source, status, created_at, decided_at FROM lifeplan_evidence WHERE member_id = ? ORDER BY id`},
	{"lifeplan_goals.csv", []string{"goal_id", "name", "why", "state", "parent_id", "created_at", "updated_at"},
		`SELECT id, name, why, state, parent_id, created_at, updated_at FROM lifeplan_goals WHERE member_id = ? ORDER BY id`},
	{"lifeplan_goal_history.csv", []string{"goal_id", "from", "to", "reason", "by", "at"},
		`SELECT goal_id, from_state, to_state, reason, by, at FROM lifeplan_goal_history WHERE member_id = ? ORDER BY id`},
	{"lifeplan_fitness_links.csv", []string{"fitness_goal_id", "goal_id", "linked_at"},
		`SELECT fitness_goal_id, goal_id, linked_at FROM lifeplan_fitness_links WHERE member_id = ? ORDER BY fitness_goal_id`},
	{"lifeplan_qualities.csv", []string{"name", "why", "created_at"},
		`SELECT name, why, created_at FROM lifeplan_qualities WHERE member_id = ? ORDER BY id`},
}

// reimported is how many of kinds, from the first, import back.
const reimported = 4

// Reimported names the files of an export that import back with `hearth
// import` (weigh-ins, meals, workouts, body scans); the others are for
// reading.
func Reimported() []string {
	out := make([]string, reimported)
	for i, k := range kinds[:reimported] {
		out[i] = k.file
	}
	return out
}

// Units names the unit of each numeric column (also stated in the headers).
var Units = map[string]string{"weight_kg": "kg", "body_fat_pct": "%", "lean_mass_kg": "kg", "energy_kcal": "kcal",
	"protein_g": "g", "carbs_g": "g", "fat_g": "g", "duration_min": "min", "avg_hr_bpm": "bpm", "max_hr_bpm": "bpm",
	"fat_mass_kg": "kg", "bone_mass_kg": "kg", "distance_km": "km", "size_bytes": "bytes"}

// FileName is the download name of a member's export.
func FileName(member string, now time.Time) string {
	return fmt.Sprintf("hearth-%s-%s.zip", member, now.UTC().Format("20060102"))
}

// Member writes the member's export zip to w. dataDir holds the voice memos.
func Member(ctx context.Context, db *store.DB, dataDir, member string, now time.Time, w io.Writer) error {
	m, err := db.Member(ctx, member)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(w)
	doc := map[string]any{"member": m, "exported_at": now.UTC().Format(time.RFC3339), "units": Units,
		"note": "Times are UTC (RFC 3339). The CSV files hold the same rows; weights, meals, workouts and body_scans re-import with `hearth import --member ID FILE`."}
	var memos []string
	for _, k := range kinds {
		rows, err := query(ctx, db.Read, k, member)
		if err != nil {
			return err
		}
		if err := writeCSV(zw, k, rows); err != nil {
			return err
		}
		objs := make([]map[string]any, len(rows))
		for i, r := range rows {
			o := map[string]any{}
			for j, c := range k.columns {
				o[c] = r[j]
				if k.file == "voice_memos.csv" && c == "file" {
					if p, ok := r[j].(string); ok {
						memos = append(memos, p)
					}
				}
			}
			objs[i] = o
		}
		doc[strings.TrimSuffix(k.file, ".csv")] = objs
	}
	jw, err := zw.Create("member.json")
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	enc := json.NewEncoder(jw)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	for _, p := range memos {
		if err := addMemo(zw, dataDir, member, p); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return nil
}

// addMemo adds one recording if it is where a memo of this member lives.
func addMemo(zw *zip.Writer, dataDir, member, rel string) error {
	rel = filepath.Clean(filepath.FromSlash(rel))
	if !filepath.IsLocal(rel) || !strings.HasPrefix(rel, filepath.Join("voice", member)+string(filepath.Separator)) {
		return nil
	}
	f, err := os.Open(filepath.Join(dataDir, rel))
	if err != nil {
		return nil // a memo whose file is gone: the CSV row says so by its path
	}
	defer f.Close()
	w, err := zw.Create(filepath.ToSlash(rel))
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	_, err = io.Copy(w, f)
	return err
}

func query(ctx context.Context, q *sql.DB, k kind, member string) ([][]any, error) {
	rows, err := q.QueryContext(ctx, k.query, member)
	if err != nil {
		return nil, fmt.Errorf("export %s: %w", k.file, err)
	}
	defer rows.Close()
	out := [][]any{}
	for rows.Next() {
		vals := make([]any, len(k.columns))
		ptrs := make([]any, len(vals))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, fmt.Errorf("export %s: %w", k.file, err)
		}
		for i, v := range vals {
			if b, ok := v.([]byte); ok {
				vals[i] = string(b)
			}
		}
		out = append(out, vals)
	}
	return out, rows.Err()
}

func writeCSV(zw *zip.Writer, k kind, rows [][]any) error {
	w, err := zw.Create(k.file)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(k.columns); err != nil {
		return err
	}
	rec := make([]string, len(k.columns))
	for _, r := range rows {
		for i, v := range r {
			rec[i] = cell(v)
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// cell renders a value: numbers at full precision (the shortest decimal
// that reads back as the same float64), text neutralised.
func cell(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case int64:
		return strconv.FormatInt(x, 10)
	case string:
		return Neutralize(x)
	}
	return Neutralize(fmt.Sprint(v))
}

// Neutralize prefixes an apostrophe to text a spreadsheet would evaluate
// (OWASP's CSV injection advice: cells starting with =, +, -, @, tab, CR).
// Text that already has apostrophes before such a character gets one more
// ('=1+1 is written with two apostrophes), so the marker is never ambiguous: Restore
// takes exactly one off again and every text reads back as it was.
func Neutralize(s string) string {
	if formulaLike(strings.TrimLeft(s, "'")) {
		return "'" + s
	}
	return s
}

// Restore undoes Neutralize: a cell of one or more apostrophes followed by
// =, +, -, @, tab or CR loses its first apostrophe; any other text (a
// plain 'quoted name) is left alone. The importer applies it to the text
// of every CSV, which also undoes the same marker other apps put there.
func Restore(s string) string {
	if strings.HasPrefix(s, "'") && formulaLike(strings.TrimLeft(s, "'")) {
		return s[1:]
	}
	return s
}

func formulaLike(s string) bool { return s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) }
