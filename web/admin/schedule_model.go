package admin

import (
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/schedule"
	"hearth/views/adminview"
	"hearth/web/httpkit"
)

// taskFormFields are the fields of the task form, kept on a validation error.
var taskFormFields = []string{"description", "type", "schedule", "agent", "assignment", "member", "prompt",
	"overlap_policy", "catchup_policy"}

// fmtSlot formats a schedule time in the household zone.
func (s *core) fmtSlot(t time.Time) string {
	return t.In(s.opt.Location).Format("Mon 2 Jan 2006 15:04")
}

func (s *core) fmtSlotPtr(t *time.Time) string {
	if t == nil {
		return ""
	}
	return s.fmtSlot(*t)
}

func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// taskTarget says in words what a task runs.
func taskTarget(t schedule.Task) string {
	switch {
	case t.System():
		return "Hearth itself: " + t.AssignmentID
	case t.Kind == schedule.KindHeartbeat:
		return t.AgentID + " works through its to-do list"
	case t.AssignmentID != "" && t.MemberID == "":
		return t.AgentID + " / " + t.AssignmentID + " for all members"
	case t.AssignmentID != "":
		return t.AgentID + " / " + t.AssignmentID + " for " + t.MemberID
	}
	return t.AgentID + " for " + t.MemberID + ": “" + shorten(t.Prompt, 80) + "”"
}

func (s *core) taskRow(t schedule.Task) adminview.TaskRow {
	return adminview.TaskRow{ID: t.ID, Description: t.Description, Kind: string(t.Kind), Schedule: t.Schedule,
		Target: taskTarget(t), Member: t.MemberID, Status: string(t.Status), StatusReason: t.StatusReason,
		PauseNote: t.PauseNote, Next: s.fmtSlotPtr(t.NextRunAt), Last: s.fmtSlotPtr(t.LastRunAt),
		Expires: s.fmtSlotPtr(t.ExpiresAt), Overlap: string(t.OverlapPolicy), Catchup: string(t.CatchupPolicy),
		ByCoach: t.CreatedBy == schedule.ByAgent, Keep: t.Keep, Running: t.Running, RunCount: t.RunCount,
		LastRunID: t.LastRunID, LastOutcome: outcomeText(t.LastOutcome), LastNote: t.LastNote}
}

// outcomeText is a ledger outcome in words ("" stays "").
func outcomeText(o schedule.Outcome) string { return strings.ReplaceAll(string(o), "_", " ") }

func (s *core) taskRows(tasks []schedule.Task) []adminview.TaskRow {
	out := make([]adminview.TaskRow, len(tasks))
	for i, t := range tasks {
		out[i] = s.taskRow(t)
	}
	return out
}

// taskFormValues fills the edit form from a task. A prompt that only
// repeats the description is left empty, so it keeps following it.
func taskFormValues(t schedule.Task) map[string]string {
	prompt := t.Prompt
	if prompt == t.Description {
		prompt = ""
	}
	return map[string]string{"description": t.Description, "type": string(t.Kind), "schedule": t.Schedule,
		"agent": t.AgentID, "assignment": t.AssignmentID, "member": t.MemberID, "prompt": prompt,
		"overlap_policy": string(t.OverlapPolicy), "catchup_policy": string(t.CatchupPolicy)}
}

// defaultTaskForm is the new-task form's starting point.
func (s *schedulePages) defaultTaskForm() map[string]string {
	v := map[string]string{"type": "recurring", "overlap_policy": "skip", "catchup_policy": "once"}
	if agents := s.agents; agents != nil {
		if list := agents.Agents(); len(list) > 0 {
			v["agent"] = list[0].ID
		}
	}
	return v
}

func taskInput(c echo.Context) schedule.TaskInput {
	return schedule.TaskInput{Description: c.FormValue("description"), Kind: schedule.Kind(c.FormValue("type")),
		Schedule: c.FormValue("schedule"), AgentID: c.FormValue("agent"), AssignmentID: c.FormValue("assignment"),
		MemberID: c.FormValue("member"), Prompt: c.FormValue("prompt"),
		OverlapPolicy: schedule.OverlapPolicy(c.FormValue("overlap_policy")),
		CatchupPolicy: schedule.CatchupPolicy(c.FormValue("catchup_policy"))}
}

