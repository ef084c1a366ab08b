package talos

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"hearth/internal/agent"
	"hearth/internal/homeassistant"
)

// Refusal is the policy's refusal of a call, as a tool's error: the rule
// that decided and why.
type Refusal struct {
	Rule   string
	Reason string
}

func (r *Refusal) Error() string {
	return fmt.Sprintf("%v (rule %s): %s; tell the person plainly that the household's settings do not allow it", ErrRefused, r.Rule, r.Reason)
}

// Unwrap makes errors.Is(err, ErrRefused) hold.
func (r *Refusal) Unwrap() error { return ErrRefused }

// Refused says the refusal in a sentence for the person at the screen.
func (r *Refusal) Refused() string {
	return "I can't do that here: the household's settings say " + r.Reason + "."
}

// Play answers a "play … on …" request without a model (plexplay's
// heuristic); ok is false for any other message.
type Play func(ctx context.Context, call homeassistant.Caller, message string) (string, bool)

var secureR = regexp.MustCompile(`^(?:please )?(unlock|lock|open|close|disarm) (?:the )?(.+?)(?: please)?[.!?]*$`)

// Reply answers Talos's chat turn without a model: locks, doors and the
// alarm ("unlock the front door"), playing media (play, when set), and
// otherwise the home controller's plain forms. Every call goes through
// call, so the policy decides it and the run records it.
func Reply(ctx context.Context, call homeassistant.Caller, message string, play Play) string {
	msg := strings.ToLower(strings.Join(strings.Fields(message), " "))
	if m := secureR.FindStringSubmatch(msg); m != nil {
		return secure(ctx, call, m[1], m[2])
	}
	if play != nil {
		if s, ok := play(ctx, call, message); ok {
			return s
		}
	}
	return homeassistant.Reply(ctx, call, message)
}

// secure handles lock, unlock, open, close and disarm on the entity
// named target.
func secure(ctx context.Context, call homeassistant.Caller, verb, target string) string {
	domains := map[string][]string{"unlock": {"lock"}, "lock": {"lock"}, "open": {"cover", "lock"}, "close": {"cover"},
		"disarm": {"alarm_control_panel"}}[verb]
	key := homeassistant.NameKey(target)
	var found []homeassistant.EntityInfo
	for _, d := range domains {
		var l homeassistant.EntityList
		if err := agent.CallInto(ctx, call, ToolListEntities, map[string]any{"domain": d, "area": nil}, &l); err != nil {
			return say(err)
		}
		for _, e := range l.Entities {
			_, obj, _ := strings.Cut(e.EntityID, ".")
			if homeassistant.NameKey(e.Name) == key || homeassistant.NameKey(obj) == key || (verb == "disarm" && key == "alarm") {
				found = append(found, e)
			}
		}
	}
	if len(found) > 1 {
		return fmt.Sprintf("There is more than one %s called “%s”: use Home Assistant's name for it.", strings.Join(domains, " or "), target)
	}
	if len(found) == 0 {
		// Listings leave out what the asker may not use: ask for the entity
		// the words name, and let the policy say no (and record it).
		found = []homeassistant.EntityInfo{{EntityID: domains[0] + "." + strings.ReplaceAll(key, " ", "_")}}
	}
	e := found[0]
	dom, _, _ := strings.Cut(e.EntityID, ".")
	service := map[string]string{"unlock": "unlock", "lock": "lock", "disarm": "alarm_disarm"}[verb]
	if dom == "cover" {
		service = verb + "_cover"
	} else if verb == "open" {
		service = "open"
	}
	var h Held // or a homeassistant.ServiceResult: done
	if err := agent.CallInto(ctx, call, ToolCallService, map[string]any{"domain": dom, "service": service, "entity_id": e.EntityID, "data": nil}, &h); err != nil {
		return say(err)
	}
	if h.Status != "" && len(h.ConfirmBy) > 0 {
		return fmt.Sprintf("%s I've asked on this screen: %s or %s can confirm it by %s, or it won't happen.",
			h.Question, strings.Join(h.ConfirmBy[:len(h.ConfirmBy)-1], ", "), h.ConfirmBy[len(h.ConfirmBy)-1], h.Until)
	}
	return fmt.Sprintf("Done: %s.", strings.TrimSuffix(strings.ToLower(Call{Service: dom + "." + service, Entity: e.EntityID}.Question()), "?"))
}

// say is a tool's error for the person at the screen.
func say(err error) string {
	var r *Refusal
	if errors.As(err, &r) {
		return r.Refused()
	}
	return "That didn't work: " + err.Error()
}
