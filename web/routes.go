package web

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

// Deps are the services handlers call; each is an interface declared by the
// handler group that uses it.
type Deps struct {
	Household Household
	Ping      func(ctx context.Context) error
	Admin     AdminDeps
}

// routes is the whole route table.
func (s *Server) routes(e *echo.Echo) {
	e.GET("/healthz", s.healthz)
	if s.opt.Static != nil {
		e.StaticFS("/static", s.opt.Static)
	}

	// Kiosk pages: household network, no login.
	e.GET("/", s.pageHousehold)
	e.GET("/m/:member", s.pageMember)
	e.POST("/m/:member/weight", s.formWeight)
	e.POST("/m/:member/meal", s.formMeal)
	e.POST("/m/:member/workout", s.formWorkout)

	// Household JSON API.
	api := e.Group("/api/v1", middleware.BodyLimit("1M"))
	api.GET("/members", s.apiMembers)
	api.GET("/members/:member/weight", s.apiWeightList)
	api.POST("/members/:member/weight", s.apiWeightCreate)
	api.GET("/members/:member/meals", s.apiMealList)
	api.POST("/members/:member/meals", s.apiMealCreate)
	api.GET("/members/:member/workouts", s.apiWorkoutList)
	api.POST("/members/:member/workouts", s.apiWorkoutCreate)
	api.GET("/members/:member/body-scans", s.apiScanList)
	api.POST("/members/:member/body-scans", s.apiScanCreate)

	// Admin area.
	e.GET("/admin/login", s.pageLogin)
	e.POST("/admin/login", s.login)
	e.POST("/admin/logout", s.logout)
	s.adminRoutes(e.Group("/admin", s.requireAdmin))
}

func (s *Server) healthz(c echo.Context) error {
	if s.deps.Ping != nil {
		if err := s.deps.Ping(c.Request().Context()); err != nil {
			s.log.Error("healthz", "err", err)
			return c.JSON(http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "error": "database unavailable"})
		}
	}
	return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
}
