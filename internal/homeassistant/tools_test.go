package homeassistant_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"hearth/internal/agent"
	"hearth/internal/homeassistant"
	"hearth/internal/homeassistant/hatest"
)

// house seeds a fake instance with two areas, lights, a switch, sensors
// and a thermostat.
func house(t *testing.T) *hatest.Server {
	t.Helper()
	ha := hatest.New(t, token)
	ha.AddArea("living_room", "Living Room")
	ha.AddArea("bedroom", "Bedroom")
	ha.Add(hatest.Entity{ID: "light.living_room_lamp", Name: "Living Room Lamp", State: "off", Area: "living_room"})
	ha.Add(hatest.Entity{ID: "light.ceiling", Name: "Ceiling", State: "off", Area: "living_room"})
	ha.Add(hatest.Entity{ID: "light.bedside", Name: "Bedside", State: "on", Area: "bedroom"})
	ha.Add(hatest.Entity{ID: "switch.fan", Name: "Fan", State: "off", Area: "bedroom"})
	ha.Add(hatest.Entity{ID: "sensor.living_room_temperature", Name: "Living Room Temperature", State: "21.5", Unit: "°C", Area: "living_room",
		Attributes: map[string]any{"device_class": "temperature", "icon": "mdi:thermometer"}})
	ha.Add(hatest.Entity{ID: "sensor.scale_weight", Name: "Scale", State: "72.4", Unit: "kg"})
	ha.Add(hatest.Entity{ID: "climate.bedroom", Name: "Bedroom Thermostat", State: "heat", Area: "bedroom",
		Attributes: map[string]any{"current_temperature": 18.5, "temperature": 19.0, "hvac_modes": []any{"off", "heat"}, "supported_features": 1}})
	ha.Add(hatest.Entity{ID: "lock.front_door", Name: "Front Door", State: "locked"})
	return ha
}

func toolbox(t *testing.T, connect homeassistant.Connect) *agent.Toolbox {
	t.Helper()
	box, err := agent.NewToolbox(homeassistant.Tools(connect))
	if err != nil {
		t.Fatal(err)
	}
	return box
}

func callTool[R any](t *testing.T, box *agent.Toolbox, name, args string) (R, error) {
	t.Helper()
	var zero R
	res, err := box.Call(context.Background(), agent.Scope{}, name, json.RawMessage(args))
	if err != nil {
		return zero, err
	}
	r, ok := res.(R)
	if !ok {
		t.Fatalf("%s returned %T", name, res)
	}
	return r, nil
}

func ids(es []homeassistant.EntityInfo) string {
	var out []string
	for _, e := range es {
		out = append(out, e.EntityID)
	}
	return strings.Join(out, ",")
}

func TestFactoryNamesItsTools(t *testing.T) {
	f := homeassistant.Tools(hatest.New(t, token).Connect())
	inf := f.Info(context.Background())
	if inf.Name != "homeassistant" || inf.Title != "Home Assistant" || !inf.Configured || inf.Status != "" {
		t.Fatalf("info = %+v", inf)
	}
	if got := strings.Join(inf.Tools, ","); got != "home_list_entities,home_get_state,home_call_service" {
		t.Fatalf("tools = %s", got)
	}
}

func TestListEntitiesFilters(t *testing.T) {
	box := toolbox(t, house(t).Connect())
	cases := []struct{ args, want string }{
		{`{"domain": null, "area": null}`, "climate.bedroom,light.bedside,light.ceiling,light.living_room_lamp,lock.front_door,sensor.living_room_temperature,sensor.scale_weight,switch.fan"},
		{`{"domain": "light", "area": null}`, "light.bedside,light.ceiling,light.living_room_lamp"},
		{`{"domain": null, "area": "living room"}`, "light.ceiling,light.living_room_lamp,sensor.living_room_temperature"},
		{`{"domain": null, "area": "BEDROOM"}`, "climate.bedroom,light.bedside,switch.fan"},
		{`{"domain": "light", "area": "living_room"}`, "light.ceiling,light.living_room_lamp"},
	}
	for _, c := range cases {
		got, err := callTool[homeassistant.EntityList](t, box, homeassistant.ToolListEntities, c.args)
		if err != nil {
			t.Fatalf("%s: %v", c.args, err)
		}
		if ids(got.Entities) != c.want || got.Total != got.Shown || got.Shown != len(got.Entities) {
			t.Errorf("%s: %+v, want %s", c.args, got, c.want)
		}
	}
	got, _ := callTool[homeassistant.EntityList](t, box, homeassistant.ToolListEntities, `{"domain": "sensor", "area": null}`)
	if e := got.Entities[0]; e.Name != "Living Room Temperature" || e.Unit != "°C" || e.Area != "Living Room" || e.State != "21.5" {
		t.Errorf("entity = %+v", e)
	}
	_, err := callTool[homeassistant.EntityList](t, box, homeassistant.ToolListEntities, `{"domain": null, "area": "Attic"}`)
	if err == nil || !strings.Contains(err.Error(), "Living Room, Bedroom") {
		t.Errorf("unknown area: %v, want the list of areas", err)
	}
}

