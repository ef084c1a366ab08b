package web_test

// The erase sweep: every route that records its reply for replay (request
// ids, package idempotency) gets a valid request acting on Maya's data; the
// reply must be attributed to Maya, or to nobody when it shows several
// members (erase deletes those with any member), never to Theo, and after
// Maya is erased no recorded reply holds anything of hers. A new creating
// route fails here until it has a case below.

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"slices"
	"strings"
	"testing"
	"time"

	"hearth/internal/household"
	"hearth/internal/lifeplan"
	"hearth/internal/messages"
	"hearth/internal/schedule"
	"hearth/internal/talos"
	"hearth/internal/workflow"
)

// eraseMarker is planted in a member's name and data: a reply that holds
// it holds their data.
func eraseMarker(member string) string { return "zqx" + member + "marker" }

// eraseEnv holds the ids of Maya's things the cases act on.
type eraseEnv struct {
	t   *testing.T
	s   *swServer
	ids map[string]int64
}

func (e *eraseEnv) id(name string) string { return fmt.Sprint(e.ids[name]) }

// lastRun waits for Maya's newest weekly review to reach status and
// returns its id ("0" when she has none).
func (e *eraseEnv) lastRun(status string) string {
	e.t.Helper()
	id := e.one(`SELECT max(id) FROM workflow_runs WHERE member_id = 'maya'`)
	if id > 0 {
		waitWorkflowRun(e.t, e.s, id, status)
	}
	return fmt.Sprint(id)
}

// newRun starts a weekly review for Maya (one runs at a time: the last
// one finishes first) and waits until it asks its question.
func (e *eraseEnv) newRun() string {
	e.t.Helper()
	e.lastRun("success")
	r, err := e.s.app.Workflows.Start(context.Background(), workflow.StartRequest{Workflow: "weekly-review", Member: "maya",
		Trigger: workflow.TriggerManual})
	if err != nil {
		e.t.Fatal(err)
	}
	waitWorkflowRun(e.t, e.s, r.ID, "suspended")
	return fmt.Sprint(r.ID)
}

// one reads one number from the database.
func (e *eraseEnv) one(q string, args ...any) int64 {
	e.t.Helper()
	var n sql.NullInt64
	if err := e.s.app.DB.Read.QueryRow(q, args...).Scan(&n); err != nil {
		e.t.Fatalf("%s: %v", q, err)
	}
	return n.Int64
}

// lifeGoal is Maya's life-plan goal named name, added as a dream the
// first time.
func (e *eraseEnv) lifeGoal(name string) int64 {
	if id := e.one(`SELECT coalesce(max(id), 0) FROM lifeplan_goals WHERE member_id = 'maya' AND name = ?`, name); id > 0 {
		return id
	}
	g, err := e.s.app.LifePlan.AddGoal(context.Background(), "maya", lifeplan.GoalInput{Name: name}, "member")
	if err != nil {
		e.t.Fatal(err)
	}
	return g.ID
}

// lastBelief is Maya's newest belief.
func (e *eraseEnv) lastBelief() int64 {
	return e.one(`SELECT max(id) FROM lifeplan_beliefs WHERE member_id = 'maya'`)
}

// suggest puts a coach's suggestion on Maya's newest belief (the member
// decides it through the API) and returns its id.
func (e *eraseEnv) suggest(note string) int64 {
	e.t.Helper()
	ev, err := e.s.app.LifePlan.SuggestEvidence(context.Background(), "maya", e.lastBelief(), lifeplan.FromCoach, note)
	if err != nil {
		e.t.Fatal(err)
	}
	return ev.ID
}

// eraseCase is a valid request for one recording route.
type eraseCase struct {
	route string // method and route, as in the route table
	req   func(e *eraseEnv) swReq
	// owner is whom the reply must be attributed to: "maya", or "" for a
	// route that acts on no member's data (or on several).
	owner string
	// mayFail is why the request cannot succeed on the sweep's server (no
	// model, nothing to act on): then no reply may be recorded, or one
	// attributed as owner says.
	mayFail string
}

func formReq(path string, kv ...string) func(*eraseEnv) swReq {
	return func(*eraseEnv) swReq {
		return swReq{method: http.MethodPost, path: path, ctype: "application/x-www-form-urlencoded", body: formBody(kv...)}
	}
}

// kioskReq is a Datastar form post, as the kiosk sends them (the reply is
// a stream of patches: the member's screen).
func kioskReq(path string, kv ...string) func(*eraseEnv) swReq {
	return func(e *eraseEnv) swReq {
		r := formReq(path, kv...)(e)
		r.datastar = true
		return r
	}
}

