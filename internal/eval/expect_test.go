package eval

import (
	"encoding/json"
	"strings"
	"testing"

	"hearth/internal/agent"
	"hearth/internal/health"
)

func intp(n int) *int { return &n }

func testAfter() After {
	return After{
		Run:     agent.Run{Status: agent.StatusSucceeded, Model: "heuristic"},
		Memory:  []agent.MemoryEntry{{Key: "context:injury", Value: "Bad left knee"}},
		Program: &ProgramAfter{ProgramID: "ember-core-30", Status: "active", Day: 4},
		Goals:   []health.Goal{{Description: "Get stronger", Status: "active"}, {Description: "Run a marathon", Status: "dropped"}},
	}
}

// TestExpectationsHoldAndFail runs each check on the good plan twice: as
// written (it holds) and with the one change that makes it fail.
func TestExpectationsHoldAndFail(t *testing.T) {
	cases := []struct {
		name       string
		holds      Expectation
		fails      Expectation
		failDetail string
	}{
		{"up_next program day",
			Expectation{Check: CheckUpNext, Reason: "program_day", Program: "ember-core-30", Context: "Day 4", MaxMinutes: 20},
			Expectation{Check: CheckUpNext, Context: "Day 5"}, "program context matching"},
		{"up_next kinds",
			Expectation{Check: CheckUpNext, Kinds: []string{"core"}},
			Expectation{Check: CheckUpNext, Kinds: []string{"yoga", "stretch"}}, "kind core, want one of yoga, stretch"},
		{"up_next ids",
			Expectation{Check: CheckUpNext, IDs: []string{"local:core-04", "local:x"}},
			Expectation{Check: CheckUpNext, IDs: []string{"local:x"}}, "want local:x"},
		{"up_next absent",
			Expectation{Check: CheckUpNext, NotKinds: []string{"hiit"}},
			Expectation{Check: CheckUpNext, Absent: true}, "want none"},
		{"alternates",
			Expectation{Check: CheckAlternates, Max: intp(2), Reason: "lighter_option", Kinds: []string{"stretch"}},
			Expectation{Check: CheckAlternates, Min: intp(2)}, "1 alternates, want at least 2"},
		{"alternates reason",
			Expectation{Check: CheckAlternates, IDs: []string{"local:stretch"}},
			Expectation{Check: CheckAlternates, Reason: "program_day"}, "want one with reason program_day"},
		{"playlist",
			Expectation{Check: CheckPlaylist, Kinds: []string{"warm-up", "*", "cool-down"}},
			Expectation{Check: CheckPlaylist, Kinds: []string{"warm-up", "core", "stretch"}}, "want warm-up → core → stretch"},
		{"no_content",
			Expectation{Check: CheckNoContent, Kinds: []string{"hiit"}, Tags: []string{"high-impact"}},
			Expectation{Check: CheckNoContent, Pattern: "(?i)hollow"}, "unwanted content: up_next local:core-04"},
		{"no_content impact and intensity",
			Expectation{Check: CheckNoContent, Impact: []string{"high"}, Intensity: []string{"high"}},
			Expectation{Check: CheckNoContent, Intensity: []string{"moderate"}}, "local:core-04 (core, 16 min, program_day, Ember Core 30 · Week 1, Day 4) is moderate intensity"},
		{"offers",
			Expectation{Check: CheckOffers, Kinds: []string{"stretch"}},
			Expectation{Check: CheckOffers, Program: "ironwood-strength-6"}, "offered: local:core-04"},
		{"cta",
			Expectation{Check: CheckCTA, Type: "program", Action: "play_up_next", Message: "ready"},
			Expectation{Check: CheckCTA, Action: "open_weight"}, "calls to action: program/play_up_next"},
		{"cta absent",
			Expectation{Check: CheckCTA, Action: "open_weight", Absent: true},
			Expectation{Check: CheckCTA, Type: "program", Absent: true}, "unwanted call to action"},
		{"cta_count",
			Expectation{Check: CheckCTACount, Max: intp(3)},
			Expectation{Check: CheckCTACount, Min: intp(2)}, "1 calls to action, want at least 2"},
		{"prompt",
			Expectation{Check: CheckPrompt, ID: "energy", Type: "multiple_choice", Option: "^Tired$", Message: "energy"},
			Expectation{Check: CheckPrompt, ID: "goal"}, `prompts: energy (multiple_choice) "How's your energy?"`},
		{"prompt absent",
			Expectation{Check: CheckPrompt, ID: "goal", Absent: true},
			Expectation{Check: CheckPrompt, Option: "Tired", Absent: true}, "unwanted prompt: energy"},
		{"prompt_count",
			Expectation{Check: CheckPromptCount, Max: intp(3)},
			Expectation{Check: CheckPromptCount, Max: intp(0)}, "1 prompts, want at most 0"},
		{"mentions",
			Expectation{Check: CheckMentions, Field: "briefing", Pattern: `Week 1, Day 4`},
			Expectation{Check: CheckMentions, Field: "feedback", Pattern: `(?i)knee`}, "feedback:"},
		{"mentions absent",
			Expectation{Check: CheckMentions, Field: "coach", Pattern: `(?i)rest day`, Absent: true},
			Expectation{Check: CheckMentions, Field: "coach", Pattern: `(?i)energy`, Absent: true}, `coach says "energy"`},
		{"words",
			Expectation{Check: CheckWords, Field: "briefing", Max: intp(40)},
			Expectation{Check: CheckWords, Field: "briefing", Max: intp(10)}, "words in briefing, want at most 10"},
		{"run",
			Expectation{Check: CheckRun, Status: "succeeded", Model: "heuristic"},
			Expectation{Check: CheckRun, Status: "fell_back", Fallback: "budget"}, "run succeeded"},
		{"memory",
			Expectation{Check: CheckMemory, ID: "^context:", Value: "(?i)knee"},
			Expectation{Check: CheckMemory, ID: "^context:unwell$"}, "memory keys: context:injury"},
		{"memory absent",
			Expectation{Check: CheckMemory, ID: "^context:unwell$", Absent: true},
			Expectation{Check: CheckMemory, ID: "injury", Absent: true}, "memory holds context:injury"},
		{"program",
			Expectation{Check: CheckProgram, Program: "ember-core-30", Status: "active", Day: 4},
			Expectation{Check: CheckProgram, Status: "completed"}, "program is ember-core-30 active day 4"},
		{"program absent",
			Expectation{Check: CheckProgram, Program: "ember-core-30"},
			Expectation{Check: CheckProgram, Absent: true}, "the member is on ember-core-30"},
		{"goal",
			Expectation{Check: CheckGoal, Pattern: "stronger"},
			Expectation{Check: CheckGoal, Pattern: "(?i)marathon"}, "active goals: Get stronger"},
	}
	d := goodDoc()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, e := range []*Expectation{&c.holds, &c.fails} {
				if err := e.check(); err != nil {
					t.Fatalf("%s: %v", e.Label(), err)
				}
			}
			if got := c.holds.evaluate(&d, testCatalog(), testAfter()); got != "" {
				t.Errorf("%s does not hold: %s", c.holds.Label(), got)
			}
			got := c.fails.evaluate(&d, testCatalog(), testAfter())
			if got == "" || !strings.Contains(got, c.failDetail) {
				t.Errorf("%s: %q, want a failure saying %q", c.fails.Label(), got, c.failDetail)
			}
		})
	}
}

