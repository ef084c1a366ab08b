package homeassistant

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hearth/internal/agent"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// Caller runs a tool by name (the engine's, so every call is recorded on
// the run).
type Caller = func(ctx context.Context, name string, args json.RawMessage) (any, error)

// Help is the answer to anything the heuristic does not understand.
const Help = "Without a language model I understand plain requests only: “turn on the living room lights”, “switch off the fan”, “what's the temperature in the bedroom?” and “set the thermostat in the bedroom to 20”."

// notSetUp is the answer when Home Assistant is not configured.
const notSetUp = "Home Assistant is not set up yet: an admin can set its URL and token in Admin → Integrations (or with HEARTH_HA_URL and HEARTH_HA_TOKEN)."

var (
	onOffFirst  = regexp.MustCompile(`^(?:turn|switch|put) (on|off) (.+)$`)
	onOffLast   = regexp.MustCompile(`^(?:turn|switch|put) (.+?) (on|off)$`)
	tempIn      = regexp.MustCompile(`^(?:what(?:'s| is)|whats|tell me|how (?:warm|cold|hot) is it)? ?(?:the )?(?:current )?(?:temperature )?(?:in|of) (.+)$`)
	tempAsk     = regexp.MustCompile(`\btemperature\b|\bhow (?:warm|cold|hot)\b`)
	thermostatR = regexp.MustCompile(`^set (?:the )?(?:(.+?) )?(?:thermostat|heating|temperature)(?: (?:in|for) (.+?))? to (\d{1,3}(?:[.,]\d)?)\s*(?:°|degrees?)?\s*(?:c|f|celsius|fahrenheit)?$`)
	politeHead  = regexp.MustCompile(`^(?:(?:hey|ok|okay|please|can you|could you|would you|will you)\b[ ,]*)+`)
)

// Reply answers a home-controller message without a language model. It
// handles the plain forms — "turn on/off (the) <area or entity>
// (lights)", "switch on/off …", "what's the temperature in <area>", "set
// the thermostat (in <area>) to 20" — through the Home Assistant tools
// (call), never the client, so the run records what was done. Anything
// else gets Help.
func Reply(ctx context.Context, call Caller, message string) string {
	h := heuristic{ctx: ctx, call: call}
	msg := normalize(message)
	switch {
	case onOffFirst.MatchString(msg):
		m := onOffFirst.FindStringSubmatch(msg)
		return h.onOff(m[1], m[2])
	case onOffLast.MatchString(msg):
		m := onOffLast.FindStringSubmatch(msg)
		return h.onOff(m[2], m[1])
	case thermostatR.MatchString(msg):
		m := thermostatR.FindStringSubmatch(msg)
		where := m[2]
		if where == "" {
			where = m[1]
		}
		t, _ := strconv.ParseFloat(strings.Replace(m[3], ",", ".", 1), 64)
		return h.thermostat(where, t)
	case tempAsk.MatchString(msg) && tempIn.MatchString(msg):
		return h.temperature(tempIn.FindStringSubmatch(msg)[1])
	}
	return Help
}

// normalize lowercases a message and drops politeness and end punctuation.
func normalize(s string) string {
	s = strings.ToLower(strings.Join(strings.Fields(s), " "))
	s = strings.NewReplacer("’", "'", "‘", "'").Replace(s)
	s = strings.TrimRight(s, " .!?")
	s = politeHead.ReplaceAllString(s, "")
	s = strings.TrimSuffix(s, " please")
	return strings.TrimSpace(strings.TrimRight(s, " ,"))
}

// NameKey is a target or name as compared: lowercase words without "the",
// "light"/"lights" and "'s" (Talos's reply matches locks and covers by it).
func NameKey(s string) string {
	s = strings.NewReplacer("_", " ", "'s", "", ",", " ").Replace(strings.ToLower(s))
	var words []string
	for _, w := range strings.Fields(s) {
		switch w {
		case "the", "light", "lights", "all", "my", "our":
			continue
		}
		words = append(words, w)
	}
	return strings.Join(words, " ")
}

type heuristic struct {
	ctx  context.Context
	call Caller
}