func TestListEntitiesCapsAtFiftyWithTheTotal(t *testing.T) {
	ha := hatest.New(t, token)
	for i := range 73 {
		ha.Add(hatest.Entity{ID: fmt.Sprintf("sensor.s%02d", i), State: "1"})
	}
	got, err := callTool[homeassistant.EntityList](t, toolbox(t, ha.Connect()), homeassistant.ToolListEntities, `{"domain": null, "area": null}`)
	if err != nil {
		t.Fatal(err)
	}
	if got.Total != 73 || got.Shown != 50 || len(got.Entities) != 50 || !strings.Contains(got.Note, "23 more") {
		t.Fatalf("total %d shown %d len %d note %q", got.Total, got.Shown, len(got.Entities), got.Note)
	}
}

func TestListWithANonAdminToken(t *testing.T) {
	ha := house(t)
	ha.SetAdmin(false)
	box := toolbox(t, ha.Connect())
	got, err := callTool[homeassistant.EntityList](t, box, homeassistant.ToolListEntities, `{"domain": "light", "area": null}`)
	if err != nil || got.Total != 3 {
		t.Fatalf("without areas: %+v %v", got, err)
	}
	if _, err := callTool[homeassistant.EntityList](t, box, homeassistant.ToolListEntities, `{"domain": null, "area": "Bedroom"}`); !errors.Is(err, homeassistant.ErrUnauthorized) || !strings.Contains(err.Error(), "admin") {
		t.Fatalf("area filter: %v", err)
	}
}

func TestGetState(t *testing.T) {
	box := toolbox(t, house(t).Connect())
	got, err := callTool[homeassistant.EntityState](t, box, homeassistant.ToolGetState, `{"entity_id": "climate.bedroom"}`)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "Bedroom Thermostat" || got.State != "heat" || got.Attributes["current_temperature"] != 18.5 || got.LastChanged.IsZero() {
		t.Fatalf("state = %+v", got)
	}
	if _, ok := got.Attributes["supported_features"]; ok {
		t.Errorf("noise attribute kept: %+v", got.Attributes)
	}
	_, err = callTool[homeassistant.EntityState](t, box, homeassistant.ToolGetState, `{"entity_id": "light.attic"}`)
	if !errors.Is(err, homeassistant.ErrNotFound) || !strings.Contains(err.Error(), "home_list_entities") {
		t.Fatalf("unknown entity: %v", err)
	}
}

func TestCallServiceTurnsOnTheNamedLight(t *testing.T) {
	ha := house(t)
	box := toolbox(t, ha.Connect())
	got, err := callTool[homeassistant.ServiceResult](t, box, homeassistant.ToolCallService,
		`{"domain": "light", "service": "turn_on", "entity_id": "light.ceiling", "data": {"brightness": 128}}`)
	if err != nil {
		t.Fatal(err)
	}
	if got.Called != "light.turn_on" || len(got.States) != 1 || got.States[0].State != "on" || got.ReadBack {
		t.Fatalf("result = %+v", got)
	}
	calls := ha.Calls()
	if len(calls) != 1 || calls[0].Domain != "light" || calls[0].Service != "turn_on" || !calls[0].Authorized ||
		calls[0].Data["entity_id"] != "light.ceiling" || calls[0].Data["brightness"] != 128.0 {
		t.Fatalf("calls = %+v", calls)
	}
}

func TestCallServiceReadsBackWhenHomeAssistantReportsNoChange(t *testing.T) {
	ha := house(t)
	ha.DeferStates(true)
	got, err := callTool[homeassistant.ServiceResult](t, toolbox(t, ha.Connect()), homeassistant.ToolCallService,
		`{"domain": "climate", "service": "set_temperature", "entity_id": "climate.bedroom", "data": {"temperature": 20}}`)
	if err != nil {
		t.Fatal(err)
	}
	if !got.ReadBack || len(got.States) != 1 || got.States[0].EntityID != "climate.bedroom" {
		t.Fatalf("result = %+v", got)
	}
	if s, _ := ha.State("climate.bedroom"); s.Attributes["temperature"] != 20.0 {
		t.Fatalf("thermostat = %+v", s.Attributes)
	}
}

