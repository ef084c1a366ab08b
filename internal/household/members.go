package household

import (
	"context"
	"regexp"
	"strings"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/health"
	"hearth/internal/live"
)

var (
	slugRe  = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,39}$`)
	colorRe = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)
)

// MemberInput is a member as edited by an admin; GoalWeight is in Unit.
type MemberInput struct {
	ID, Name, Color, Avatar string
	Unit                    health.Unit
	Calories, ProteinG      *float64
	CarbsG, FatG            *float64
	GoalWeight, HeightCm    *float64
	BirthDate               string // YYYY-MM-DD or ""
	Sex, ActivityLevel      string
	PrivateFigures          bool
}

var activityLevels = map[string]bool{"": true, "sedentary": true, "light": true, "moderate": true, "active": true, "very_active": true}

func (in MemberInput) validate(creating bool) (health.Member, error) {
	f := fieldErrs{}
	m := health.Member{ID: strings.TrimSpace(in.ID), Name: strings.TrimSpace(in.Name), Color: in.Color,
		Avatar: strings.TrimSpace(in.Avatar), Unit: in.Unit, Sex: in.Sex, ActivityLevel: in.ActivityLevel,
		HeightCm: in.HeightCm, PrivateFigures: in.PrivateFigures,
		Targets: health.Targets{Calories: in.Calories, ProteinG: in.ProteinG, CarbsG: in.CarbsG, FatG: in.FatG}}
	if creating {
		f.check(slugRe.MatchString(m.ID), "id", "must be 1-40 lowercase letters, digits or dashes")
	}
	f.check(m.Name != "" && len([]rune(m.Name)) <= 80, "name", "is required (at most 80 characters)")
	if m.Color == "" {
		m.Color = "#4f8cff"
	}
	f.check(colorRe.MatchString(m.Color), "color", "must be a colour like #4f8cff")
	f.check(len([]rune(m.Avatar)) <= 8, "avatar", "must be at most 8 characters (an emoji or initials)")
	if m.Unit == "" {
		m.Unit = health.KG
	}
	f.check(m.Unit == health.KG || m.Unit == health.LB, "unit", "must be kg or lb")
	optRange(f, in.Calories, "calories", 800, 6000)
	optRange(f, in.ProteinG, "protein_g", 0, 500)
	optRange(f, in.CarbsG, "carbs_g", 0, 1000)
	optRange(f, in.FatG, "fat_g", 0, 400)
	optRange(f, in.HeightCm, "height_cm", 50, 250)
	if in.GoalWeight != nil {
		kg := m.Unit.ToKg(*in.GoalWeight)
		f.check(finite(kg) && kg >= 20 && kg <= 300, "goal_weight", "must be a plausible weight")
		kg = round(kg, 2)
		m.GoalWeightKg = &kg
	}
	if in.BirthDate != "" {
		b, err := time.Parse(time.DateOnly, in.BirthDate)
		f.check(err == nil && b.Year() >= 1900 && b.Before(time.Now()), "birth_date", "must be a date like 1988-04-12")
		if err == nil {
			m.BirthDate = &b
		}
	}
	f.check(m.Sex == "" || m.Sex == "female" || m.Sex == "male", "sex", "must be female, male or empty")
	f.check(activityLevels[m.ActivityLevel], "activity_level", "must be one of sedentary, light, moderate, active, very_active")
	return m, f.err()
}

// CreateMember validates and adds a member.
func (s *Service) CreateMember(ctx context.Context, in MemberInput) (health.Member, error) {
	m, err := in.validate(true)
	if err != nil {
		return m, err
	}
	m, err = s.db.CreateMember(ctx, m)
	if err != nil {
		return m, err
	}
	s.membersChanged(m.ID)
	return m, nil
}

// UpdateMember validates and saves a member's editable fields.
func (s *Service) UpdateMember(ctx context.Context, in MemberInput) (health.Member, error) {
	m, err := in.validate(false)
	if err != nil {
		return m, err
	}
	if err := s.db.UpdateMember(ctx, m); err != nil {
		return m, err
	}
	s.membersChanged(m.ID)
	return s.db.Member(ctx, m.ID)
}

// GoalInput is a goal as entered.
type GoalInput struct {
	Kind, Description, Unit string
	Target                  *float64
	TargetDate              string
}

var goalKinds = map[string]bool{"weight": true, "protein": true, "workouts_per_week": true, "habit": true, "custom": true}

// AddGoal validates and adds a goal for a member.
func (s *Service) AddGoal(ctx context.Context, member string, in GoalInput) (health.Goal, error) {
	if _, err := s.db.Member(ctx, member); err != nil {
		return health.Goal{}, err
	}
	f := fieldErrs{}
	desc := strings.TrimSpace(in.Description)
	f.check(goalKinds[in.Kind], "kind", "must be weight, protein, workouts_per_week, habit or custom")
	f.check(desc != "" && len([]rune(desc)) <= 200, "description", "is required (at most 200 characters)")
	if in.Target != nil {
		f.check(finite(*in.Target), "target", "must be a number")
	}
	g := health.Goal{MemberID: member, Kind: in.Kind, Description: desc, Target: in.Target, Unit: strings.TrimSpace(in.Unit)}
	if in.TargetDate != "" {
		d, err := time.Parse(time.DateOnly, in.TargetDate)
		f.check(err == nil, "target_date", "must be a date like 2026-06-30")
		g.TargetDate = &d
	}
	if err := f.err(); err != nil {
		return g, err
	}
	g, err := s.db.AddGoal(ctx, g)
	if err != nil {
		return g, err
	}
	s.membersChanged(member)
	return g, nil
}

// Goals lists a member's goals.
func (s *Service) Goals(ctx context.Context, member string, activeOnly bool) ([]health.Goal, error) {
	return s.db.Goals(ctx, member, activeOnly)
}

// SetGoalStatus marks a goal active, achieved or dropped.
func (s *Service) SetGoalStatus(ctx context.Context, member string, id int64, status string) error {
	if status != "active" && status != "achieved" && status != "dropped" {
		return apperr.FieldErrors(map[string]string{"status": "must be active, achieved or dropped"})
	}
	if err := s.db.SetGoalStatus(ctx, member, id, status); err != nil {
		return err
	}
	s.membersChanged(member)
	return nil
}

// SetPrivateFigures turns a member's "private figures" flag on or off and
// tells their screens and the household view.
func (s *Service) SetPrivateFigures(ctx context.Context, member string, on bool) error {
	if err := s.db.SetPrivateFigures(ctx, member, on); err != nil {
		return err
	}
	if s.pub != nil {
		s.pub.Publish(live.MemberTopic(member), live.KindPrivacy, member)
		s.pub.Publish(live.TopicHousehold, live.KindPrivacy, member)
	}
	return nil
}

func (s *Service) membersChanged(member string) {
	if s.pub == nil {
		return
	}
	s.pub.Publish(live.MemberTopic(member), live.KindMember, nil)
	s.pub.Publish(live.TopicHousehold, live.KindMember, member)
	s.pub.Publish(live.TopicAdmin, live.KindMember, member)
}