func TestPlanChecksFailWithoutAPlan(t *testing.T) {
	e := Expectation{Check: CheckMentions, Field: "briefing", Pattern: "x", Absent: true}
	if err := e.check(); err != nil {
		t.Fatal(err)
	}
	if got := e.evaluate(nil, testCatalog(), testAfter()); got != "no plan was written" {
		t.Fatalf("no plan: %q", got)
	}
}

func TestScenarioFilesAreChecked(t *testing.T) {
	valid := `{"title": "t", "covers": ["rule:x"], "members": [{"id": "ada"}], "expect": [{"check": "cta_count", "max": 3}]}`
	if _, err := Parse("ok", []byte(valid)); err != nil {
		t.Fatalf("valid scenario: %v", err)
	}
	for name, c := range map[string]struct{ json, want string }{
		"unknown field":   {`{"title": "t", "covers": ["x"], "members": [{"id": "ada", "wieght": 1}], "expect": [{"check": "cta_count", "max": 3}]}`, `unknown field "wieght"`},
		"no covers":       {`{"title": "t", "members": [{"id": "ada"}], "expect": [{"check": "cta_count", "max": 3}]}`, "covers"},
		"unknown check":   {`{"title": "t", "covers": ["x"], "members": [{"id": "ada"}], "expect": [{"check": "vibes"}]}`, `unknown check "vibes"`},
		"missing arg":     {`{"title": "t", "covers": ["x"], "members": [{"id": "ada"}], "expect": [{"check": "mentions", "field": "briefing"}]}`, "pattern is required"},
		"bad pattern":     {`{"title": "t", "covers": ["x"], "members": [{"id": "ada"}], "expect": [{"check": "mentions", "field": "briefing", "pattern": "("}]}`, "pattern"},
		"bad kind":        {`{"title": "t", "covers": ["x"], "members": [{"id": "ada"}], "expect": [{"check": "up_next", "kinds": ["zumba"]}]}`, `kind "zumba"`},
		"subject":         {`{"title": "t", "covers": ["x"], "subject": "bo", "members": [{"id": "ada"}], "expect": [{"check": "cta_count", "max": 3}]}`, `subject "bo"`},
		"gap grader":      {`{"title": "t", "covers": ["x"], "known_gaps": {"tone": "x"}, "members": [{"id": "ada"}], "expect": [{"check": "cta_count", "max": 3}]}`, "not a generic grader"},
		"timeline order":  {`{"title": "t", "covers": ["x"], "members": [{"id": "ada"}], "timeline": [{"day": 1, "run": true}, {"day": 2, "run": true}], "expect": [{"check": "cta_count", "max": 3}]}`, "time order"},
		"timeline after":  {`{"title": "t", "covers": ["x"], "members": [{"id": "ada"}], "timeline": [{"day": 0, "at": "09:00", "run": true}], "expect": [{"check": "cta_count", "max": 3}]}`, "before the graded run"},
		"event kind":      {`{"title": "t", "covers": ["x"], "members": [{"id": "ada"}], "timeline": [{"day": 1}], "expect": [{"check": "cta_count", "max": 3}]}`, "exactly one of"},
		"days backwards":  {`{"title": "t", "covers": ["x"], "members": [{"id": "ada", "meals": [{"from": 1, "to": 5, "name": "x", "kcal": 1}]}], "expect": [{"check": "cta_count", "max": 3}]}`, "must not be after"},
		"runtime":         {`{"title": "t", "covers": ["x"], "members": [{"id": "ada"}], "expect": [{"check": "cta_count", "max": 3, "runtime": "gpt"}]}`, "heuristic or model"},
		"bad file name":   {valid, "file name"},
		"duplicate ids":   {`{"title": "t", "covers": ["x"], "members": [{"id": "ada"}, {"id": "ada"}], "expect": [{"check": "cta_count", "max": 3}]}`, "unique"},
		"unknown mutant":  {`{"title": "t", "covers": ["mutant:ignore-everything"], "members": [{"id": "ada"}], "expect": [{"check": "cta_count", "max": 3}]}`, "no such coach mutant"},
		"paraphrase":      {`{"title": "t", "covers": ["x"], "members": [{"id": "ada"}], "expect": [{"check": "cta_count", "max": 3}], "paraphrase": {"briefing": "Weight 74 kg.", "wrong": {"from": "75 kg", "to": "73 kg"}}}`, "wrong.from \"75 kg\" is not in the paraphrase"},
		"weight no value": {`{"title": "t", "covers": ["x"], "members": [{"id": "ada", "weights": [{"day": 1}]}], "expect": [{"check": "cta_count", "max": 3}]}`, "value is required"},
	} {
		id := "case"
		if name == "bad file name" {
			id = "Bad Name"
		}
		_, err := Parse(id, []byte(c.json))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error about %q", name, err, c.want)
		}
	}
}

func TestBuiltinSuiteCoversTheSeedReviewAndIsLargeEnough(t *testing.T) {
	scs, err := Scenarios()
	if err != nil {
		t.Fatal(err)
	}
	if len(scs) < 40 {
		t.Fatalf("%d scenarios, want at least 40", len(scs))
	}
	covered := map[string]bool{}
	for _, sc := range scs {
		for _, c := range sc.Covers {
			covered[strings.Fields(c)[0]] = true
		}
	}
	// Every stress test of the seed design's review section (001, "Design
	// Review — Stress Test") has a scenario.
	for n := 1; n <= 12; n++ {
		if id := "stress:" + itoa(n); !covered[id] {
			t.Errorf("no scenario covers %s", id)
		}
	}
	raw, _ := json.Marshal(scs[0].Expect)
	if len(raw) < 10 {
		t.Fatal("expectations did not load")
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
