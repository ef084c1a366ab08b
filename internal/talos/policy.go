package talos

import (
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/health"
)

// Policy is the household's Talos policy: what each role may do.
type Policy struct {
	Roles map[health.Role]RolePolicy `json:"roles"`
}

// RolePolicy is what Talos may do for one role.
type RolePolicy struct {
	// Tools are the tool names the role may use; the model is offered
	// only these.
	Tools []string `json:"tools"`
	// Entities are the Home Assistant entities the role may read and act
	// on, as patterns: "light.*" (a domain), "light.living_room_*",
	// "media_player.living_room_tv", or "*" (every entity).
	Entities []string `json:"entities"`
	// Confirm are the actions that wait for an adult's confirmation on
	// the screen, as patterns of entities ("lock.*", "cover.garage_door")
	// or of services ("alarm_control_panel.alarm_disarm").
	Confirm []string `json:"confirm"`
	// Climate, when set, is the thermostat range the role may set alone;
	// a temperature outside it waits for an adult.
	Climate *Range `json:"climate,omitempty"`
	// QuietHours, when set, is when the role's actions (not reads) are
	// refused, in the household's time zone.
	QuietHours *Window `json:"quiet_hours,omitempty"`
	// PerHour caps the role's actions per member in any hour; 0 is no
	// cap.
	PerHour int `json:"per_hour"`
}

// Range is a closed range of temperatures (°C, Home Assistant's unit).
type Range struct {
	Min float64 `json:"min"`
	Max float64 `json:"max"`
}

// Window is a daily stretch of time from From to To ("21:00" to "07:00"
// spans midnight).
type Window struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// Contains reports whether t's time of day (in t's location) is inside w.
func (w Window) Contains(t time.Time) bool {
	from, err1 := minuteOfDay(w.From)
	to, err2 := minuteOfDay(w.To)
	if err1 != nil || err2 != nil || from == to {
		return false
	}
	m := t.Hour()*60 + t.Minute()
	if from < to {
		return m >= from && m < to
	}
	return m >= from || m < to
}

func minuteOfDay(s string) (int, error) {
	h, m, ok := strings.Cut(s, ":")
	hh, err1 := strconv.Atoi(h)
	mm, err2 := strconv.Atoi(m)
	if !ok || err1 != nil || err2 != nil || len(h) != 2 || len(m) != 2 || hh < 0 || hh > 23 || mm < 0 || mm > 59 {
		return 0, fmt.Errorf("%q is not a time like 21:30", s)
	}
	return hh*60 + mm, nil
}

// Tool names Talos knows (the homeassistant and plexplay factories').
const (
	ToolListEntities = "home_list_entities"
	ToolGetState     = "home_get_state"
	ToolCallService  = "home_call_service"
	ToolListClients  = "plex_list_clients"
	ToolFindMedia    = "plex_find_media"
	ToolPlay         = "plex_play"
)

// ToolNames are every tool Talos has, in the order it offers them: what a
// policy may name.
var ToolNames = []string{ToolListEntities, ToolGetState, ToolCallService, ToolListClients, ToolFindMedia, ToolPlay}

// IsAction reports whether tool changes something (the others read).
func IsAction(tool string) bool { return tool == ToolCallService || tool == ToolPlay }

// DefaultPolicy is the policy before an admin saves one: adults may do
// everything, with locks, the alarm and covers (and a thermostat outside
// 16–24 °C) waiting for an adult's tap; children may use lights,
// switches, fans, media players and sensors and play media, with quiet
// hours from 20:00 and a thermostat range of 18–22 °C; guests may turn
// lights on and off and read sensors.
func DefaultPolicy() Policy {
	all := slices.Clone(ToolNames)
	return Policy{Roles: map[health.Role]RolePolicy{
		health.RoleAdult: {Tools: all, Entities: []string{"*"},
			Confirm: []string{"lock.*", "alarm_control_panel.*", "cover.*"},
			Climate: &Range{Min: 16, Max: 24}, PerHour: 120},
		health.RoleChild: {Tools: all,
			Entities:   []string{"light.*", "switch.*", "fan.*", "media_player.*", "sensor.*", "binary_sensor.*", "climate.*"},
			Climate:    &Range{Min: 18, Max: 22},
			QuietHours: &Window{From: "20:00", To: "07:00"}, PerHour: 30},
		health.RoleGuest: {Tools: []string{ToolListEntities, ToolGetState, ToolCallService},
			Entities:   []string{"light.*", "sensor.*"},
			QuietHours: &Window{From: "22:00", To: "07:00"}, PerHour: 20},
	}}
}