// tool calls name with args and decodes its result into out.
func (h heuristic) tool(name string, args map[string]any, out any) error {
	return agent.CallInto(h.ctx, h.call, name, args, out)
}

func (h heuristic) list(domain, area string) (EntityList, error) {
	args := map[string]any{"domain": nil, "area": nil}
	if domain != "" {
		args["domain"] = domain
	}
	if area != "" {
		args["area"] = area
	}
	var out EntityList
	err := h.tool(ToolListEntities, args, &out)
	return out, err
}

// failure is the sentence for an error a person cannot fix by rephrasing.
func failure(err error) (string, bool) {
	var refused interface{ Refused() string }
	switch {
	case errors.As(err, &refused): // a policy's refusal (Talos)
		return refused.Refused(), true
	case errors.Is(err, ErrNotConfigured) || strings.Contains(err.Error(), "not configured"):
		return notSetUp, true
	case errors.Is(err, ErrUnreachable), errors.Is(err, ErrUnauthorized), errors.Is(err, ErrRedirect),
		errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return "I couldn't reach Home Assistant: " + err.Error(), true
	}
	return "", false
}

// inArea lists the area named target; ok is false when there is no such
// area (or areas cannot be read), reply set when nothing more can be done.
func (h heuristic) inArea(domain, target string) (l EntityList, ok bool, reply string) {
	l, err := h.list(domain, target)
	if err != nil {
		// A non-admin token cannot read areas: names may still match.
		if msg, fatal := failure(err); fatal && !errors.Is(err, ErrUnauthorized) {
			return l, false, msg
		}
		return l, false, ""
	}
	return l, true, ""
}

// byName lists the entities of the domains whose friendly name (or
// object id) is target.
func (h heuristic) byName(target string, domains ...string) ([]EntityInfo, string) {
	key := NameKey(target)
	var out []EntityInfo
	for _, d := range domains {
		l, err := h.list(d, "")
		if err != nil {
			if msg, fatal := failure(err); fatal {
				return nil, msg
			}
			return nil, "Home Assistant answered with an error: " + err.Error()
		}
		for _, e := range l.Entities {
			_, obj, _ := strings.Cut(e.EntityID, ".")
			if NameKey(e.Name) == key || NameKey(obj) == key {
				out = append(out, e)
			}
		}
	}
	return out, ""
}

func (h heuristic) onOff(onOff, target string) string {
	service := "turn_" + onOff
	if NameKey(target) == "" {
		return "Which lights? Say “turn " + onOff + " the kitchen lights” with a room or a light's name."
	}
	var targets []EntityInfo
	l, isArea, reply := h.inArea("", strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(target, "the "), "lights"), "light")))
	if reply != "" {
		return reply
	}
	if isArea {
		targets = ofDomain(l.Entities, "light")
		if len(targets) == 0 && !strings.Contains(target, "light") {
			targets = ofDomain(l.Entities, "switch")
		}
		if len(targets) == 0 {
			return fmt.Sprintf("There are no lights to turn %s in the %s.", onOff, titled(target))
		}
	} else {
		var msg string
		if targets, msg = h.byName(target, "light", "switch", "fan"); msg != "" {
			return msg
		}
		if len(targets) == 0 {
			return fmt.Sprintf("I couldn't find a room, light or switch called “%s” in Home Assistant. %s", clip(strings.TrimPrefix(target, "the "), 60), Help)
		}
	}
	var done, failed []string
	for _, e := range targets {
		var res ServiceResult
		err := h.tool(ToolCallService, map[string]any{"domain": domainOf(e.EntityID), "service": service, "entity_id": e.EntityID, "data": nil}, &res)
		if err != nil {
			if msg, fatal := failure(err); fatal {
				return msg
			}
			failed = append(failed, e.Name)
			continue
		}
		done = append(done, e.Name)
	}
	out := ""
	if len(done) > 0 {
		out = fmt.Sprintf("Turned %s %s.", onOff, and(done))
	}
	if len(failed) > 0 {
		out = strings.TrimSpace(out + fmt.Sprintf(" Home Assistant refused to turn %s %s.", onOff, and(failed)))
	}
	return out
}

