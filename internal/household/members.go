package household

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"golang.org/x/crypto/bcrypt"

	"hearth/internal/apperr"
	"hearth/internal/health"
	"hearth/internal/live"
	"hearth/internal/text"
)

var (
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
	// Role is adult, child or guest ("" keeps adult).
	Role health.Role
}

var activityLevels = map[string]bool{"": true, "sedentary": true, "light": true, "moderate": true, "active": true, "very_active": true}

func (in MemberInput) validate(creating bool) (health.Member, error) {
	f := fieldErrs{}
	m := health.Member{ID: strings.TrimSpace(in.ID), Name: text.Required(f, "name", text.Line, in.Name, 80), Color: in.Color,
		Avatar: text.Field(f, "avatar", text.Line, in.Avatar, 8), Unit: in.Unit, Sex: in.Sex, ActivityLevel: in.ActivityLevel,
		HeightCm: in.HeightCm, PrivateFigures: in.PrivateFigures,
		Targets: health.Targets{Calories: in.Calories, ProteinG: in.ProteinG, CarbsG: in.CarbsG, FatG: in.FatG}}
	if creating {
		f.check(health.ValidMemberID(m.ID), "id", "must be 1-40 lowercase letters, digits or dashes")
	}
	if m.Color == "" {
		m.Color = "#4f8cff"
	}
	f.check(colorRe.MatchString(m.Color), "color", "must be a colour like #4f8cff")
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
	m.Role = in.Role.OrAdult()
	f.check(m.Role.Valid(), "role", "must be adult, child or guest")
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

// goalYearsAhead is the furthest a goal date may lie.
const goalYearsAhead = 20

// goalRange is the sane range of a goal's target by kind: a weight in kg
// or lb, grams of protein a day, sessions a week; habits and custom goals
// count something (days, steps, minutes).
func goalRange(kind string) (float64, float64) {
	switch kind {
	case "weight":
		return 2, 882 // kg or lb, as the weigh-in range
	case "protein":
		return 0, 500
	case "workouts_per_week":
		return 0, 21
	}
	return 0, 1_000_000
}

var goalKinds = map[string]bool{"weight": true, "protein": true, "workouts_per_week": true, "habit": true, "custom": true}

// AddGoal validates and adds a goal for a member.
func (s *Service) AddGoal(ctx context.Context, member string, in GoalInput) (health.Goal, error) {
	if _, err := s.db.Member(ctx, member); err != nil {
		return health.Goal{}, err
	}
	f := fieldErrs{}
	desc := text.Required(f, "description", text.Line, in.Description, 200)
	f.check(goalKinds[in.Kind], "kind", "must be weight, protein, workouts_per_week, habit or custom")
	if in.Target != nil {
		lo, hi := goalRange(in.Kind)
		f.check(finite(*in.Target) && *in.Target >= lo && *in.Target <= hi, "target", fmt.Sprintf("must be between %g and %g", lo, hi))
	}
	g := health.Goal{MemberID: member, Kind: in.Kind, Description: desc, Target: in.Target, Unit: text.Field(f, "unit", text.Line, in.Unit, 16)}
	if in.TargetDate != "" {
		d, err := time.Parse(time.DateOnly, in.TargetDate)
		now := s.now()
		f.check(err == nil, "target_date", "must be a date like 2026-06-30")
		f.check(err != nil || (d.Year() >= 2000 && d.Before(now.AddDate(goalYearsAhead, 0, 0))), "target_date",
			fmt.Sprintf("must be a date between 2000 and %d", now.Year()+goalYearsAhead))
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

// PIN rules: 4 to 8 digits, typed on a wall screen's keypad.
var pinRe = regexp.MustCompile(`^[0-9]{4,8}$`)

// SetPIN sets a member's PIN for shared screens ("" removes it). Only a
// bcrypt hash is stored.
func (s *Service) SetPIN(ctx context.Context, member, pin string) error {
	hash := ""
	if pin != "" {
		if !pinRe.MatchString(pin) {
			return apperr.FieldErrors(map[string]string{"pin": "A PIN is 4 to 8 digits."})
		}
		b, err := bcrypt.GenerateFromPassword([]byte(pin), bcrypt.DefaultCost)
		if err != nil {
			return fmt.Errorf("household: hash PIN: %w", err)
		}
		hash = string(b)
	}
	if err := s.db.SetMemberPIN(ctx, member, hash); err != nil {
		return err
	}
	s.membersChanged(member)
	return nil
}

// CheckPIN reports whether pin is the member's PIN (false when they have
// none).
func (s *Service) CheckPIN(ctx context.Context, member, pin string) (bool, error) {
	hash, err := s.db.MemberPINHash(ctx, member)
	if err != nil || hash == "" {
		return false, err
	}
	if len(pin) > 16 { // bcrypt's work for nothing: no PIN is this long
		return false, nil
	}
	return bcrypt.CompareHashAndPassword([]byte(hash), []byte(pin)) == nil, nil
}

func (s *Service) membersChanged(member string) {
	if s.pub == nil {
		return
	}
	s.pub.Publish(live.MemberTopic(member), live.KindMember, nil)
	s.pub.Publish(live.TopicHousehold, live.KindMember, member)
	s.pub.Publish(live.TopicAdmin, live.KindMember, member)
}
