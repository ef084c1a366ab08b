package web_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"hearth/internal/dashboard"
	"hearth/internal/messages"
	"hearth/internal/program"
)

// The kiosk's program controls go through the guarded program operations
// and every open screen shows the change.
func TestKioskProgramControls(t *testing.T) {
	k := newKiosk(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	today := time.Now().UTC().Format(time.DateOnly)
	_, page := k.get("/m/ada")
	if !strings.Contains(page, `id="program"`) || !strings.Contains(page, "Start it today") {
		t.Fatal("no program card offering to start one")
	}
	s, stream := k.openStream(ctx, "/live/m/ada")
	defer stream.Body.Close()
	s.until(t, 2*time.Second, `id="program"`)

	step := func(form []string, flash string, check func(program.State)) {
		t.Helper()
		_, body := k.post("/m/ada/program", formOf(form...), "")
		if !strings.Contains(body, flash) {
			t.Fatalf("%v: %s", form, body)
		}
		st, err := k.ps.Current(ctx, "ada")
		if err != nil {
			t.Fatal(err)
		}
		check(st)
		s.until(t, 2*time.Second, `id="program"`) // re-rendered live
	}
	step([]string{"op", "switch", "program", "ember-core-30"}, "New program started", func(st program.State) {
		if st.ProgramID != "ember-core-30" || st.StartDate != today || st.CurrentDay != 1 {
			t.Fatalf("started %+v", st)
		}
	})
	step([]string{"op", "pause"}, "Program paused", func(st program.State) {
		if st.Status != program.Paused {
			t.Fatalf("paused %+v", st)
		}
	})
	step([]string{"op", "resume"}, "Program resumed", func(st program.State) {
		if st.Status != program.Active {
			t.Fatalf("resumed %+v", st)
		}
	})
	step([]string{"op", "day", "day", "5"}, "Moved to day 5", func(st program.State) {
		if st.CurrentDay != 5 {
			t.Fatalf("day %+v", st)
		}
	})
	step([]string{"op", "substitute", "actual", "", "actual_text", "30-min bike ride"}, "something else", func(st program.State) {
		if n := len(st.Substitutions); n != 1 || st.Substitutions[0].Actual != "30-min bike ride" || st.Substitutions[0].Day != 5 {
			t.Fatalf("substitutions %+v", st.Substitutions)
		}
	})
	step([]string{"op", "pace-own"}, "own pace", func(st program.State) {
		if st.Pace != program.PaceOwn {
			t.Fatalf("pace %+v", st)
		}
	})
	step([]string{"op", "switch", "program", "tideline-yoga-21"}, "New program started", func(st program.State) {
		if st.ProgramID != "tideline-yoga-21" {
			t.Fatalf("switched %+v", st)
		}
	})
	step([]string{"op", "restart"}, "restarted", func(st program.State) {
		if st.CurrentDay != 1 || st.ProgramID != "tideline-yoga-21" {
			t.Fatalf("restarted %+v", st)
		}
	})
	// A control the state does not allow is refused with the reason.
	_, body := k.post("/m/ada/program", formOf("op", "resume"), "")
	if !strings.Contains(body, "flash-error") || !strings.Contains(body, "not paused") {
		t.Fatalf("resume of an active program: %s", body)
	}
	_, body = k.post("/m/ada/program", formOf("op", "day", "day", "99"), "")
	if !strings.Contains(body, "flash-error") || !strings.Contains(body, "not 99") {
		t.Fatalf("day 99: %s", body)
	}
}

// The player shows the day the dashboard shows: the member's program day
// for today's session, not the catalog's episode number.
func TestPlayerAgreesWithTheProgramContext(t *testing.T) {
	k := newKiosk(t)
	ctx := context.Background()
	start := time.Now().UTC().AddDate(0, 0, -20).Format(time.DateOnly)
	if _, err := k.ps.Declare(ctx, "ada", "ember-core-30", start, "daily"); err != nil {
		t.Fatal(err)
	}
	if _, err := k.ps.SetDay(ctx, "ada", 11); err != nil { // day 11 plays ember-core-02, the catalog's episode 2
		t.Fatal(err)
	}
	td, err := k.ps.Today(ctx, "ada", time.Now(), time.UTC)
	if err != nil || td.Item == nil || td.Item.ID != "local:ember-core-02" {
		t.Fatalf("today %+v %v", td, err)
	}
	k.post("/m/ada/playlist", formOf("op", "add", "id", "local:ember-core-02"), "")
	_, page := k.get("/m/ada/play?i=0")
	if !strings.Contains(page, "Week 2, Day 4") || strings.Contains(page, "Week 1, Day 2") {
		t.Fatalf("the player does not show the program day (Week 2, Day 4):\n%s", page)
	}
	// The plan was written when day 10 was next (the program moved on
	// since): Up Next names today's day too.
	doc := sampleDoc("Morning.")
	doc.Curated.UpNext.Primary = &dashboard.ContentRef{ContentID: "local:ember-core-02", Title: "Plank Ladder", Duration: 18,
		ProgramContext: "Week 2, Day 3"}
	k.putDoc("ada", today(), doc)
	_, page = k.get("/m/ada")
	i := strings.Index(page, `id="upnext"`)
	card := page[i : i+strings.Index(page[i:], "</a>")]
	if !strings.Contains(card, "Plank Ladder") || !strings.Contains(card, "Week 2, Day 4") {
		t.Fatalf("Up Next does not say the member's program day:\n%s", card)
	}
}

// Messages from the coach show on the dashboard with their time, arrive
// live, and a dismiss hides them on every screen.
func TestCoachMessagesOnTheKiosk(t *testing.T) {
	k := newKiosk(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, stream := k.openStream(ctx, "/live/m/ada")
	defer stream.Body.Close()
	s.until(t, 2*time.Second, `id="w-messages"`)
	m, err := k.ms.Send(ctx, "ada", "health-coach", "Hydration reminder: a glass now.", messages.Via{Source: "schedule"})
	if err != nil {
		t.Fatal(err)
	}
	s.until(t, 2*time.Second, `id="w-messages"`, "From your coach", "Hydration reminder: a glass now.", "today ")
	_, body := k.post("/m/ada/messages/"+strconv.FormatInt(m.ID, 10)+"/dismiss", formOf(), "")
	if strings.Contains(body, "error") {
		t.Fatalf("dismiss: %s", body)
	}
	ev := s.until(t, 2*time.Second, `id="w-messages"`)
	if strings.Contains(ev, "Hydration reminder") {
		t.Fatal("the dismissed message is still shown")
	}
	if resp, _ := k.send("/m/bo/messages/"+strconv.FormatInt(m.ID, 10)+"/dismiss", formOf(), "", false); resp.StatusCode != 404 {
		t.Fatalf("bo dismissing ada's message: %d", resp.StatusCode)
	}
}