// taskPatch turns the edit form into a full patch (every field is on the form).
func taskPatch(c echo.Context) schedule.TaskPatch {
	in := taskInput(c)
	return schedule.TaskPatch{Description: &in.Description, Kind: &in.Kind, Schedule: &in.Schedule,
		AgentID: &in.AgentID, AssignmentID: &in.AssignmentID, MemberID: &in.MemberID, Prompt: &in.Prompt,
		OverlapPolicy: &in.OverlapPolicy, CatchupPolicy: &in.CatchupPolicy}
}

// preview computes the next five fire times of a (possibly unsaved) schedule.
func (s *schedulePages) preview(t schedule.Task) adminview.SchedulePreview {
	if strings.TrimSpace(t.Schedule) == "" {
		return adminview.SchedulePreview{}
	}
	times, err := s.schedule.NextFires(t, 5)
	if err != nil {
		var ae *apperr.Error
		if errors.As(err, &ae) && ae.Code == apperr.Invalid {
			return adminview.SchedulePreview{Error: ae.Message}
		}
		s.log.Error("schedule preview", "err", err)
		return adminview.SchedulePreview{Error: "cannot read this schedule"}
	}
	if len(times) == 0 {
		return adminview.SchedulePreview{Error: "No upcoming run: this time has passed."}
	}
	pr := adminview.SchedulePreview{}
	for _, tm := range times {
		pr.Times = append(pr.Times, s.fmtSlot(tm))
	}
	return pr
}

// rerunnable mirrors the ledger outcomes an admin may run again.
func rerunnable(o schedule.Outcome) bool {
	switch o {
	case schedule.OutcomeMissed, schedule.OutcomeSkippedOverlap, schedule.OutcomeSkippedPaused,
		schedule.OutcomeSkippedBudget, schedule.OutcomeFailed, schedule.OutcomeInterrupted:
		return true
	}
	return false
}

func (s *schedulePages) fireRows(t schedule.Task, fires []schedule.Fire) []adminview.FireRow {
	out := make([]adminview.FireRow, len(fires))
	for i, f := range fires {
		out[i] = adminview.FireRow{Slot: s.fmtSlot(f.ScheduledFor), SlotValue: f.ScheduledFor.UTC().Format(time.RFC3339Nano),
			Via: f.Via, Outcome: string(f.Outcome), Reason: f.Reason, Note: f.Note, At: s.fmtSlot(f.At), RunID: f.RunID,
			Attempts: f.Attempts, Rerun: t.Kind != schedule.KindHeartbeat && rerunnable(f.Outcome)}
	}
	return out
}

// doneNotices are the fixed confirmations shown after an action (?done=).
var doneNotices = map[string]string{
	"created": "Task created.", "saved": "Saved; the next run was recomputed.", "pause": "Paused.",
	"resume": "Resumed.", "approve": "Approved: the task is active.", "keep": "Kept: it will not expire.",
	"run":  "Started: the run shows in the ledger and on the assignments page.",
	"slot": "Started the missed slot.", "delete": "Task deleted.",
}

func doneNotice(c echo.Context) adminview.Notice {
	return adminview.Notice{Text: doneNotices[c.QueryParam("done")]}
}

// userError reports whether err is a user-facing problem (bad input, a
// conflict, a missing task) that the page should show, and as what.
func userError(err error) (adminview.Notice, int, bool) {
	var ae *apperr.Error
	if !errors.As(err, &ae) {
		return adminview.Notice{}, 0, false
	}
	status := httpkit.Status(ae.Code)
	switch ae.Code {
	case apperr.Invalid, apperr.Conflict, apperr.NotFound:
	default:
		return adminview.Notice{}, 0, false
	}
	msg := ae.Message
	if len(ae.Fields) > 0 && !strings.Contains(msg, ":") {
		msg += ": " + httpkit.FieldList(ae.Fields)
	}
	return adminview.Notice{Text: msg, Error: true}, status, true
}
