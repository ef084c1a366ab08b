package talos

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"hearth/internal/agent"
	"hearth/internal/apperr"
	"hearth/internal/health"
	"hearth/internal/homeassistant"
	"hearth/internal/live"
)

// ConfirmWithin is how long a gated action waits for an adult's tap; then
// it is refused (timed out), the safe side.
const ConfirmWithin = 2 * time.Minute

// Household is who lives here: each member's role, and the adults who may
// confirm.
type Household interface {
	Member(ctx context.Context, id string) (health.Member, error)
	Members(ctx context.Context) ([]health.Member, error)
}

// ErrRefused wraps every refusal by the policy, for callers that tell a
// refusal from an adapter's error.
var ErrRefused = errors.New("refused by the household's policy")

// Gate applies the policy to Talos's tools: it wraps each tool so a call is
// decided, recorded and, when the policy says so, held for an adult.
type Gate struct {
	store     *Store
	household Household
	confirm   *Confirmations
	loc       *time.Location
	now       func() time.Time
	pub       live.Publisher
	log       *slog.Logger
}

// GateOptions are a Gate's dependencies.
type GateOptions struct {
	Store     *Store
	Household Household
	Confirm   *Confirmations
	// Location is the household's time zone (quiet hours).
	Location *time.Location
	Now      func() time.Time
	Pub      live.Publisher // nil: nobody is told
	Log      *slog.Logger
}