func jsonReq(path, body string) func(*eraseEnv) swReq {
	return func(*eraseEnv) swReq {
		return swReq{method: http.MethodPost, path: path, ctype: "application/json", body: []byte(body)}
	}
}

// uploadReq is a multipart form with fields and one file.
func uploadReq(path, field, name, ctype string, data []byte, kv ...string) swReq {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for i := 0; i+1 < len(kv); i += 2 {
		_ = mw.WriteField(kv[i], kv[i+1])
	}
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename=%q`, field, name))
	h.Set("Content-Type", ctype)
	w, _ := mw.CreatePart(h)
	_, _ = w.Write(data)
	_ = mw.Close()
	return swReq{method: http.MethodPost, path: path, ctype: mw.FormDataContentType(), body: buf.Bytes()}
}

// eraseCases run in this order (later ones use what earlier ones made).
func eraseCases() []eraseCase {
	mk := eraseMarker("maya")
	return []eraseCase{
		// Kiosk.
		{route: "POST /m/:member/weight", req: kioskReq("/m/maya/weight", "weight", "70.2"), owner: "maya"},
		{route: "POST /m/:member/meal", req: kioskReq("/m/maya/meal", "name", mk+" soup", "calories", "320"), owner: "maya"},
		{route: "POST /m/:member/workout", req: kioskReq("/m/maya/workout", "type", "run", "duration_min", "30"), owner: "maya"},
		{route: "POST /m/:member/scan", req: kioskReq("/m/maya/scan", "body_fat_pct", "29.5", "lean_mass_kg", "48"), owner: "maya"},
		{route: "POST /m/:member/entry/:kind/:id", req: func(e *eraseEnv) swReq {
			return kioskReq("/m/maya/entry/meal/"+e.id("meal"), "name", mk+" stew", "calories", "400")(e)
		}, owner: "maya"},
		{route: "POST /m/:member/entry/:kind/:id/delete", req: func(e *eraseEnv) swReq {
			return kioskReq("/m/maya/entry/meal/" + e.id("meal") + "/delete")(e)
		}, owner: "maya"},
		{route: "POST /m/:member/undo/:trash", req: func(e *eraseEnv) swReq {
			return kioskReq(fmt.Sprintf("/m/maya/undo/%d", e.one(`SELECT max(id) FROM entry_trash WHERE member_id = 'maya'`)))(e)
		}, owner: "maya"},
		{route: "POST /m/:member/answer", req: func(e *eraseEnv) swReq {
			p := e.s.prompt("maya", "multiple_choice", true)
			return kioskReq("/m/maya/answer", "prompt", p.ID, "answer", p.Options[0], "kind", "tap")(e)
		}, owner: "maya"},
		{route: "POST /m/:member/workflow/:run/answer", req: func(e *eraseEnv) swReq {
			return kioskReq("/m/maya/workflow/"+e.newRun()+"/answer", "step", "ask", "option", "0")(e)
		}, owner: "maya"},
		{route: "POST /m/:member/voice", req: func(e *eraseEnv) swReq {
			return uploadReq("/m/maya/voice", "audio", "memo.webm", "audio/webm", []byte("\x1aE\xdf\xa3 a voice memo"),
				"prompt", e.s.prompt("maya", "voice_memo", true).ID)
		}, owner: "maya"},
		{route: "POST /m/:member/prepare", req: kioskReq("/m/maya/prepare"), owner: "maya"},
		{route: "POST /m/:member/program", req: kioskReq("/m/maya/program", "op", "pause"), owner: "maya"},
		{route: "POST /m/:member/messages/:id/dismiss", req: func(e *eraseEnv) swReq {
			return kioskReq("/m/maya/messages/" + e.id("message") + "/dismiss")(e)
		}, owner: "maya"},
		{route: "POST /m/:member/chat", req: kioskReq("/m/maya/chat", "message", "How am I doing, "+mk+"?"), owner: "maya"},
		{route: "POST /m/:member/chat/voice", req: func(*eraseEnv) swReq {
			return uploadReq("/m/maya/chat/voice", "audio", "say.webm", "audio/webm", []byte("\x1aE\xdf\xa3 spoken"))
		}, owner: "maya", mayFail: "transcribing needs a model"},
		{route: "POST /m/:member/chat/:thread/delete", req: func(e *eraseEnv) swReq {
			return kioskReq("/m/maya/chat/" + e.id("thread-delete") + "/delete")(e)
		}, owner: "maya"},
		{route: "POST /m/:member/house", req: kioskReq("/m/maya/house", "message", "Turn on the lamp, "+mk), owner: "maya"},
		{route: "POST /m/:member/house/:thread/delete", req: func(e *eraseEnv) swReq {
			return kioskReq("/m/maya/house/" + e.id("house-delete") + "/delete")(e)
		}, owner: "maya"},
		{route: "POST /m/:member/house/held/:id", req: kioskReq("/m/maya/house/held/1", "answer", "refuse"), owner: "maya"},
		{route: "POST /m/:member/playlist", req: func(e *eraseEnv) swReq {
			return kioskReq("/m/maya/playlist", "op", "add", "id", e.s.contentID)(e)
		}, owner: "maya"},
		{route: "POST /content/done", req: func(e *eraseEnv) swReq {
			return formReq("/content/done", "id", e.s.contentID, "m", "maya")(e)
		}, owner: "maya"},

		// Household API.
		{route: "POST /api/v1/members/:member/weight", req: jsonReq("/api/v1/members/maya/weight", `{"weight_kg": 70.1}`), owner: "maya"},
		{route: "POST /api/v1/members/:member/meals", req: jsonReq("/api/v1/members/maya/meals", `{"name": "`+mk+` salad", "calories": 300}`), owner: "maya"},
		{route: "POST /api/v1/members/:member/workouts", req: jsonReq("/api/v1/members/maya/workouts", `{"type": "walk", "duration_min": 20}`), owner: "maya"},
		{route: "POST /api/v1/members/:member/body-scans", req: jsonReq("/api/v1/members/maya/body-scans", `{"body_fat_pct": 29.4, "lean_mass_kg": 48.1}`), owner: "maya"},
		{route: "POST /api/v1/members/:member/prompts/:prompt/answer", req: func(e *eraseEnv) swReq {
			p := e.s.prompt("maya", "multiple_choice", false)
			b, _ := json.Marshal(map[string]string{"answer": p.Options[0]})
			return jsonReq("/api/v1/members/maya/prompts/"+p.ID+"/answer", string(b))(e)
		}, owner: "maya", mayFail: "when today's document has one question to tap, the kiosk answered it above"},

		// The life plan (the sweep's server is loopback with no password:
		// the admin opens it).
		{route: "POST /api/v1/members/:member/lifeplan/values/rank", req: func(e *eraseEnv) swReq {
			if _, err := e.s.app.LifePlan.SetValues(context.Background(), "maya", []lifeplan.ValueInput{{Name: mk + " family"}, {Name: "health"}}); err != nil {
				e.t.Fatal(err)
			}
			return jsonReq("/api/v1/members/maya/lifeplan/values/rank", `{"ranking": ["health"]}`)(e)
		}, owner: "maya"},
		{route: "POST /api/v1/members/:member/lifeplan/beliefs", req: jsonReq("/api/v1/members/maya/lifeplan/beliefs",
			`{"if": "`+mk+` trains early", "then": "she sleeps better"}`), owner: "maya"},
		{route: "POST /api/v1/members/:member/lifeplan/beliefs/:id/evidence", req: func(e *eraseEnv) swReq {
			return jsonReq(fmt.Sprintf("/api/v1/members/maya/lifeplan/beliefs/%d/evidence", e.lastBelief()), `{"text": "`+mk+` slept 8 h"}`)(e)
		}, owner: "maya"},
		{route: "POST /api/v1/members/:member/lifeplan/evidence/:id/accept", req: func(e *eraseEnv) swReq {
			return jsonReq(fmt.Sprintf("/api/v1/members/maya/lifeplan/evidence/%d/accept", e.suggest(mk+" the coach noticed")), "")(e)
		}, owner: "maya"},
		{route: "POST /api/v1/members/:member/lifeplan/evidence/:id/dismiss", req: func(e *eraseEnv) swReq {
			return jsonReq(fmt.Sprintf("/api/v1/members/maya/lifeplan/evidence/%d/dismiss", e.suggest(mk+" the data says")), "")(e)
		}, owner: "maya"},
		{route: "POST /api/v1/members/:member/lifeplan/goals", req: jsonReq("/api/v1/members/maya/lifeplan/goals", `{"name": "`+mk+` hikes"}`), owner: "maya"},
		{route: "POST /api/v1/members/:member/lifeplan/goals/:id/transitions", req: func(e *eraseEnv) swReq {
			return jsonReq(fmt.Sprintf("/api/v1/members/maya/lifeplan/goals/%d/transitions", e.one(`SELECT max(id) FROM lifeplan_goals WHERE member_id = 'maya'`)),
				`{"to": "considered", "reason": "`+mk+` weighed it"}`)(e)
		}, owner: "maya"},
		{route: "POST /api/v1/members/:member/lifeplan/qualities", req: jsonReq("/api/v1/members/maya/lifeplan/qualities", `{"name": "`+mk+` patience"}`), owner: "maya"},

		// Admin APIs: routes that name the member in the body or reach
		// their thread or run by id.
		{route: "POST /api/agents/:agent/run", req: jsonReq("/api/agents/health-coach/run", `{"member": "maya", "message": "Plan my week, `+mk+`"}`), owner: "maya"},
		{route: "POST /api/agents/:agent/run-background", req: jsonReq("/api/agents/health-coach/run-background", `{"member": "maya", "message": "Later, `+mk+`"}`), owner: "maya"},
		{route: "POST /api/agents/:agent/assignments/:assignment/run", req: jsonReq("/api/agents/health-coach/assignments/daily-dashboard/run", `{"member": "maya", "wait": true}`), owner: "maya"},
		{route: "POST /api/agents/:agent/threads", req: jsonReq("/api/agents/health-coach/threads", `{"member": "maya", "title": "`+mk+` chat"}`), owner: "maya"},
		{route: "POST /api/threads/:id/messages", req: func(e *eraseEnv) swReq {
			return jsonReq("/api/threads/"+e.id("thread")+"/messages", `{"content": "What did I eat, `+mk+`?"}`)(e)
		}, owner: "maya"},
		{route: "POST /api/workflows/:id/runs", req: func(e *eraseEnv) swReq {
			e.lastRun("success")
			return jsonReq("/api/workflows/weekly-review/runs", `{"member": "maya"}`)(e)
		}, owner: "maya"},
		{route: "POST /api/workflow-runs/:id/resume", req: func(e *eraseEnv) swReq {
			return jsonReq("/api/workflow-runs/"+e.lastRun("suspended")+"/resume", `{"step": "ask", "data": {"choice": "easier"}}`)(e)
		}, owner: "maya"},
		{route: "POST /api/agent/tasks", req: jsonReq("/api/agent/tasks", `{"description": "Ask `+mk+` about sleep", "type": "once", "schedule": "`+
			time.Now().Add(48*time.Hour).UTC().Format(time.RFC3339)+`", "agent": "health-coach", "member": "maya"}`), owner: "maya"},

		// Admin pages.
		{route: "POST /admin/assignments/:agent/:assignment/run", req: formReq("/admin/assignments/health-coach/daily-dashboard/run", "member", "maya"), owner: "maya"},
		{route: "POST /admin/memory", req: formReq("/admin/memory", "agent", "health-coach", "member", "maya", "key", "mood", "value", mk+" tired"), owner: "maya"},
		{route: "POST /admin/memory/undo/:change", req: func(e *eraseEnv) swReq {
			id := e.one(`SELECT max(id) FROM agent_memory_history WHERE member_id = 'maya' AND key = 'mood'`)
			return formReq(fmt.Sprintf("/admin/memory/undo/%d", id), "agent", "health-coach", "member", "maya")(e)
		}, owner: "maya"},
		{route: "POST /admin/memory/delete", req: formReq("/admin/memory/delete", "agent", "health-coach", "member", "maya", "key", "note"), owner: "maya"},
		{route: "POST /admin/chat", req: formReq("/admin/chat", "agent", "health-coach", "member", "maya", "message", "Hello "+mk), owner: "maya"},
		{route: "POST /admin/household", req: formReq("/admin/household", "id", "cleo", "name", "Cleo", "unit", "kg"), owner: "cleo"},
		{route: "POST /admin/household/:member", req: formReq("/admin/household/maya", "name", "Maya "+mk, "unit", "kg"), owner: "maya"},
		{route: "POST /admin/household/:member/goals", req: formReq("/admin/household/maya/goals", "kind", "workouts_per_week",
			"description", mk+" trains 3x", "target", "3"), owner: "maya"},
		{route: "POST /admin/household/:member/goals/:goal", req: func(e *eraseEnv) swReq {
			return formReq(fmt.Sprintf("/admin/household/maya/goals/%d", e.one(`SELECT max(id) FROM goals WHERE member_id = 'maya'`)), "status", "achieved")(e)
		}, owner: "maya"},
		{route: "POST /admin/household/:member/program", req: formReq("/admin/household/maya/program", "op", "resume"), owner: "maya"},
		{route: "POST /admin/household/:member/lifeplan/goals/:goal", req: func(e *eraseEnv) swReq {
			return formReq(fmt.Sprintf("/admin/household/maya/lifeplan/goals/%d", e.lifeGoal(mk+" hike")), "to", "considered", "reason", mk+" weighed it")(e)
		}, owner: "maya"},
		{route: "POST /admin/household/:member/lifeplan/goals/:goal/link", req: func(e *eraseEnv) swReq {
			return formReq(fmt.Sprintf("/admin/household/maya/lifeplan/goals/%d/link", e.lifeGoal(mk+" hike")), "fitness_goal",
				fmt.Sprint(e.one(`SELECT max(id) FROM goals WHERE member_id = 'maya'`)))(e)
		}, owner: "maya"},
		{route: "POST /admin/household/:member/lifeplan/fitness/:fitness/unlink", req: func(e *eraseEnv) swReq {
			return formReq(fmt.Sprintf("/admin/household/maya/lifeplan/fitness/%d/unlink", e.one(`SELECT max(fitness_goal_id) FROM lifeplan_fitness_links WHERE member_id = 'maya'`)))(e)
		}, owner: "maya"},
		{route: "POST /admin/schedules", req: formReq("/admin/schedules", "description", "Remind "+mk, "type", "recurring", "schedule", "0 20 * * *",
			"agent", "health-coach", "member", "maya", "prompt", "Remind "+mk+" to stretch"), owner: "maya"},
		{route: "POST /admin/schedules/:id", req: func(e *eraseEnv) swReq {
			return formReq("/admin/schedules/"+e.id("task"), "description", "Check on "+mk, "type", "recurring", "schedule", "0 21 * * *",
				"agent", "health-coach", "member", "maya", "prompt", "Check on "+mk)(e)
		}, owner: "maya"},
		{route: "POST /admin/schedules/:id/:action", req: func(e *eraseEnv) swReq {
			return formReq("/admin/schedules/"+e.id("task")+"/pause", "back", "list", "note", "away")(e)
		}, owner: "maya"},
		{route: "POST /admin/todos", req: formReq("/admin/todos", "agent", "health-coach", "member", "maya", "text", "Ask "+mk+" about sleep"), owner: "maya"},
		{route: "POST /admin/todos/:id/:action", req: func(e *eraseEnv) swReq {
			return formReq(fmt.Sprintf("/admin/todos/%d/complete", e.one(`SELECT max(id) FROM agent_todos WHERE member_id = 'maya'`)), "show", "open")(e)
		}, owner: "maya"},
		{route: "POST /admin/imports", req: func(*eraseEnv) swReq {
			return uploadReq("/admin/imports", "file", "meals.csv", "text/csv", []byte("date,name,calories\n2024-01-05,"+mk+" oats,420\n"),
				"member", "maya", "kind", "csv-meals")
		}},
		{route: "POST /admin/integrations/sensors", req: formReq("/admin/integrations/sensors", "entity", "sensor.maya_scale", "member", "maya", "kind", "weight"), owner: "maya"},
		{route: "POST /admin/definitions/:agent/try", req: formReq("/admin/definitions/health-coach/try", "member", "maya", "message", "How am I doing, "+mk+"?"), owner: "maya"},
		{route: "POST /admin/workflows/:id/start", req: func(e *eraseEnv) swReq {
			e.lastRun("success")
			return formReq("/admin/workflows/weekly-review/start", "member", "maya")(e)
		}, owner: "maya"},
		{route: "POST /admin/workflow-runs/:id/:action", req: func(e *eraseEnv) swReq {
			return formReq("/admin/workflow-runs/"+e.lastRun("suspended")+"/resume", "step", "ask", "field", "choice", "value", "harder")(e)
		}, owner: "maya"},

		// Admin routes on no member's data.
		{route: "POST /admin/catalog/meta", req: func(e *eraseEnv) swReq {
			return formReq("/admin/catalog/meta", "id", e.s.contentID, "intensity", "high")(e)
		}},
		{route: "POST /admin/catalog/plex-sync", req: formReq("/admin/catalog/plex-sync"), mayFail: "Plex is not configured here"},
		{route: "POST /admin/integrations/sensors/poll", req: formReq("/admin/integrations/sensors/poll"), mayFail: "Home Assistant is not configured here"},
		{route: "POST /admin/integrations/sensors/:id/delete", req: formReq("/admin/integrations/sensors/999999/delete"), mayFail: "no such mapping"},
		{route: "POST /admin/catalog/import", req: func(*eraseEnv) swReq {
			return uploadReq("/admin/catalog/import", "file", "catalog.json", "application/json", []byte(`{"items": []}`))
		}, mayFail: "an empty catalog is refused"},
		{route: "POST /admin/definitions", req: formReq("/admin/definitions", "id", "helper"), mayFail: "a definition needs its whole form"},
		{route: "POST /admin/definitions/:agent", req: formReq("/admin/definitions/health-coach"), mayFail: "a definition needs its whole form"},
		{route: "POST /admin/definitions/:agent/rollback", req: formReq("/admin/definitions/health-coach/rollback"), mayFail: "needs an earlier version"},
		{route: "POST /admin/definitions/:agent/versions/:version/activate", req: formReq("/admin/definitions/health-coach/versions/1/activate"), mayFail: "needs a draft"},
		{route: "POST /admin/definitions/:agent/versions/:version/discard", req: formReq("/admin/definitions/health-coach/versions/1/discard"), mayFail: "needs a draft"},
		{route: "POST /admin/backups/settings", req: formReq("/admin/backups/settings", "keep_daily", "3", "keep_weekly", "2")},
		{route: "POST /admin/policies", req: func(*eraseEnv) swReq {
			return swReq{method: http.MethodPost, path: "/admin/policies", ctype: "application/x-www-form-urlencoded",
				body: []byte(policyValues(talos.DefaultPolicy()).Encode())}
		}},
		{route: "POST /admin/policies/reset", req: formReq("/admin/policies/reset", "confirm", "reset")},
		{route: "POST /admin/settings/time-zone", req: formReq("/admin/settings/time-zone", "time_zone", "Europe/Berlin"),
			mayFail: "HEARTH_TZ is set here, and wins"},
		{route: "POST /admin/settings/night", req: formReq("/admin/settings/night", "night_mode", "off", "night_from", "22:00", "night_to", "06:30")},
		{route: "POST /admin/backups/:name/delete", req: formReq("/admin/backups/none.tar.gz/delete"), mayFail: "no backup is made here (they run in the background)"},
		{route: "POST /admin/backups", req: formReq("/admin/backups"), mayFail: "a backup may still run"},
		{route: "POST /admin/model/check", req: formReq("/admin/model/check"), mayFail: "no model is configured"},
		{route: "POST /admin/model/reset", req: formReq("/admin/model/reset"), mayFail: "no model is configured"},
		{route: "POST /admin/evals", req: formReq("/admin/evals", "version", "0"), mayFail: "evals need a coach definition version"},
		// "off": the rest of the sweep runs in the trusted-network mode.
		{route: "POST /admin/screens/tokens", req: formReq("/admin/screens/tokens", "require", "off")},
		{route: "POST /admin/screens/:id/revoke", req: formReq("/admin/screens/999/revoke"), mayFail: "no screen is enrolled here"},
		{route: "POST /admin/household/:member/pin", req: formReq("/admin/household/maya/pin", "pin", "2468", "pin_again", "2468"), owner: "maya"},
		{route: "POST /admin/screens/layouts", req: formReq("/admin/screens/layouts", "name", "Hall", "from", "phone")},
		{route: "POST /admin/screens/layouts/:slug", req: formReq("/admin/screens/layouts/hall", "body",
			`{"name": "Hall", "narrow": {"cols": 1, "rows": 1, "places": [{"widget": "weight", "col": 1, "row": 1, "w": 1, "h": 1}]}}`)},
		{route: "POST /admin/screens/default-layout", req: formReq("/admin/screens/default-layout", "layout", "hall")},
		{route: "POST /admin/screens/:id/layout", req: formReq("/admin/screens/999/layout", "layout", "hall"), mayFail: "no screen is enrolled here"},
		{route: "POST /admin/screens/layouts/:slug/remove", req: formReq("/admin/screens/layouts/hall/remove")},

		// Last: the erase itself.
		{route: "POST /admin/household/:member/erase", req: formReq("/admin/household/maya/erase", "confirm", "maya"), owner: "maya"},
	}
}

