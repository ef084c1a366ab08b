package api

import (
	"context"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/health"
	"hearth/internal/lifeplan"
	"hearth/internal/screen"
	"hearth/web/httpkit"
)

// The life plan's JSON API (issue 40), under /api/v1/members/:member/lifeplan.
// A life plan is personal: it opens only for the admin (a session, the
// bearer token, or loopback with neither configured) or on a screen where
// the member unlocked themself with their PIN (lifePlanAccess), never from
// anything the request says. The member comes from the path only; an id of
// another member's goal, belief or note reads as 404, like an unknown one.

// LifePlan is the life-plan service as the API uses it (*lifeplan.Service).
type LifePlan interface {
	Plan(ctx context.Context, member string) (lifeplan.Plan, error)
	SetPurpose(ctx context.Context, member, statement string) (lifeplan.Purpose, error)
	Values(ctx context.Context, member string) ([]lifeplan.Value, error)
	SetValues(ctx context.Context, member string, in []lifeplan.ValueInput) ([]lifeplan.Value, error)
	RankValues(ctx context.Context, member string, ranking []string) ([]lifeplan.Value, error)
	Beliefs(ctx context.Context, member string) ([]lifeplan.Belief, error)
	AddBelief(ctx context.Context, member string, in lifeplan.BeliefInput) (lifeplan.Belief, error)
	SetBeliefState(ctx context.Context, member string, id int64, state lifeplan.BeliefState, conf *float64) (lifeplan.Belief, error)
	SuggestEvidence(ctx context.Context, member string, beliefID int64, source lifeplan.EvidenceSource, note string) (lifeplan.Evidence, error)
	DecideEvidence(ctx context.Context, member string, evidenceID int64, accept bool) (lifeplan.Evidence, error)
	Goals(ctx context.Context, member string) ([]lifeplan.Goal, error)
	AddGoal(ctx context.Context, member string, in lifeplan.GoalInput, who string) (lifeplan.Goal, error)
	TransitionGoal(ctx context.Context, member string, goalID int64, to lifeplan.GoalState, reason, who string) (lifeplan.Goal, error)
	GoalHistory(ctx context.Context, member string, goalID int64) ([]lifeplan.Transition, error)
	LinkFitnessGoal(ctx context.Context, member string, goalID, fitnessGoalID int64) (lifeplan.Goal, error)
	UnlinkFitnessGoalFrom(ctx context.Context, member string, goalID, fitnessGoalID int64) error
	Qualities(ctx context.Context, member string) ([]lifeplan.Quality, error)
	AddQuality(ctx context.Context, member string, in lifeplan.QualityInput) (lifeplan.Quality, error)
}

// AdminCheck says whether a request comes from the admin
// ((*adminauth.Auth).Allowed: a session, the bearer token, or loopback in
// open mode).
type AdminCheck interface {
	Allowed(c echo.Context) bool
}

// ScreenUnlocks are the shared screens' PIN unlocks (*screen.Unlocks, the
// kiosk's own instance).
type ScreenUnlocks interface {
	Unlocked(screen, member string) bool
}

// lifePlanRoutes registers the life plan's routes on their own group, so
// that lifePlanAccess runs before the request middleware (the text gate
// reads a JSON body): an anonymous client never has a body read.
func lifePlanRoutes(e *echo.Echo, deps Deps, mw httpkit.Middleware, members memberCheck) {
	acc := lifePlanAccess{admin: deps.Admin, unlocks: deps.Unlocks, members: members}
	chain := append([]echo.MiddlewareFunc{acc.require}, mw.Request...)
	g := e.Group("/api/v1/members/:member/lifeplan", append(chain, mw.Idempotent)...)
	lp := lifePlan{lp: deps.LifePlan}
	g.GET("", lp.plan)
	g.PUT("/purpose", lp.setPurpose)
	g.GET("/values", listOf("values", lp.lp.Values))
	g.PUT("/values", lp.setValues)
	g.POST("/values/rank", lp.rankValues)
	g.GET("/beliefs", listOf("beliefs", lp.lp.Beliefs))
	g.POST("/beliefs", lp.addBelief)
	g.PATCH("/beliefs/:id", lp.setBelief)
	g.POST("/beliefs/:id/evidence", lp.addEvidence)
	g.POST("/evidence/:id/accept", lp.decide(true))
	g.POST("/evidence/:id/dismiss", lp.decide(false))
	g.GET("/goals", listOf("goals", lp.lp.Goals))
	g.POST("/goals", lp.addGoal)
	g.POST("/goals/:id/transitions", lp.transition)
	g.GET("/goals/:id/history", lp.history)
	g.PUT("/goals/:id/fitness-links/:fitness_goal", lp.link)
	g.DELETE("/goals/:id/fitness-links/:fitness_goal", lp.unlink)
	g.GET("/qualities", listOf("qualities", lp.lp.Qualities))
	g.POST("/qualities", lp.addQuality)
}

