package homeassistant

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"hearth/internal/agent"
	"hearth/internal/apperr"
)

// FactoryName is the name agent definitions list ("factories": ["homeassistant"]).
const FactoryName = "homeassistant"

// Tool names, as in the agents seed (seeds/002: HomeAssistantToolFactory).
const (
	ToolListEntities = "home_list_entities"
	ToolGetState     = "home_get_state"
	ToolCallService  = "home_call_service"
)

// MaxListed caps home_list_entities: a house has hundreds of entities and
// a model reads every one it is given.
const MaxListed = 50

// Tools is the Home Assistant tool factory over the settings in force at
// each call (connect). Its status is "" when connect gives a client and
// the reason otherwise; connect builds a client without network I/O, so
// the status costs nothing.
func Tools(connect Connect) *agent.Factory {
	if connect == nil {
		connect = func(context.Context) (*Client, error) { return nil, ErrNotConfigured }
	}
	t := tools{connect: connect}
	return agent.NewFactory(FactoryName, "Home Assistant",
		"Read and control the household's Home Assistant: list entities by domain or area, read one entity's state, call a service on one entity (lights, switches, thermostats). Unlocking, disarming and administration are refused.",
		agent.NewTool(ToolListEntities, "List Home Assistant entities (at most 50; total says how many matched). Filter by domain (light, switch, sensor, climate…) and/or area (an area's id or name, e.g. \"Living Room\"). Each entity has entity_id, name, state, unit and area.", t.list),
		agent.NewTool(ToolGetState, "Read one Home Assistant entity's current state: name, state, unit, useful attributes (brightness, current_temperature, target temperature…) and when it last changed.", t.get),
		agent.NewTool(ToolCallService, "Control one Home Assistant entity: call domain.service on entity_id, e.g. light.turn_on on light.living_room with data {\"brightness_pct\": 50}, or climate.set_temperature with data {\"temperature\": 20}. The service's domain must be the entity's (or homeassistant.turn_on/turn_off/toggle). Returns the entity's new state.", t.call),
	).WithStatus(func(ctx context.Context) string {
		if _, err := connect(ctx); err != nil {
			return err.Error()
		}
		return ""
	})
}

type tools struct{ connect Connect }

// ListArgs are home_list_entities' arguments.
type ListArgs struct {
	Domain *string `json:"domain" desc:"only entities of this domain, e.g. light, switch, sensor, climate" schema:"maxLength=64"`
	Area   *string `json:"area" desc:"only entities in this area: its id or name, any case, e.g. Living Room" schema:"maxLength=100"`
}

// EntityInfo is one entity in a listing or a service call's answer.
type EntityInfo struct {
	EntityID string `json:"entity_id"`
	Name     string `json:"name"`
	State    string `json:"state"`
	Unit     string `json:"unit,omitempty"`
	Area     string `json:"area,omitempty"`
	// DeviceClass tells a temperature sensor from a humidity one.
	DeviceClass string `json:"device_class,omitempty"`
}

// EntityList is home_list_entities' result.
type EntityList struct {
	// Total is how many entities matched; Shown how many are listed.
	Total    int          `json:"total"`
	Shown    int          `json:"shown"`
	Entities []EntityInfo `json:"entities"`
	Note     string       `json:"note,omitempty"`
}

func (t tools) list(ctx context.Context, _ agent.Scope, a ListArgs) (EntityList, error) {
	c, err := t.connect(ctx)
	if err != nil {
		return EntityList{}, err
	}
	domain := strings.ToLower(strings.TrimSpace(deref(a.Domain)))
	if domain != "" && !slugPattern(domain) {
		return EntityList{}, apperr.Invalidf("domain %q is not a Home Assistant domain (like light or sensor)", clip(domain, 40))
	}
	areaQuery := strings.TrimSpace(deref(a.Area))
	states, err := c.States(ctx)
	if err != nil {
		return EntityList{}, err
	}
	areaOf, err := t.areas(ctx, c, areaQuery != "")
	if err != nil {
		return EntityList{}, err
	}
	var in map[string]bool
	if areaQuery != "" {
		if in, err = areaMembers(areaOf, areaQuery); err != nil {
			return EntityList{}, err
		}
	}
	out := EntityList{Entities: []EntityInfo{}}
	slices.SortFunc(states, func(x, y State) int { return strings.Compare(x.EntityID, y.EntityID) })
	for _, s := range states {
		if (domain != "" && s.Domain() != domain) || (in != nil && !in[s.EntityID]) {
			continue
		}
		out.Total++
		if len(out.Entities) < MaxListed {
			out.Entities = append(out.Entities, info(s, areaOf.name[s.EntityID]))
		}
	}
	out.Shown = len(out.Entities)
	if out.Total > out.Shown {
		out.Note = fmt.Sprintf("%d more not shown: filter by domain or area", out.Total-out.Shown)
	}
	return out, nil
}