// swPrompt is a prompt of today's document.
type swPrompt struct {
	ID, Type string
	Options  []string
}

// prompt is the member's last prompt of type kind today (for
// multiple_choice, with options; the first when first is set).
func (s *swServer) prompt(member, kind string, first bool) (p swPrompt) {
	rec := s.do(swReq{method: http.MethodGet, path: "/api/v1/health-dashboard/" + member + "/today"})
	var d struct {
		Coach struct {
			Prompts []struct {
				ID, Type string
				Options  []string
			}
		}
	}
	_ = json.Unmarshal(rec.Body.Bytes(), &d)
	p.ID, p.Options = "none", []string{"none"}
	for _, q := range d.Coach.Prompts {
		if q.Type == kind && (len(q.Options) > 0 || kind != "multiple_choice") {
			p = swPrompt(q)
			if first {
				break
			}
		}
	}
	return p
}

// recordingRoutes are the POST routes that record replies: the request-id
// middleware refuses a malformed id before the handler runs.
func recordingRoutes(t *testing.T, s *swServer) []string {
	var out []string
	for _, rt := range s.app.Echo.Routes() {
		if rt.Method != http.MethodPost {
			continue
		}
		rec := s.do(swReq{method: http.MethodPost, path: s.fill(rt.Path, ""), ctype: "application/json", body: []byte("{}"), key: "bad"})
		if strings.Contains(rec.Body.String(), "request id must be") {
			out = append(out, rt.Method+" "+rt.Path)
		}
	}
	if len(out) < 20 {
		t.Fatalf("only %d routes record replies: is the server wired?", len(out))
	}
	return out
}

