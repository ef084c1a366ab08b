package coach

import "hearth/internal/health"

// Mutant is a deliberately broken heuristic coach: one judgement switched
// off. The eval runs each (hearth eval --mutants; internal/eval's
// TestCoachMutantsAreKilled) and its scenarios must catch every one, or a
// check is looser than it says. Set through Deps.Mutant by the eval's
// instances only; the zero value is the coach as it is.
type Mutant string

// The mutants, each named for what it ignores.
const (
	// MutantIgnoreInjuries: what the member said about an injury does not
	// steer the picks and is not acknowledged.
	MutantIgnoreInjuries Mutant = "ignore-injuries"
	// MutantIgnoreBodyAreas: injuries still rule out high impact, but not
	// content that loads the injured area.
	MutantIgnoreBodyAreas Mutant = "ignore-body-areas"
	// MutantIgnoreRecovery: a run of hard days earns no recovery day.
	MutantIgnoreRecovery Mutant = "ignore-recovery"
	// MutantAnyAlternate: on a recovery (or take-it-easy) day the
	// alternates may be any kind.
	MutantAnyAlternate Mutant = "any-alternate-on-recovery"
	// MutantIgnoreUnit: weights in kg for every member.
	MutantIgnoreUnit Mutant = "ignore-unit"
	// MutantIgnoreGoalDate: a goal's target date that passed is not raised.
	MutantIgnoreGoalDate Mutant = "ignore-goal-date"
	// MutantIgnoreLoggedSessions: sessions logged with a program's content
	// neither advance nor anchor the program.
	MutantIgnoreLoggedSessions Mutant = "ignore-logged-sessions"
	// MutantIgnoreTrend: no plateau and no weight moving away from the goal.
	MutantIgnoreTrend Mutant = "ignore-trend"
	// MutantIgnoreLowWeight: no safety at a low body weight or intake.
	MutantIgnoreLowWeight Mutant = "ignore-low-weight"
	// MutantIgnoreCalorieTarget: a day over the calorie target is not said.
	MutantIgnoreCalorieTarget Mutant = "ignore-calorie-target"
	// MutantReaskAnswered: prompts already answered or dropped are asked
	// again.
	MutantReaskAnswered Mutant = "reask-answered"
	// MutantIgnoreAbsence: weeks without a workout are not an absence (no
	// welcome back, no gentle restart).
	MutantIgnoreAbsence Mutant = "ignore-absence"
	// MutantIgnoreConditions: a health condition the member stated
	// (pregnancy, osteoporosis, a heart condition) changes nothing.
	MutantIgnoreConditions Mutant = "ignore-conditions"
	// MutantIgnoreAge: the member's age (a minor, an older adult) is not
	// in the facts.
	MutantIgnoreAge Mutant = "ignore-age"
	// MutantIgnoreHistory: records older than the recent windows (years
	// of imports) are not read: a member with only such history is a new
	// member with no data.
	MutantIgnoreHistory Mutant = "ignore-history"
)

// Mutants lists every mutant.
func Mutants() []Mutant {
	return []Mutant{MutantIgnoreInjuries, MutantIgnoreBodyAreas, MutantIgnoreRecovery, MutantAnyAlternate, MutantIgnoreUnit,
		MutantIgnoreGoalDate, MutantIgnoreLoggedSessions, MutantIgnoreTrend, MutantIgnoreLowWeight, MutantIgnoreCalorieTarget,
		MutantReaskAnswered, MutantIgnoreAbsence, MutantIgnoreConditions, MutantIgnoreAge, MutantIgnoreHistory}
}

// mutateFacts switches the mutant's judgement off in the facts read
// (before the updates are derived from them).
func (c *core) mutateFacts(g *Gathered) {
	g.mutant = c.mutant
	switch c.mutant {
	case MutantIgnoreLoggedSessions:
		g.Training.Completed = nil
	case MutantIgnoreTrend:
		g.Weight.Plateau, g.Weight.MovingAway = false, false
	case MutantIgnoreAge:
		g.Member.Age, g.Member.LifeStage = 0, ""
	case MutantIgnoreHistory:
		g.History = HistoryView{}
	}
}

// mutateSafety switches the mutant's judgement off in the follow-ups and
// the safety rules (before the goals are cared for by them).
func (g *Gathered) mutateSafety() {
	switch g.mutant {
	case MutantReaskAnswered:
		g.FollowUps.Answered, g.FollowUps.Dropped = nil, nil
	case MutantIgnoreBodyAreas:
		g.Safety.AvoidAreas = nil
	case MutantIgnoreInjuries:
		s := &g.Safety
		s.Injuries, s.AvoidAreas, s.FollowUps = nil, nil, nil
		s.AvoidHighImpact = s.ConditionImpact || s.LifeStage == lifeStageOlder // what is left without the injuries
	case MutantIgnoreLowWeight:
		s := &g.Safety
		s.LowBodyWeight, s.LowIntake = false, false
		s.NoWeightLossPush, s.AvoidHighIntensity = s.ConditionPush || s.LifeStage == lifeStageMinor, s.ConditionIntensity
	}
}

// mutateGaps switches the mutant's judgement off in the gaps.
func (g *Gathered) mutateGaps() {
	switch g.mutant {
	case MutantIgnoreRecovery:
		g.Gaps.HardDays = 0
	case MutantIgnoreAbsence:
		g.Gaps.LongAbsence = false
	}
}

// memberUnit is the unit weights are written in (kg for MutantIgnoreUnit).
func (c *core) memberUnit(u health.Unit) health.Unit {
	if c.mutant == MutantIgnoreUnit {
		return health.KG
	}
	return u
}