func TestCallServiceRefusals(t *testing.T) {
	ha := house(t)
	box := toolbox(t, ha.Connect())
	cases := []struct {
		domain, service, entity, data string
		refused                       bool // ErrRefused (deny list), else a wrong-target error
		want                          string
	}{
		{"lock", "unlock", "lock.front_door", "null", true, "unlocking"},
		{"lock", "open", "lock.front_door", "null", true, "opening a lock"},
		{"alarm_control_panel", "alarm_disarm", "alarm_control_panel.home", "null", true, "disarming"},
		{"homeassistant", "restart", "light.ceiling", "null", true, "restarting"},
		{"homeassistant", "stop", "light.ceiling", "null", true, "restarting"},
		{"hassio", "host_reboot", "light.ceiling", "null", true, "supervisor"},
		{"automation", "reload", "automation.morning", "null", true, "reloading"},
		{"script", "reload", "script.movie", "null", true, "reloading"},
		{"light", "turn_on", "switch.fan", "null", false, "cannot act on switch.fan"},
		{"lock", "lock", "light.ceiling", "null", false, "cannot act on light.ceiling"},
		{"light", "turn_on", "light.ceiling", `{"area_id": "bedroom"}`, false, "area_id"},
		{"light", "turn_on", "light.ceiling", `{"entity_id": "all"}`, false, "other entities"},
	}
	for _, c := range cases {
		args := fmt.Sprintf(`{"domain": %q, "service": %q, "entity_id": %q, "data": %s}`, c.domain, c.service, c.entity, c.data)
		_, err := callTool[homeassistant.ServiceResult](t, box, homeassistant.ToolCallService, args)
		if err == nil || errors.Is(err, homeassistant.ErrRefused) != c.refused || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s.%s on %s: %v, want refused=%v and %q", c.domain, c.service, c.entity, err, c.refused, c.want)
		}
	}
	if n := len(ha.Calls()); n != 0 {
		t.Fatalf("%d refused calls reached Home Assistant: %+v", n, ha.Calls())
	}
	// homeassistant.turn_off is the one cross-domain form allowed.
	if _, err := callTool[homeassistant.ServiceResult](t, box, homeassistant.ToolCallService,
		`{"domain": "homeassistant", "service": "turn_off", "entity_id": "light.bedside", "data": null}`); err != nil {
		t.Fatal(err)
	}
	if s, _ := ha.State("light.bedside"); s.State != "off" {
		t.Fatalf("bedside = %s", s.State)
	}
}

func TestCallServiceUnknownServiceSaysSo(t *testing.T) {
	box := toolbox(t, house(t).Connect())
	_, err := callTool[homeassistant.ServiceResult](t, box, homeassistant.ToolCallService,
		`{"domain": "light", "service": "blink", "entity_id": "light.ceiling", "data": null}`)
	if err == nil || !strings.Contains(err.Error(), "refused light.blink") {
		t.Fatalf("err = %v", err)
	}
}

func TestNotConfigured(t *testing.T) {
	connect := func(context.Context) (*homeassistant.Client, error) {
		return homeassistant.New(homeassistant.Config{})
	}
	f := homeassistant.Tools(connect)
	inf := f.Info(context.Background())
	if inf.Configured || inf.Status != homeassistant.ErrNotConfigured.Error() {
		t.Fatalf("info = %+v", inf)
	}
	box := toolbox(t, connect)
	for name, args := range map[string]string{
		homeassistant.ToolListEntities: `{"domain": null, "area": null}`,
		homeassistant.ToolGetState:     `{"entity_id": "light.ceiling"}`,
		homeassistant.ToolCallService:  `{"domain": "light", "service": "turn_on", "entity_id": "light.ceiling", "data": null}`,
	} {
		if _, err := box.Call(context.Background(), agent.Scope{}, name, json.RawMessage(args)); !errors.Is(err, homeassistant.ErrNotConfigured) {
			t.Errorf("%s: %v, want ErrNotConfigured", name, err)
		}
	}
	if inf := homeassistant.Tools(nil).Info(context.Background()); inf.Configured {
		t.Errorf("nil connect reported configured")
	}
}

func TestToolErrorsNeverShowTheToken(t *testing.T) {
	ha := house(t)
	cfg := ha.Config()
	cfg.Token = "wrong-" + token
	connect := func(context.Context) (*homeassistant.Client, error) { return homeassistant.New(cfg) }
	box := toolbox(t, connect)
	_, err := box.Call(context.Background(), agent.Scope{}, homeassistant.ToolGetState, json.RawMessage(`{"entity_id": "light.ceiling"}`))
	if !errors.Is(err, homeassistant.ErrUnauthorized) || strings.Contains(err.Error(), token) {
		t.Fatalf("err = %v", err)
	}
}

// The status is asked on every listing of factories: it must not wait on
// Home Assistant, only check that settings exist.
func TestStatusDoesNoNetworkIO(t *testing.T) {
	ha := house(t)
	ha.Hang() // any request would now block until the test ends
	inf := homeassistant.Tools(ha.Connect()).Info(context.Background())
	if !inf.Configured || len(ha.Requests()) != 0 {
		t.Fatalf("info %+v after %d requests", inf, len(ha.Requests()))
	}
}