// lifePlanAccess is the life plan's access rule.
type lifePlanAccess struct {
	admin   AdminCheck    // nil: nobody is the admin
	unlocks ScreenUnlocks // nil: no screen unlocks a life plan
	members memberCheck
}

// whoKey is where require leaves who the request acts as ("admin" or
// "member"), for the history of goals.
const whoKey = "hearth.lifeplan.who"

// require lets the admin in, or a request from a screen where the path's
// member unlocked themself with their PIN (and it has not locked again);
// anything else is 401 before any body is read. A member not of the household is 404 first (the member list is
// open on the household network anyway). Answers are never cached.
func (a lifePlanAccess) require(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
		m, err := a.members.member(c.Request().Context(), c.Param("member"))
		if err != nil {
			return err
		}
		switch {
		case a.admin != nil && a.admin.Allowed(c):
			c.Set(whoKey, "admin")
		// Only a PIN unlock: a member without a PIN is unlocked on an open
		// screen with a tap, which anyone at the screen can make.
		case m.HasPIN && a.unlocks != nil && a.unlocks.Unlocked(screen.IDOf(c.Request()), m.ID):
			c.Set(whoKey, "member")
		case !m.HasPIN:
			return apperr.New(apperr.Unauthorized, "%s's life plan is private: it opens on a shared screen only with %s's PIN, "+
				"and there is none yet (an admin sets one on Admin → Household); or sign in as the admin.", m.Name, m.Name)
		default:
			return apperr.New(apperr.Unauthorized, "%s's life plan is private: unlock with %s's PIN on this screen, or sign in as the admin.",
				m.Name, m.Name)
		}
		return next(c)
	}
}

// member looks a member up the way exists checks one (NotFound for an id
// not of the household); with no lookup, the id stands for the name.
func (m memberCheck) member(ctx context.Context, id string) (health.Member, error) {
	switch {
	case m.admin != nil:
		return m.admin.Member(ctx, id)
	case m.household != nil:
		return m.household.Member(ctx, id)
	}
	return health.Member{ID: id, Name: id}, nil
}

// who is who the request acts as, set by require.
func who(c echo.Context) string {
	if w, ok := c.Get(whoKey).(string); ok {
		return w
	}
	return "member"
}

type lifePlan struct{ lp LifePlan }

func (h lifePlan) plan(c echo.Context) error {
	p, err := h.lp.Plan(c.Request().Context(), c.Param("member"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, planJSON(p))
}

// planJSON gives the lists of a plan as [] rather than null.
func planJSON(p lifeplan.Plan) lifeplan.Plan {
	p.Values, p.Beliefs, p.Goals, p.Qualities = orEmpty(p.Values), orEmpty(p.Beliefs), orEmpty(p.Goals), orEmpty(p.Qualities)
	return p
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

type purposeBody struct {
	Statement *string `json:"statement"`
}

func (h lifePlan) setPurpose(c echo.Context) error {
	var b purposeBody
	if err := httpkit.BindJSON(c, &b); err != nil {
		return err
	}
	if b.Statement == nil {
		return apperr.FieldErrors(map[string]string{"statement": "is required"})
	}
	p, err := h.lp.SetPurpose(c.Request().Context(), c.Param("member"), *b.Statement)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, p)
}

type valueBody struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

type valuesBody struct {
	// Values is required: a body without it must not clear the list.
	Values *[]valueBody `json:"values"`
}

func (h lifePlan) setValues(c echo.Context) error {
	var b valuesBody
	if err := httpkit.BindJSON(c, &b); err != nil {
		return err
	}
	if b.Values == nil {
		return apperr.FieldErrors(map[string]string{"values": "is required (an empty list clears the values)"})
	}
	in := make([]lifeplan.ValueInput, len(*b.Values))
	for i, v := range *b.Values {
		in[i] = lifeplan.ValueInput{Name: v.Name, Description: v.Description}
	}
	vs, err := h.lp.SetValues(c.Request().Context(), c.Param("member"), in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"values": orEmpty(vs)})
}

type rankBody struct {
	Ranking []string `json:"ranking"`
}

func (h lifePlan) rankValues(c echo.Context) error {
	var b rankBody
	if err := httpkit.BindJSON(c, &b); err != nil {
		return err
	}
	vs, err := h.lp.RankValues(c.Request().Context(), c.Param("member"), b.Ranking)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"values": orEmpty(vs)})
}

type beliefBody struct {
	If         string   `json:"if"`
	Then       string   `json:"then"`
	Confidence *float64 `json:"confidence"`
}

func (h lifePlan) addBelief(c echo.Context) error {
	var b beliefBody
	if err := httpkit.BindJSON(c, &b); err != nil {
		return err
	}
	bl, err := h.lp.AddBelief(c.Request().Context(), c.Param("member"),
		lifeplan.BeliefInput{If: b.If, Then: b.Then, Confidence: b.Confidence})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, bl)
}

type beliefPatchBody struct {
	State      string   `json:"state"`
	Confidence *float64 `json:"confidence"`
}

