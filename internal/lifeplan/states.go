package lifeplan

import (
	"fmt"
	"slices"

	"hearth/internal/apperr"
)

// GoalState is where a life-plan goal is, from a dream to its end.
type GoalState string

// The goal states, in the order a goal usually passes through them.
const (
	Dream      GoalState = "dream"      // something wished for, not yet weighed
	Considered GoalState = "considered" // weighed: what it costs, why it matters
	Ready      GoalState = "ready"      // a first step and a measure are known
	Committed  GoalState = "committed"  // being worked on now
	Paused     GoalState = "paused"     // set aside for a while, meant to resume
	Achieved   GoalState = "achieved"   // done (final)
	Failed     GoalState = "failed"     // tried and not reached
	Abandoned  GoalState = "abandoned"  // let go on purpose
)

// GoalStates lists every goal state.
var GoalStates = []GoalState{Dream, Considered, Ready, Committed, Paused, Achieved, Failed, Abandoned}

// Valid reports whether s is a goal state.
func (s GoalState) Valid() bool { return slices.Contains(GoalStates, s) }

// Edge is one allowed goal transition and why it exists.
type Edge struct {
	From, To GoalState
	Why      string
}

// Transitions is the goal state graph: every move TransitionGoal allows,
// each with why. A move not listed is refused, and the refusal names the
// moves listed from the goal's state. The rules behind it:
//
//   - A goal is only achieved, failed or paused once committed: a dream
//     cannot be ticked off as achieved (nothing was committed to), nor
//     fail (nothing was tried). dream → achieved is the example the issue
//     names.
//   - Commitment is reached step by step (dream → considered → ready →
//     committed), so that the member has weighed a goal and knows its first
//     step before it takes up their time; each step may also go back one.
//   - Every state but achieved may be abandoned: letting go is always
//     allowed, with a reason.
//   - A failed goal is reconsidered (what to change), not recommitted at
//     once: failed → considered.
//   - achieved is final: the goal's record stays as it is; a higher bar is
//     a new goal (its parent may be the same).
//   - abandoned may be revived, but only to considered: circumstances
//     change, and the goal keeps its history, links and sub-goals; it must
//     be weighed again before any commitment.
var Transitions = []Edge{
	{Dream, Considered, "weigh the dream: what it would take and why it matters"},
	{Dream, Abandoned, "let the dream go"},

	{Considered, Ready, "a first step and a way to measure it are known"},
	{Considered, Dream, "not now: keep it as a dream"},
	{Considered, Abandoned, "weighed and let go"},

	{Ready, Committed, "start working on it"},
	{Ready, Considered, "not ready after all: weigh it again"},
	{Ready, Abandoned, "let it go before starting"},

	{Committed, Paused, "set it aside for a while (illness, a busy season)"},
	{Committed, Achieved, "done"},
	{Committed, Failed, "tried and not reached"},
	{Committed, Abandoned, "stop pursuing it"},

	{Paused, Committed, "resume"},
	{Paused, Abandoned, "let it go instead of resuming"},

	{Failed, Considered, "learn from it and weigh it again"},
	{Failed, Abandoned, "let it go"},

	{Abandoned, Considered, "revive it: weigh it again before committing"},
}

// Next returns the states a goal in state from may move to, in table order
// (none for achieved).
func Next(from GoalState) []GoalState {
	var out []GoalState
	for _, e := range Transitions {
		if e.From == from {
			out = append(out, e.To)
		}
	}
	return out
}

// CanTransition reports whether from → to is in Transitions.
func CanTransition(from, to GoalState) bool { return slices.Contains(Next(from), to) }

// checkTransition returns nil for an allowed move, else an apperr.Conflict
// saying which moves are allowed from the goal's state (for the member, and
// for a model choosing its next call).
func checkTransition(from, to GoalState) error {
	if CanTransition(from, to) {
		return nil
	}
	var msg string
	next := Next(from)
	switch {
	case from == to:
		msg = fmt.Sprintf("the goal is already %s", from)
	case len(next) == 0:
		msg = fmt.Sprintf("a goal cannot move from %s to %s: %s is final", from, to, from)
	default:
		msg = fmt.Sprintf("a goal cannot move from %s to %s", from, to)
	}
	if len(next) > 0 {
		msg += fmt.Sprintf("; from %s it can move to %s", from, joinStates(next))
	}
	return &apperr.Error{Code: apperr.Conflict, Message: msg, Fields: map[string]string{"state": msg}}
}