// areaIndex maps entities to their area and areas by id.
type areaIndex struct {
	name  map[string]string // entity id → area name
	areas []Area
}

// areas reads the areas; a token that may not use the template endpoint
// (a non-admin user's) only matters when the caller filters by area.
func (t tools) areas(ctx context.Context, c *Client, need bool) (areaIndex, error) {
	idx := areaIndex{name: map[string]string{}}
	areas, err := c.Areas(ctx)
	if err != nil {
		if errors.Is(err, ErrUnauthorized) && !need {
			return idx, nil
		}
		if errors.Is(err, ErrUnauthorized) {
			return idx, fmt.Errorf("areas come from Home Assistant's template endpoint, which needs an admin user's token; list by domain instead: %w", err)
		}
		return idx, err
	}
	idx.areas = areas
	for _, a := range areas {
		for _, e := range a.Entities {
			idx.name[e] = a.Name
		}
	}
	return idx, nil
}

// areaMembers is the set of entities in the area named q (by id or name,
// any case, spaces and underscores alike).
func areaMembers(idx areaIndex, q string) (map[string]bool, error) {
	key := areaKey(q)
	for _, a := range idx.areas {
		if areaKey(a.ID) == key || areaKey(a.Name) == key {
			in := map[string]bool{}
			for _, e := range a.Entities {
				in[e] = true
			}
			return in, nil
		}
	}
	names := make([]string, 0, len(idx.areas))
	for _, a := range idx.areas {
		names = append(names, a.Name)
	}
	if len(names) == 0 {
		return nil, apperr.NotFoundf("no area %q: Home Assistant has no areas; list by domain instead", clip(q, 60))
	}
	return nil, apperr.NotFoundf("no area %q in Home Assistant; its areas are: %s", clip(q, 60), strings.Join(names, ", "))
}

func areaKey(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(strings.ToLower(s), "_", " ")), " ")
}

func info(s State, area string) EntityInfo {
	dc, _ := s.Attributes["device_class"].(string)
	return EntityInfo{EntityID: s.EntityID, Name: s.Name(), State: s.State, Unit: s.Unit(), Area: area, DeviceClass: dc}
}

// GetArgs are home_get_state's arguments.
type GetArgs struct {
	EntityID string `json:"entity_id" desc:"the entity, e.g. light.living_room or climate.hallway" schema:"maxLength=255"`
}

// EntityState is home_get_state's result.
type EntityState struct {
	EntityID    string         `json:"entity_id"`
	Name        string         `json:"name"`
	State       string         `json:"state"`
	Unit        string         `json:"unit,omitempty"`
	Attributes  map[string]any `json:"attributes,omitempty"`
	LastChanged time.Time      `json:"last_changed"`
}

// usefulAttributes are the attributes worth a model's tokens; the rest
// (icons, supported_features bit masks, pictures) are noise.
var usefulAttributes = []string{
	"device_class", "state_class", "brightness", "color_temp_kelvin", "current_temperature",
	"temperature", "target_temp_low", "target_temp_high", "hvac_action", "hvac_modes",
	"preset_mode", "current_humidity", "humidity", "current_position", "percentage",
	"battery_level", "media_title", "volume_level", "min_temp", "max_temp",
}

func (t tools) get(ctx context.Context, _ agent.Scope, a GetArgs) (EntityState, error) {
	c, err := t.connect(ctx)
	if err != nil {
		return EntityState{}, err
	}
	s, err := c.State(ctx, a.EntityID)
	if err != nil {
		return EntityState{}, entityErr(a.EntityID, err)
	}
	return stateOf(s), nil
}