func (h heuristic) temperature(where string) string {
	where = strings.TrimPrefix(where, "the ")
	l, isArea, reply := h.inArea("", where)
	if reply != "" {
		return reply
	}
	if !isArea {
		return fmt.Sprintf("I couldn't find a room called “%s” in Home Assistant.", clip(where, 60))
	}
	for _, e := range l.Entities {
		if domainOf(e.EntityID) == "sensor" && (e.DeviceClass == "temperature" || e.Unit == "°C" || e.Unit == "°F") && numeric(e.State) {
			return fmt.Sprintf("It's %s %s in the %s (%s).", e.State, e.Unit, titled(where), e.Name)
		}
	}
	for _, e := range ofDomain(l.Entities, "climate") {
		var st EntityState
		if err := h.tool(ToolGetState, map[string]any{"entity_id": e.EntityID}, &st); err != nil {
			if msg, fatal := failure(err); fatal {
				return msg
			}
			continue
		}
		if t, ok := st.Attributes["current_temperature"].(float64); ok {
			return fmt.Sprintf("It's %s° in the %s (%s).", strconv.FormatFloat(t, 'f', -1, 64), titled(where), e.Name)
		}
	}
	return fmt.Sprintf("There is no temperature sensor or thermostat in the %s.", titled(where))
}

func (h heuristic) thermostat(where string, temp float64) string {
	where = strings.TrimSpace(strings.TrimPrefix(where, "the "))
	var climates []EntityInfo
	if where != "" {
		l, isArea, reply := h.inArea("climate", where)
		if reply != "" {
			return reply
		}
		if isArea {
			climates = l.Entities
		} else {
			var msg string
			if climates, msg = h.byName(where, "climate"); msg != "" {
				return msg
			}
		}
	} else {
		l, err := h.list("climate", "")
		if err != nil {
			if msg, fatal := failure(err); fatal {
				return msg
			}
			return "Home Assistant answered with an error: " + err.Error()
		}
		climates = l.Entities
	}
	switch {
	case len(climates) == 0 && where != "":
		return fmt.Sprintf("I couldn't find a thermostat in or called “%s”.", clip(where, 60))
	case len(climates) == 0:
		return "There is no thermostat (climate entity) in Home Assistant."
	case len(climates) > 1:
		var names []string
		for _, c := range climates {
			names = append(names, c.Name)
		}
		return fmt.Sprintf("Which thermostat: %s? Say “set the thermostat in the bedroom to %s”.", or(names), strconv.FormatFloat(temp, 'f', -1, 64))
	}
	c := climates[0]
	var res ServiceResult
	err := h.tool(ToolCallService, map[string]any{"domain": "climate", "service": "set_temperature", "entity_id": c.EntityID, "data": map[string]any{"temperature": temp}}, &res)
	if err != nil {
		if msg, fatal := failure(err); fatal {
			return msg
		}
		return fmt.Sprintf("Home Assistant refused to set %s to %s°: %s", c.Name, strconv.FormatFloat(temp, 'f', -1, 64), err.Error())
	}
	return fmt.Sprintf("Set %s to %s°.", c.Name, strconv.FormatFloat(temp, 'f', -1, 64))
}

func ofDomain(es []EntityInfo, domain string) []EntityInfo {
	var out []EntityInfo
	for _, e := range es {
		if domainOf(e.EntityID) == domain {
			out = append(out, e)
		}
	}
	return out
}

func domainOf(id string) string {
	d, _, _ := strings.Cut(id, ".")
	return d
}

func numeric(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// titled capitalizes each word of a place the person named ("living
// room" → "Living Room").
func titled(s string) string {
	words := strings.Fields(clip(NameKey(s), 60))
	for i, w := range words {
		r := []rune(w)
		r[0] = unicode.ToUpper(r[0])
		words[i] = string(r)
	}
	return strings.Join(words, " ")
}

func and(names []string) string { return join(names, "and") }
func or(names []string) string  { return join(names, "or") }

func join(names []string, conj string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " " + conj + " " + names[len(names)-1]
}