func TestErasedMemberLeavesNoRecordedReply(t *testing.T) {
	s := newSweepServer(t)
	a, ctx := s.app, context.Background()
	e := &eraseEnv{t: t, s: s, ids: map[string]int64{}}

	// Both members' names and data carry their marker.
	for _, m := range []string{"maya", "theo"} {
		mk := eraseMarker(m)
		if _, err := a.DB.Write.Exec(`UPDATE members SET name = name || ' ' || ? WHERE id = ?`, mk, m); err != nil {
			t.Fatal(err)
		}
		if _, err := a.Household.LogMeal(ctx, m, household.MealInput{Name: mk + " porridge", Calories: 350}); err != nil {
			t.Fatal(err)
		}
		if _, err := a.Agents.Memory().Set(ctx, "health-coach", m, "note", mk+" likes mornings", 0, "admin"); err != nil {
			t.Fatal(err)
		}
		if _, err := a.Messages.Send(ctx, m, "health-coach", "Well done, "+mk, messages.Via{Source: "schedule"}); err != nil {
			t.Fatal(err)
		}
	}
	meal, err := a.Household.LogMeal(ctx, "maya", household.MealInput{Name: eraseMarker("maya") + " toast", Calories: 200})
	if err != nil {
		t.Fatal(err)
	}
	e.ids["meal"] = meal.ID
	e.ids["message"] = e.one(`SELECT max(id) FROM coach_messages WHERE member_id = 'maya'`)
	for _, name := range []string{"thread", "thread-delete"} {
		th, err := a.Agents.CreateThread(ctx, "health-coach", "maya", eraseMarker("maya")+" "+name)
		if err != nil {
			t.Fatal(err)
		}
		e.ids[name] = th.ID
	}
	house, err := a.Agents.CreateThread(ctx, "talos", "maya", eraseMarker("maya")+" lights")
	if err != nil {
		t.Fatal(err)
	}
	e.ids["house-delete"] = house.ID
	// The kiosk deletes only conversations started on the kiosk.
	if _, err := a.DB.Write.Exec(`UPDATE agent_threads SET origin = 'kiosk' WHERE id IN (?, ?)`, e.ids["thread-delete"], house.ID); err != nil {
		t.Fatal(err)
	}
	task, err := a.Schedule.Create(ctx, schedule.TaskInput{Description: "Stretch, " + eraseMarker("maya"), Kind: schedule.KindRecurring,
		Schedule: "0 20 * * *", AgentID: "health-coach", MemberID: "maya", Prompt: "Remind maya to stretch"}, schedule.ByUser)
	if err != nil {
		t.Fatal(err)
	}
	e.ids["task"] = task.ID

	cases := eraseCases()
	byRoute := map[string]bool{}
	for _, c := range cases {
		byRoute[c.route] = true
	}
	recording := recordingRoutes(t, s)
	for _, r := range recording {
		if !byRoute[r] {
			t.Errorf("%s records its reply but has no case in eraseCases: add a valid request acting on Maya's data, "+
				"and make its handler call httpkit.Owner when the route has no :member", r)
		}
	}
	for r := range byRoute {
		if !slices.Contains(recording, r) {
			t.Errorf("eraseCases has %s, which records no reply (or does not exist)", r)
		}
	}

	// Theo's own request, recorded before the erase, must survive it. The
	// figure is near the demo's Theo (about 77.8 kg today, internal/demo):
	// one 2.5 kg from his last weigh-in is questioned, not stored.
	theoKey := "erase-sweep-theo-0000000001"
	if rec := s.do(swReq{method: http.MethodPost, path: "/api/v1/members/theo/weight", ctype: "application/json",
		body: []byte(`{"weight_kg": 77.9}`), key: theoKey}); rec.Code != http.StatusCreated {
		t.Fatalf("Theo's weigh-in: %d %s", rec.Code, rec.Body)
	}

	type row struct {
		found        bool
		member, kind string
		status       int
		reply        string
	}
	read := func(key string) (r row) {
		err := a.DB.Read.QueryRow(`SELECT member_id, kind, status, location || ' ' || CAST(coalesce(response, '') AS TEXT)
			FROM request_keys WHERE key = ?`, key).Scan(&r.member, &r.kind, &r.status, &r.reply)
		if errors.Is(err, sql.ErrNoRows) {
			return r
		}
		if err != nil {
			t.Fatal(err)
		}
		r.found = true
		return r
	}
	for i, c := range cases {
		key := fmt.Sprintf("erase-sweep-%04d-0000000000", i)
		r := c.req(e)
		r.key = key
		rec := s.do(r)
		got := read(key)
		erase := strings.HasSuffix(c.route, "/erase")
		switch {
		case erase:
			if rec.Code != http.StatusSeeOther {
				t.Fatalf("erase: %d %.300s", rec.Code, rec.Body)
			}
			continue // its own reply went with Maya
		case !got.found && c.mayFail != "":
			t.Logf("%s: %d, nothing recorded (%s)", c.route, rec.Code, c.mayFail)
			continue
		case !got.found || got.status == 0:
			t.Errorf("%s: %d, no reply recorded (a valid request is needed): %.300s", c.route, rec.Code, rec.Body)
			continue
		}
		if got.member != c.owner {
			t.Errorf("%s: the reply is attributed to %q, want %q", c.route, got.member, c.owner)
		}
		// A reply that shows another member's data must be nobody's alone.
		for _, m := range []string{"maya", "theo"} {
			if strings.Contains(got.reply, eraseMarker(m)) && got.member != m && got.member != "" {
				t.Errorf("%s: the reply shows %s's data but is attributed to %q: mark it httpkit.Owner(c, \"\")", c.route, m, got.member)
			}
		}
	}
	// Runs started above finish before looking (a chat turn records its
	// messages after the reply).
	rows, err := a.DB.Read.Query(`SELECT id FROM agent_runs WHERE status IN ('queued', 'running')`)
	if err != nil {
		t.Fatal(err)
	}
	var active []int64
	for rows.Next() {
		var id int64
		_ = rows.Scan(&id)
		active = append(active, id)
	}
	rows.Close()
	for _, id := range active {
		if _, err := a.Agents.Wait(ctx, id); err != nil {
			t.Logf("run %d: %v", id, err)
		}
	}

	var left int
	if err := a.DB.Read.QueryRow(`SELECT count(*) FROM request_keys WHERE member_id = 'maya'
		OR instr(CAST(coalesce(response, '') AS TEXT), ?) > 0 OR instr(location, ?) > 0`, eraseMarker("maya"), eraseMarker("maya")).Scan(&left); err != nil {
		t.Fatal(err)
	}
	if left != 0 {
		t.Errorf("%d recorded replies of Maya survive her erasure", left)
	}
	if r := read(theoKey); !r.found || r.member != "theo" {
		t.Errorf("Theo's recorded reply went with Maya: %+v", r)
	}
}

// A refused request records nothing: it changed nothing, so a repeat may
// simply run again, and its page (Admin → Chat shows the conversation
// again with the error) is not kept.
func TestRefusedRequestIsNotRecorded(t *testing.T) {
	s := newSweepServer(t)
	r := formReq("/admin/chat", "agent", "health-coach", "member", "maya", "message", "  ")(nil)
	r.key = "refused-request-000000000001"
	if rec := s.do(r); rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "Maya") {
		t.Fatalf("empty chat message: %d %.200s", rec.Code, rec.Body)
	}
	var n int
	if err := s.app.DB.Read.QueryRow(`SELECT count(*) FROM request_keys WHERE key = ?`, r.key).Scan(&n); err != nil || n != 0 {
		t.Fatalf("the refusal was recorded (%d rows, %v)", n, err)
	}
}