func stateOf(s State) EntityState {
	out := EntityState{EntityID: s.EntityID, Name: s.Name(), State: s.State, Unit: s.Unit(), LastChanged: s.LastChanged}
	for _, k := range usefulAttributes {
		if v, ok := s.Attributes[k]; ok && v != nil {
			if out.Attributes == nil {
				out.Attributes = map[string]any{}
			}
			out.Attributes[k] = v
		}
	}
	return out
}

// entityErr says what a model can do about an unknown entity.
func entityErr(id string, err error) error {
	if errors.Is(err, ErrNotFound) {
		return fmt.Errorf("no entity %s in Home Assistant: use home_list_entities to find the entity_id: %w", id, err)
	}
	return err
}

// CallArgs are home_call_service's arguments.
type CallArgs struct {
	Domain   string          `json:"domain" desc:"the service's domain: light, switch, climate, cover, fan, media_player…" schema:"maxLength=64"`
	Service  string          `json:"service" desc:"the service: turn_on, turn_off, toggle, set_temperature…" schema:"maxLength=64"`
	EntityID string          `json:"entity_id" desc:"the one entity to act on, e.g. light.living_room" schema:"maxLength=255"`
	Data     *map[string]any `json:"data" desc:"optional service data, e.g. {\"brightness_pct\": 50} or {\"temperature\": 20}; entity_id is added"`
}

// ServiceResult is home_call_service's result.
type ServiceResult struct {
	// Called is "domain.service".
	Called   string `json:"called"`
	EntityID string `json:"entity_id"`
	// States are the states the call changed, or — when Home Assistant
	// reported none (a device that reports later) — the entity's state
	// read back, with ReadBack set.
	States   []EntityInfo `json:"states"`
	ReadBack bool         `json:"read_back,omitempty"`
}

// targetKeys would widen a call beyond the named entity.
var targetKeys = []string{"area_id", "device_id", "floor_id", "label_id"}

func (t tools) call(ctx context.Context, _ agent.Scope, a CallArgs) (ServiceResult, error) {
	return callService(ctx, t.connect, a, false)
}

// CallConfirmed calls a service an adult confirmed on the screen (Talos's
// gated actions, issue 39): a sensitive service (unlocking, disarming) is
// allowed then; administration never is.
func CallConfirmed(ctx context.Context, connect Connect, a CallArgs) (ServiceResult, error) {
	return callService(ctx, connect, a, true)
}

// Sensitive says why domain.service is one a chat may not call without an
// adult's confirmation ("" when it is not).
func Sensitive(domain, service string) string { return deniedServices[domain+"."+service] }

func callService(ctx context.Context, connect Connect, a CallArgs, confirmed bool) (ServiceResult, error) {
	domain, service := strings.ToLower(strings.TrimSpace(a.Domain)), strings.ToLower(strings.TrimSpace(a.Service))
	id := strings.ToLower(strings.TrimSpace(a.EntityID))
	if err := CheckEntityID(id); err != nil {
		return ServiceResult{}, err
	}
	check := Allowed
	if confirmed {
		check = allowedConfirmed
	}
	if err := check(domain, service, id); err != nil {
		return ServiceResult{}, err
	}
	data := map[string]any{}
	if a.Data != nil {
		data = maps.Clone(*a.Data)
	}
	for _, k := range targetKeys {
		if _, ok := data[k]; ok {
			return ServiceResult{}, apperr.Invalidf("data must not contain %s: a call acts on the one entity_id given", k)
		}
	}
	if v, ok := data["entity_id"]; ok && v != id {
		return ServiceResult{}, apperr.Invalidf("data.entity_id must not name other entities: a call acts on the one entity_id given")
	}
	data["entity_id"] = id
	c, err := connect(ctx)
	if err != nil {
		return ServiceResult{}, err
	}
	out := ServiceResult{Called: domain + "." + service, EntityID: id, States: []EntityInfo{}}
	changed, err := c.CallService(ctx, domain, service, data)
	if err != nil {
		if errors.Is(err, ErrNotConfigured) || errors.Is(err, ErrUnauthorized) || errors.Is(err, ErrUnreachable) || errors.Is(err, ErrRedirect) || apperr.Is(err, apperr.Invalid) {
			return ServiceResult{}, err
		}
		return ServiceResult{}, fmt.Errorf("Home Assistant refused %s on %s (an unknown service, or data it does not accept): %w", out.Called, id, err)
	}
	for _, s := range changed {
		out.States = append(out.States, info(s, ""))
	}
	if len(out.States) == 0 {
		s, err := c.State(ctx, id)
		if err != nil {
			return ServiceResult{}, entityErr(id, err)
		}
		out.States, out.ReadBack = []EntityInfo{info(s, "")}, true
	}
	return out, nil
}