// Role is the policy for role; a role the policy does not list may do
// nothing.
func (p Policy) Role(r health.Role) RolePolicy { return p.Roles[r] }

// knownDomains are the Home Assistant entity domains a pattern may name
// (https://www.home-assistant.io/integrations/#search: the entity
// platforms); a typo ("ligth.*") is refused on save.
var knownDomains = map[string]bool{
	"air_quality": true, "alarm_control_panel": true, "automation": true, "binary_sensor": true, "button": true,
	"calendar": true, "camera": true, "climate": true, "cover": true, "device_tracker": true, "event": true,
	"fan": true, "group": true, "humidifier": true, "image": true, "input_boolean": true, "input_button": true,
	"input_number": true, "input_select": true, "input_text": true, "lawn_mower": true, "light": true,
	"lock": true, "media_player": true, "notify": true, "number": true, "person": true, "remote": true,
	"scene": true, "script": true, "select": true, "sensor": true, "siren": true, "sun": true, "switch": true,
	"text": true, "timer": true, "todo": true, "update": true, "vacuum": true, "valve": true,
	"water_heater": true, "weather": true, "zone": true,
}

// Validate checks p against the tools Talos has: every role named, every
// tool known, every pattern's domain known, times and ranges sane. The
// error names each problem by field (roles.child.tools: unknown tool
// "home_unlock").
func (p Policy) Validate(tools []string) error {
	errs := map[string]string{}
	for r := range p.Roles {
		if !r.Valid() {
			errs["roles."+string(r)] = "is not a role: the roles are adult, child and guest"
		}
	}
	for _, r := range health.Roles {
		rp, ok := p.Roles[r]
		field := "roles." + string(r)
		if !ok {
			errs[field] = "is missing: give every role a policy (an empty one allows nothing)"
			continue
		}
		var bad []string
		for _, t := range rp.Tools {
			if !slices.Contains(tools, t) {
				bad = append(bad, strconv.Quote(t))
			}
		}
		if len(bad) > 0 {
			errs[field+".tools"] = "unknown tool " + strings.Join(bad, ", ") + "; Talos's tools are " + strings.Join(tools, ", ")
		}
		for key, pats := range map[string][]string{"entities": rp.Entities, "confirm": rp.Confirm} {
			if msg := checkPatterns(pats); msg != "" {
				errs[field+"."+key] = msg
			}
		}
		if c := rp.Climate; c != nil && (c.Min < 5 || c.Max > 35 || c.Min > c.Max) {
			errs[field+".climate"] = "must be a range within 5–35 °C with min ≤ max"
		}
		if w := rp.QuietHours; w != nil {
			_, e1 := minuteOfDay(w.From)
			_, e2 := minuteOfDay(w.To)
			switch {
			case e1 != nil:
				errs[field+".quiet_hours.from"] = e1.Error()
			case e2 != nil:
				errs[field+".quiet_hours.to"] = e2.Error()
			case w.From == w.To:
				errs[field+".quiet_hours"] = "from and to are the same time"
			}
		}
		if rp.PerHour < 0 || rp.PerHour > 10000 {
			errs[field+".per_hour"] = "must be between 0 (no cap) and 10000"
		}
	}
	if len(errs) > 0 {
		return apperr.FieldErrors(errs)
	}
	return nil
}

// checkPatterns says what is wrong with patterns ("" when nothing).
func checkPatterns(pats []string) string {
	var bad []string
	for _, p := range pats {
		if p == "*" {
			continue
		}
		domain, rest, ok := strings.Cut(p, ".")
		_, err := path.Match(rest, "x")
		switch {
		case !ok || rest == "" || err != nil || strings.ContainsAny(p, " /"):
			bad = append(bad, fmt.Sprintf("%q is not a pattern like light.* or lock.front_door", p))
		case !knownDomains[domain]:
			bad = append(bad, fmt.Sprintf("%q: unknown domain %q", p, domain))
		}
	}
	return strings.Join(bad, "; ")
}

// matches reports whether name (an entity id or domain.service) matches
// one of pats.
func matches(pats []string, name string) (string, bool) {
	for _, p := range pats {
		if p == "*" {
			return p, true
		}
		if ok, _ := path.Match(p, name); ok {
			return p, true
		}
	}
	return "", false
}

