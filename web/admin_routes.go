package web

import (
	"context"

	"github.com/labstack/echo/v4"

	"hearth/internal/health"
	"hearth/internal/household"
)

// HouseholdAdmin is what the admin household pages need.
type HouseholdAdmin interface {
	Members(ctx context.Context) ([]health.Member, error)
	Member(ctx context.Context, id string) (health.Member, error)
	CreateMember(ctx context.Context, in household.MemberInput) (health.Member, error)
	UpdateMember(ctx context.Context, in household.MemberInput) (health.Member, error)
	AddGoal(ctx context.Context, member string, in household.GoalInput) (health.Goal, error)
	Goals(ctx context.Context, member string, activeOnly bool) ([]health.Goal, error)
	SetGoalStatus(ctx context.Context, member string, id int64, status string) error
}

// AdminDeps are the services behind the admin area; nil ones hide their pages.
type AdminDeps struct {
	Household HouseholdAdmin
}

// adminRoutes registers everything under the authenticated /admin group.
func (s *Server) adminRoutes(g *echo.Group) {
	g.GET("", s.pageAdmin)
	if s.deps.Admin.Household != nil {
		g.GET("/household", s.adminHousehold)
		g.POST("/household", s.adminMemberCreate)
		g.GET("/household/:member", s.adminMember)
		g.POST("/household/:member", s.adminMemberUpdate)
		g.POST("/household/:member/goals", s.adminGoalCreate)
		g.POST("/household/:member/goals/:goal", s.adminGoalStatus)
	}
}