// NewGate returns a gate.
func NewGate(o GateOptions) *Gate {
	if o.Location == nil {
		o.Location = time.Local
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	g := &Gate{store: o.Store, household: o.Household, confirm: o.Confirm, loc: o.Location, now: o.Now, pub: o.Pub, log: o.Log}
	if o.Confirm != nil {
		o.Confirm.changed = g.changed
	}
	return g
}

// Role is member's role ("" member: a screen's guest).
func (g *Gate) Role(ctx context.Context, member string) (health.Role, error) {
	if member == "" {
		return health.RoleGuest, nil
	}
	m, err := g.household.Member(ctx, member)
	if err != nil {
		return "", err
	}
	return m.Role.OrAdult(), nil
}

// Offered are the tools member's role may use, for the model's request.
func (g *Gate) Offered(ctx context.Context, member string, tools []string) ([]string, error) {
	role, err := g.Role(ctx, member)
	if err != nil {
		return nil, err
	}
	p, err := g.store.Policy(ctx)
	if err != nil {
		return nil, err
	}
	return p.Offered(role, tools), nil
}

// Wrap returns tools gated: same names, descriptions and parameters; each
// call decided by the policy for the run's member (the Scope's, never an
// argument's).
func (g *Gate) Wrap(tools []agent.Tool) []agent.Tool {
	out := make([]agent.Tool, len(tools))
	for i, t := range tools {
		inner := t
		t.Execute = func(ctx context.Context, scope agent.Scope, args json.RawMessage) (any, error) {
			return g.call(ctx, scope, inner, args)
		}
		out[i] = t
	}
	return out
}

// Held is what a held call returns to the model: it happens only once
// an adult confirms on the screen.
type Held struct {
	Status    string   `json:"status"` // waiting_for_confirmation
	Question  string   `json:"question"`
	ConfirmBy []string `json:"confirm_by"`
	Until     string   `json:"until"`
	Note      string   `json:"note"`
}

func (g *Gate) call(ctx context.Context, scope agent.Scope, t agent.Tool, args json.RawMessage) (any, error) {
	role, err := g.Role(ctx, scope.MemberID)
	if err != nil {
		return nil, err
	}
	p, err := g.store.Policy(ctx)
	if err != nil {
		return nil, err
	}
	c, err := Describe(t.Name, args)
	var refusal *Refusal
	if err != nil && !errors.As(err, &refusal) {
		return nil, err
	}
	now := g.now()
	recent := 0
	if c.Action && refusal == nil {
		if recent, err = g.store.recentActions(ctx, scope.MemberID, now.Add(-time.Hour)); err != nil {
			return nil, err
		}
	}
	d := p.Evaluate(role, c, now.In(g.loc), recent)
	if refusal != nil { // arguments reaching beyond the one entity
		d = Decision{Denied, refusal.Rule, refusal.Reason}
	}
	if d.Outcome == Allowed && c.Service != "" {
		// Unlocking and disarming never happen on a chat's word alone: a
		// policy that does not hold them for an adult refuses them.
		dom, svc, _ := strings.Cut(c.Service, ".")
		if why := homeassistant.Sensitive(dom, svc); why != "" {
			d = Decision{Denied, string(role) + ".sensitive", why + " always waits for an adult: add it to the role's confirm patterns"}
		}
	}
	if d.Outcome == Waiting && (role != health.RoleAdult && role != health.RoleChild) {
		d = Decision{Denied, string(role) + ".confirm", "a guest's request cannot wait for an adult: " + d.Reason}
	}
	rec := Record{Member: scope.MemberID, Role: role, Tool: t.Name, Target: c.target(), Action: c.Words(), Args: args,
		Outcome: d.Outcome, Rule: d.Rule, Reason: d.Reason}
	if scope.RunID > 0 {
		rec.RunID = &scope.RunID
	}
	switch {
	case d.Outcome == Denied:
		if err := g.store.add(ctx, &rec); err != nil {
			return nil, err
		}
		g.changed(scope.MemberID)
		return nil, &Refusal{Rule: d.Rule, Reason: d.Reason}
	case d.Outcome == Waiting:
		return g.hold(ctx, scope, rec, c)
	case !c.Action:
		v, err := t.Execute(ctx, scope, args)
		if err != nil {
			return nil, err
		}
		return visible(p, role, v), nil
	}
	if err := g.store.add(ctx, &rec); err != nil {
		return nil, err
	}
	v, err := t.Execute(ctx, scope, args)
	if err != nil {
		_ = g.store.setResult(ctx, rec.ID, "failed: "+err.Error())
	} else {
		_ = g.store.setResult(ctx, rec.ID, "done")
	}
	g.changed(scope.MemberID)
	return v, err
}

// hold records a waiting decision and asks for an adult's confirmation.
func (g *Gate) hold(ctx context.Context, scope agent.Scope, rec Record, c Call) (any, error) {
	if g.confirm == nil || scope.MemberID == "" {
		rec.Outcome, rec.Reason = Denied, rec.Reason+"; nobody can confirm on this screen"
		if err := g.store.add(ctx, &rec); err != nil {
			return nil, err
		}
		return nil, &Refusal{Rule: rec.Rule, Reason: rec.Reason}
	}
	adults, err := g.Adults(ctx)
	if err != nil {
		return nil, err
	}
	if len(adults) == 0 {
		rec.Outcome, rec.Rule, rec.Reason = Denied, "household.no_adult", "it needs an adult's confirmation and the household has no adult"
		if err := g.store.add(ctx, &rec); err != nil {
			return nil, err
		}
		return nil, &Refusal{Rule: rec.Rule, Reason: rec.Reason}
	}
	until := g.now().Add(ConfirmWithin)
	rec.ExpiresAt = &until
	if err := g.store.add(ctx, &rec); err != nil {
		return nil, err
	}
	if err := g.confirm.start(ctx, rec); err != nil {
		_, _ = g.store.settle(context.WithoutCancel(ctx), rec.ID, Refused, "", "could not ask for confirmation: "+err.Error())
		return nil, err
	}
	g.changed(scope.MemberID)
	names := make([]string, len(adults))
	for i, a := range adults {
		names[i] = a.Name
	}
	return Held{Status: "waiting_for_confirmation", Question: c.Question(), ConfirmBy: names,
		Until: until.In(g.loc).Format("15:04"),
		Note:  "Nothing has happened yet: it happens only if one of these adults confirms on this screen within 2 minutes. Say so."}, nil
}

// Adults are the members who may confirm a held action.
func (g *Gate) Adults(ctx context.Context) ([]health.Member, error) {
	ms, err := g.household.Members(ctx)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(ms, func(m health.Member) bool { return m.Role.OrAdult() != health.RoleAdult }), nil
}

// changed tells the member's screens and the admin that a decision was
// recorded or settled.
func (g *Gate) changed(member string) {
	if g.pub == nil {
		return
	}
	g.pub.Publish(live.TopicAdmin, live.KindPolicy, member)
	if member != "" {
		g.pub.Publish(live.MemberTopic(member), live.KindPolicy, member)
	}
}

// visible leaves out of a listing the entities role may not use: the model
// never learns of a lock a child cannot touch.
func visible(p Policy, role health.Role, v any) any {
	l, ok := v.(homeassistant.EntityList)
	if !ok {
		return v
	}
	kept := l.Entities[:0:0]
	for _, e := range l.Entities {
		if p.EntityVisible(role, e.EntityID) {
			kept = append(kept, e)
		}
	}
	hidden := len(l.Entities) - len(kept)
	l.Entities, l.Shown, l.Total = kept, len(kept), l.Total-hidden
	return l
}

// Describe reads a call's arguments as the policy sees them. Arguments
// that try to act beyond the one named entity are refused here, before
// any policy rule: a second entity in data would slip past the entity
// check.
func Describe(tool string, args json.RawMessage) (Call, error) {
	c := Call{Tool: tool, Action: IsAction(tool)}
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	switch tool {
	case ToolGetState:
		var a homeassistant.GetArgs
		if err := json.Unmarshal(args, &a); err != nil {
			return c, apperr.Invalidf("arguments: %v", err)
		}
		c.Entity = strings.ToLower(strings.TrimSpace(a.EntityID))
	case ToolCallService:
		var a homeassistant.CallArgs
		if err := json.Unmarshal(args, &a); err != nil {
			return c, apperr.Invalidf("arguments: %v", err)
		}
		c.Entity = strings.ToLower(strings.TrimSpace(a.EntityID))
		if c.Entity == "" {
			return c, apperr.Invalidf("entity_id is required")
		}
		c.Service = strings.ToLower(strings.TrimSpace(a.Domain)) + "." + strings.ToLower(strings.TrimSpace(a.Service))
		if a.Data != nil {
			for _, k := range []string{"entity_id", "area_id", "device_id", "floor_id", "label_id"} {
				if _, ok := (*a.Data)[k]; ok {
					return c, &Refusal{Rule: "call.one_entity", Reason: "a call acts on the one entity_id given, and data named " + k}
				}
			}
			for _, k := range []string{"temperature", "target_temp_high", "target_temp_low"} {
				if f, ok := (*a.Data)[k].(float64); ok {
					c.Temperature = &f
				}
			}
		}
	case ToolPlay:
		var a struct {
			Client string `json:"client"`
		}
		_ = json.Unmarshal(args, &a)
		c.Target = strings.TrimSpace(a.Client)
	}
	return c, nil
}

// target is what the call acts on, for the log.
func (c Call) target() string {
	if c.Entity != "" {
		return c.Entity
	}
	return c.Target
}

// Words says what the call would do ("lock.unlock on lock.front_door").
func (c Call) Words() string {
	switch {
	case c.Service != "":
		s := c.Service + " on " + c.Entity
		if c.Temperature != nil {
			s += fmt.Sprintf(" (%g °C)", *c.Temperature)
		}
		return s
	case c.Tool == ToolPlay:
		return "play on " + c.Target
	case c.Entity != "":
		return "read " + c.Entity
	}
	return c.Tool
}

// Question is what the screen asks an adult ("Unlock front door?").
func (c Call) Question() string {
	name := entityName(c.Entity)
	_, svc, _ := strings.Cut(c.Service, ".")
	switch svc {
	case "unlock":
		return "Unlock " + name + "?"
	case "lock":
		return "Lock " + name + "?"
	case "open", "open_cover":
		return "Open " + name + "?"
	case "close_cover":
		return "Close " + name + "?"
	case "alarm_disarm":
		return "Disarm " + name + "?"
	case "set_temperature":
		if c.Temperature != nil {
			return fmt.Sprintf("Set %s to %g °C?", name, *c.Temperature)
		}
	case "turn_on":
		return "Turn on " + name + "?"
	case "turn_off":
		return "Turn off " + name + "?"
	}
	return fmt.Sprintf("%s on %s?", strings.ReplaceAll(c.Service, "_", " "), name)
}

// entityName is an entity id in words: lock.front_door → "the front door".
func entityName(id string) string {
	_, obj, ok := strings.Cut(id, ".")
	if !ok || obj == "" {
		return id
	}
	return "the " + strings.ReplaceAll(obj, "_", " ")
}