func (h lifePlan) setBelief(c echo.Context) error {
	id, err := httpkit.PositiveID(c, "belief")
	if err != nil {
		return err
	}
	var b beliefPatchBody
	if err := httpkit.BindJSON(c, &b); err != nil {
		return err
	}
	bl, err := h.lp.SetBeliefState(c.Request().Context(), c.Param("member"), id, lifeplan.BeliefState(b.State), b.Confidence)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, bl)
}

type evidenceBody struct {
	Text string `json:"text"`
}

// addEvidence is a note the member writes on their belief: it counts as
// evidence as written (a coach's suggestion comes from the coach's tools,
// and waits for the member's accept or dismiss).
func (h lifePlan) addEvidence(c echo.Context) error {
	id, err := httpkit.PositiveID(c, "belief")
	if err != nil {
		return err
	}
	var b evidenceBody
	if err := httpkit.BindJSON(c, &b); err != nil {
		return err
	}
	e, err := h.lp.SuggestEvidence(c.Request().Context(), c.Param("member"), id, lifeplan.FromMember, b.Text)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, e)
}

// decide is the member accepting or dismissing a suggested note; the path
// says which, there is no body.
func (h lifePlan) decide(accept bool) echo.HandlerFunc {
	return func(c echo.Context) error {
		id, err := httpkit.PositiveID(c, "evidence note")
		if err != nil {
			return err
		}
		e, err := h.lp.DecideEvidence(c.Request().Context(), c.Param("member"), id, accept)
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, e)
	}
}

type goalBody struct {
	Name     string `json:"name"`
	Why      string `json:"why"`
	State    string `json:"state"`
	ParentID *int64 `json:"parent_id"`
}

func (h lifePlan) addGoal(c echo.Context) error {
	var b goalBody
	if err := httpkit.BindJSON(c, &b); err != nil {
		return err
	}
	g, err := h.lp.AddGoal(c.Request().Context(), c.Param("member"),
		lifeplan.GoalInput{Name: b.Name, Why: b.Why, State: lifeplan.GoalState(b.State), ParentID: b.ParentID}, who(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, g)
}

type transitionBody struct {
	To     string `json:"to"`
	Reason string `json:"reason"`
}

// transition moves a goal: a move the state graph refuses is 409 with a
// message naming the moves allowed from the goal's state.
func (h lifePlan) transition(c echo.Context) error {
	id, err := httpkit.PositiveID(c, "goal")
	if err != nil {
		return err
	}
	var b transitionBody
	if err := httpkit.BindJSON(c, &b); err != nil {
		return err
	}
	g, err := h.lp.TransitionGoal(c.Request().Context(), c.Param("member"), id, lifeplan.GoalState(b.To), b.Reason, who(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, g)
}

func (h lifePlan) history(c echo.Context) error {
	id, err := httpkit.PositiveID(c, "goal")
	if err != nil {
		return err
	}
	ts, err := h.lp.GoalHistory(c.Request().Context(), c.Param("member"), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"history": orEmpty(ts)})
}

// fitnessGoalID reads :fitness_goal (a Hearth fitness goal's id).
func fitnessGoalID(c echo.Context) (int64, error) {
	id, err := strconv.ParseInt(c.Param("fitness_goal"), 10, 64)
	if err != nil || id < 1 {
		return 0, apperr.NotFoundf("no fitness goal %q", c.Param("fitness_goal"))
	}
	return id, nil
}

// link puts the member's fitness goal under their life-plan goal (moving
// it from the one it served, if any); the path says it all, no body.
func (h lifePlan) link(c echo.Context) error {
	id, err := httpkit.PositiveID(c, "goal")
	if err != nil {
		return err
	}
	fid, err := fitnessGoalID(c)
	if err != nil {
		return err
	}
	g, err := h.lp.LinkFitnessGoal(c.Request().Context(), c.Param("member"), id, fid)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, g)
}

func (h lifePlan) unlink(c echo.Context) error {
	id, err := httpkit.PositiveID(c, "goal")
	if err != nil {
		return err
	}
	fid, err := fitnessGoalID(c)
	if err != nil {
		return err
	}
	if err := h.lp.UnlinkFitnessGoalFrom(c.Request().Context(), c.Param("member"), id, fid); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

type qualityBody struct {
	Name string `json:"name"`
	Why  string `json:"why"`
}

func (h lifePlan) addQuality(c echo.Context) error {
	var b qualityBody
	if err := httpkit.BindJSON(c, &b); err != nil {
		return err
	}
	q, err := h.lp.AddQuality(c.Request().Context(), c.Param("member"), lifeplan.QualityInput{Name: b.Name, Why: b.Why})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, q)
}

// listOf answers GET for one of the plan's lists as {key: [...]}, [] when
// empty, for the path's member.
func listOf[T any](key string, read func(ctx context.Context, member string) ([]T, error)) echo.HandlerFunc {
	return func(c echo.Context) error {
		xs, err := read(c.Request().Context(), c.Param("member"))
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, map[string]any{key: orEmpty(xs)})
	}
}