// Call is a tool call as the policy sees it.
type Call struct {
	Tool string
	// Entity is the Home Assistant entity it reads or acts on ("" when
	// none); Service is "domain.service" for home_call_service.
	Entity  string
	Service string
	// Temperature is a thermostat target the call sets, if any.
	Temperature *float64
	// Target names what a call acts on when it is not an entity (a Plex
	// player).
	Target string
	// Action says the call changes something (the others read).
	Action bool
}

// Outcome is what became of a call.
type Outcome string

// Outcomes. A decision is allowed, denied or waiting when made; a
// waiting one becomes confirmed, refused or timed_out.
const (
	Allowed   Outcome = "allowed"
	Denied    Outcome = "denied"
	Waiting   Outcome = "waiting"
	Confirmed Outcome = "confirmed"
	Refused   Outcome = "refused"
	TimedOut  Outcome = "timed_out"
)

// Decision is the policy's answer to a call: its outcome and the rule
// that decided it ("child.entities"), with the reason in words.
type Decision struct {
	Outcome Outcome
	Rule    string
	Reason  string
}

// Evaluate decides c for role at now (in the household's time zone);
// recent is how many actions the asker made in the last hour. The checks
// run in order: tool, entity, quiet hours, rate, then whether an adult
// must confirm.
func (p Policy) Evaluate(role health.Role, c Call, now time.Time, recent int) Decision {
	rp, ok := p.Roles[role]
	r := string(role)
	if !ok {
		return Decision{Denied, r + ".missing", "the policy has nothing for a " + r}
	}
	if !slices.Contains(rp.Tools, c.Tool) {
		return Decision{Denied, r + ".tools", fmt.Sprintf("a %s may not use %s", r, c.Tool)}
	}
	if c.Entity != "" {
		if _, ok := matches(rp.Entities, c.Entity); !ok {
			return Decision{Denied, r + ".entities", fmt.Sprintf("a %s may not use %s", r, c.Entity)}
		}
	}
	if !c.Action {
		return Decision{Allowed, r + ".tools", ""}
	}
	if w := rp.QuietHours; w != nil && w.Contains(now) {
		return Decision{Denied, r + ".quiet_hours", fmt.Sprintf("it is quiet hours for a %s (%s–%s)", r, w.From, w.To)}
	}
	if rp.PerHour > 0 && recent >= rp.PerHour {
		return Decision{Denied, r + ".per_hour", fmt.Sprintf("a %s may ask for %d actions an hour, and that many were asked for", r, rp.PerHour)}
	}
	if c.Entity != "" {
		if pat, ok := matches(rp.Confirm, c.Entity); ok {
			return Decision{Waiting, r + ".confirm", fmt.Sprintf("%s (%s) waits for an adult", c.Entity, pat)}
		}
	}
	if c.Service != "" {
		if pat, ok := matches(rp.Confirm, c.Service); ok {
			return Decision{Waiting, r + ".confirm", fmt.Sprintf("%s (%s) waits for an adult", c.Service, pat)}
		}
	}
	if rg := rp.Climate; rg != nil && c.Temperature != nil && (*c.Temperature < rg.Min || *c.Temperature > rg.Max) {
		return Decision{Waiting, r + ".climate", fmt.Sprintf("%g °C is outside %g–%g °C, so it waits for an adult", *c.Temperature, rg.Min, rg.Max)}
	}
	return Decision{Allowed, r + ".allowed", ""}
}

// Offered are the tools of tools the role may use, in tools' order: the
// model is offered these and no other.
func (p Policy) Offered(role health.Role, tools []string) []string {
	rp := p.Roles[role]
	var out []string
	for _, t := range tools {
		if slices.Contains(rp.Tools, t) {
			out = append(out, t)
		}
	}
	return out
}

// EntityVisible reports whether role may see entity (listings leave out
// the others).
func (p Policy) EntityVisible(role health.Role, entity string) bool {
	_, ok := matches(p.Roles[role].Entities, entity)
	return ok
}

// Parse reads a policy from JSON, refusing unknown fields (a misspelt
// "quiet_hour" must not silently drop the quiet hours).
func Parse(b []byte) (Policy, error) {
	var p Policy
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return Policy{}, apperr.Invalidf("the policy is not valid JSON of the policy's shape: %v", err)
	}
	if p.Roles == nil {
		return Policy{}, apperr.FieldErrors(map[string]string{"roles": "is missing"})
	}
	return p, nil
}
