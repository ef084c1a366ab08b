package homeassistant_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"hearth/internal/agent"
	"hearth/internal/homeassistant"
	"hearth/internal/homeassistant/hatest"
)

// recordingCaller is the engine's caller over the toolbox, remembering
// which tools the heuristic used.
func recordingCaller(t *testing.T, connect homeassistant.Connect) (homeassistant.Caller, *[]string) {
	box := toolbox(t, connect)
	var used []string
	inner := box.Caller(agent.Scope{})
	return func(ctx context.Context, name string, args json.RawMessage) (any, error) {
		used = append(used, name)
		return inner(ctx, name, args)
	}, &used
}

func callsText(calls []hatest.Call) string {
	var out []string
	for _, c := range calls {
		s := fmt.Sprintf("%s.%s %v", c.Domain, c.Service, c.Data["entity_id"])
		if t, ok := c.Data["temperature"]; ok {
			s += fmt.Sprintf(" %v", t)
		}
		if !c.Authorized {
			s += " (no token)"
		}
		out = append(out, s)
	}
	return strings.Join(out, "; ")
}

func TestReply(t *testing.T) {
	cases := []struct {
		message, reply, calls string
	}{
		{"Turn on the living room lights", "Turned on Ceiling and Living Room Lamp.", "light.turn_on light.ceiling; light.turn_on light.living_room_lamp"},
		{"turn the Bedroom lights off.", "Turned off Bedside.", "light.turn_off light.bedside"},
		{"Switch on the fan", "Turned on Fan.", "switch.turn_on switch.fan"},
		{"Please turn off bedside", "Turned off Bedside.", "light.turn_off light.bedside"},
		{"turn on the living room lamp", "Turned on Living Room Lamp.", "light.turn_on light.living_room_lamp"},
		{"What’s the temperature in the living room?", "It's 21.5 °C in the Living Room (Living Room Temperature).", ""},
		{"how warm is it in the bedroom", "It's 18.5° in the Bedroom (Bedroom Thermostat).", ""},
		{"Set the thermostat to 20", "Set Bedroom Thermostat to 20°.", "climate.set_temperature climate.bedroom 20"},
		{"set the thermostat in the bedroom to 21.5 degrees", "Set Bedroom Thermostat to 21.5°.", "climate.set_temperature climate.bedroom 21.5"},
		{"set the bedroom thermostat to 19", "Set Bedroom Thermostat to 19°.", "climate.set_temperature climate.bedroom 19"},
		{"turn on the attic", "I couldn't find a room, light or switch called “attic”", ""},
		{"turn off the lights", "Which lights?", ""},
		{"what's the temperature in the attic", "I couldn't find a room called “attic”", ""},
		{"unlock the front door", homeassistant.Help, ""},
		{"play some jazz in the kitchen", homeassistant.Help, ""},
	}
	for _, c := range cases {
		t.Run(c.message, func(t *testing.T) {
			ha := house(t)
			call, used := recordingCaller(t, ha.Connect())
			got := homeassistant.Reply(context.Background(), call, c.message)
			if !strings.Contains(got, c.reply) {
				t.Errorf("reply = %q, want %q", got, c.reply)
			}
			if calls := callsText(ha.Calls()); calls != c.calls {
				t.Errorf("Home Assistant got %q, want %q", calls, c.calls)
			}
			if c.reply == homeassistant.Help && len(*used) != 0 {
				t.Errorf("tools used for a message it does not understand: %v", *used)
			}
		})
	}
}

func TestReplyAsksWhichThermostat(t *testing.T) {
	ha := house(t)
	ha.Add(hatest.Entity{ID: "climate.hall", Name: "Hall Thermostat", State: "heat", Attributes: map[string]any{"current_temperature": 17.0}})
	// The engine's agent.ToolCaller is what the lead passes in.
	got := homeassistant.Reply(context.Background(), toolbox(t, ha.Connect()).Caller(agent.Scope{}), "set the thermostat to 20")
	if !strings.Contains(got, "Which thermostat: Bedroom Thermostat or Hall Thermostat?") || len(ha.Calls()) != 0 {
		t.Fatalf("reply %q, calls %v", got, ha.Calls())
	}
}

func TestReplyWithANonAdminTokenStillMatchesNames(t *testing.T) {
	ha := house(t)
	ha.SetAdmin(false)
	call, _ := recordingCaller(t, ha.Connect())
	got := homeassistant.Reply(context.Background(), call, "turn on the ceiling light")
	if got != "Turned on Ceiling." || callsText(ha.Calls()) != "light.turn_on light.ceiling" {
		t.Fatalf("reply %q, calls %q", got, callsText(ha.Calls()))
	}
}

func TestReplyWhenNotConfigured(t *testing.T) {
	connect := func(context.Context) (*homeassistant.Client, error) { return homeassistant.New(homeassistant.Config{}) }
	call, used := recordingCaller(t, connect)
	for _, m := range []string{"turn on the kitchen lights", "what's the temperature in the kitchen", "set the thermostat to 20"} {
		got := homeassistant.Reply(context.Background(), call, m)
		if !strings.Contains(got, "Home Assistant is not set up") || !strings.Contains(got, "Admin → Integrations") {
			t.Errorf("%s: %q", m, got)
		}
	}
	if len(*used) != 3 {
		t.Errorf("tools used: %v, want one list call per message", *used)
	}
}

func TestReplyWhenUnreachable(t *testing.T) {
	ha := house(t)
	connect := ha.Connect()
	ha.Close()
	call, _ := recordingCaller(t, connect)
	got := homeassistant.Reply(context.Background(), call, "turn on the living room lights")
	if !strings.Contains(got, "couldn't reach Home Assistant") || strings.Contains(got, token) {
		t.Fatalf("reply %q", got)
	}
}