// ErrRefused: the service is not allowed from Hearth's chat (Allowed).
var ErrRefused = errors.New("refused")

// deniedServices are never called from a chat (a wall screen's chat is
// reachable by anyone in the room, and a model can be talked into things).
var deniedServices = map[string]string{
	"lock.unlock":                      "unlocking a door",
	"lock.open":                        "opening a lock",
	"alarm_control_panel.alarm_disarm": "disarming the alarm",
}

// deniedDomains are administration, not household control.
var deniedDomains = map[string]string{
	"hassio":        "Home Assistant's supervisor (add-ons, backups, host reboot)",
	"shell_command": "running shell commands",
	"python_script": "running scripts on the Home Assistant host",
	"rest_command":  "sending web requests from Home Assistant",
	"recorder":      "Home Assistant's database",
	"backup":        "backups",
	"logger":        "Home Assistant's logging",
	"system_log":    "Home Assistant's logging",
	"update":        "installing updates",
	"zwave_js":      "the Z-Wave network",
	"zha":           "the Zigbee network",
	"mqtt":          "raw MQTT messages",
}

// Allowed says whether domain.service on entityID may be called from a
// chat: the service must be about the named entity (its domain must be
// the entity's, except homeassistant.turn_on/turn_off/toggle), and it must
// not be on the deny list (unlocking, disarming, restarting, reloading,
// administration). The error says why, for the model to pass on.
func Allowed(domain, service, entityID string) error {
	if !slugPattern(domain) || !slugPattern(service) {
		return apperr.Invalidf("domain and service are lowercase names like light and turn_on")
	}
	full := domain + "." + service
	if why := deniedServices[full]; why != "" {
		return fmt.Errorf("%w: %s is not allowed from Hearth's chat (%s): it is the kind of thing someone at a wall screen must not be able to ask for; use Home Assistant itself", ErrRefused, full, why)
	}
	return allowedConfirmed(domain, service, entityID)
}

// allowedConfirmed is Allowed for a call an adult confirmed: the sensitive
// services pass, administration and calls off the entity still do not.
func allowedConfirmed(domain, service, entityID string) error {
	if !slugPattern(domain) || !slugPattern(service) {
		return apperr.Invalidf("domain and service are lowercase names like light and turn_on")
	}
	full := domain + "." + service
	if why := deniedDomains[domain]; why != "" {
		return fmt.Errorf("%w: %s is not allowed from Hearth's chat: the %s domain is %s, which is administration; use Home Assistant itself", ErrRefused, full, domain, why)
	}
	if domain == "homeassistant" && !slices.Contains([]string{"turn_on", "turn_off", "toggle"}, service) {
		return fmt.Errorf("%w: %s is not allowed from Hearth's chat: restarting, stopping or reloading Home Assistant is administration; use Home Assistant itself", ErrRefused, full)
	}
	if service == "reload" || strings.HasPrefix(service, "reload_") {
		return fmt.Errorf("%w: %s is not allowed from Hearth's chat: reloading configuration is administration; use Home Assistant itself", ErrRefused, full)
	}
	entityDomain, _, _ := strings.Cut(entityID, ".")
	if domain != "homeassistant" && domain != entityDomain {
		return apperr.Invalidf("%s cannot act on %s: call a %s service on it (e.g. %s.turn_on), or homeassistant.turn_on/turn_off/toggle", full, entityID, entityDomain, entityDomain)
	}
	return nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
