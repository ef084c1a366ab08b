package household_test

import (
	"context"
	"testing"

	"hearth/internal/apperr"
	"hearth/internal/household"
	"hearth/internal/live"
	"hearth/internal/store/storetest"
)

// fieldsOf returns the per-field messages of an Invalid error (nil: none).
func fieldsOf(t *testing.T, err error) map[string]string {
	t.Helper()
	if err == nil {
		return nil
	}
	ae := apperr.As(err)
	if ae == nil || ae.Code != apperr.Invalid {
		t.Fatalf("error %v is not Invalid", err)
	}
	return ae.Fields
}

func TestParseNight(t *testing.T) {
	good := []struct {
		mode, from, to string
		want           household.Night
	}{
		{"dim", "22:00", "06:30", household.Night{Mode: "dim", From: "22:00", To: "06:30"}},
		{"blank", "7:05", "9:00", household.Night{Mode: "blank", From: "07:05", To: "09:00"}},
		{" dim ", " 23:59 ", "00:00", household.Night{Mode: "dim", From: "23:59", To: "00:00"}},
		{"dim", "22:00:00", "06:30:00", household.Night{Mode: "dim", From: "22:00", To: "06:30"}}, // <input type=time> with seconds
		{"off", "", "", household.Night{Mode: "off"}},
		{"off", "22:00", "06:30", household.Night{Mode: "off", From: "22:00", To: "06:30"}}, // kept for turning it on again
	}
	for _, c := range good {
		got, err := household.ParseNight(c.mode, c.from, c.to)
		if err != nil || got != c.want {
			t.Errorf("ParseNight(%q, %q, %q) = %+v, %v; want %+v", c.mode, c.from, c.to, got, err, c.want)
		}
	}
	// Each refusal names the field it is about, and only that one.
	bad := []struct {
		mode, from, to string
		field          string
	}{
		{"dim", "24:00", "06:30", "night_from"},
		{"dim", "22:60", "06:30", "night_from"},
		{"dim", "10pm", "06:30", "night_from"},
		{"dim", "22:00", "6.30", "night_to"},
		{"dim", "22:00", "-1:00", "night_to"},
		{"dim", "22:00", "06:30:15", "night_to"},
		{"dim", "22:00", "", "night_to"},
		{"blank", "", "06:30", "night_from"},
		{"dim", "22:00", "22:00", "night_to"},
		{"dark", "22:00", "06:30", "night_mode"},
		{"", "", "", "night_mode"}, // a form without the field
		{"off", "22:00", "tomorrow", "night_to"},
	}
	for _, c := range bad {
		_, err := household.ParseNight(c.mode, c.from, c.to)
		f := fieldsOf(t, err)
		if len(f) != 1 || f[c.field] == "" {
			t.Errorf("ParseNight(%q, %q, %q): fields %v, want one error on %s", c.mode, c.from, c.to, f, c.field)
		}
	}
}

func FuzzParseNight(f *testing.F) {
	f.Add("dim", "22:00", "06:30")
	f.Add("blank", "7:5", "24:00")
	f.Fuzz(func(t *testing.T, mode, from, to string) {
		n, err := household.ParseNight(mode, from, to)
		if err != nil {
			if fieldsOf(t, err) == nil {
				t.Fatalf("refusal without fields: %v", err)
			}
			return
		}
		// What is accepted is what the database's CHECKs and the page's
		// attributes accept.
		for _, v := range []string{n.From, n.To} {
			if v != "" && (len(v) != 5 || v[2] != ':' || v > "23:59" || v[3] > '5') {
				t.Fatalf("accepted time %q", v)
			}
		}
		if n.On() && (n.From == "" || n.To == "" || n.From == n.To) {
			t.Fatalf("accepted night %+v", n)
		}
	})
}

func TestParseTimeZone(t *testing.T) {
	for in, want := range map[string]string{"Europe/Berlin": "Europe/Berlin", " UTC ": "UTC", "": "", "America/Argentina/Buenos_Aires": "America/Argentina/Buenos_Aires"} {
		if got, err := household.ParseTimeZone(in); err != nil || got != want {
			t.Errorf("ParseTimeZone(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"Mars/Olympus_Mons", "Local", "europe/berlin", "../../etc/passwd", "Europe/Ber\nlin", "Europe/Berlin/..", string(make([]byte, 80))} {
		if _, err := household.ParseTimeZone(in); fieldsOf(t, err)["time_zone"] == "" {
			t.Errorf("ParseTimeZone(%q) = %v, want a time_zone error", in, err)
		}
	}
}

// recorder keeps what was published.
type recorder struct{ kinds []live.Kind }

func (r *recorder) Publish(topic string, kind live.Kind, _ any) {
	if topic == live.TopicHousehold {
		r.kinds = append(r.kinds, kind)
	}
}

func TestSettingsRoundTrip(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	pub := &recorder{}
	s := household.New(db, pub)
	st, err := s.Settings(ctx)
	if err != nil || st != (household.Settings{Night: household.Night{Mode: household.NightOff}}) {
		t.Fatalf("defaults: %+v %v", st, err)
	}
	if _, err := s.SetTimeZone(ctx, "Europe/Berlin"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetNight(ctx, "dim", "22:00", "6:30"); err != nil {
		t.Fatal(err)
	}
	// A refused change leaves what was stored.
	if _, err := s.SetTimeZone(ctx, "Atlantis/Capital"); fieldsOf(t, err)["time_zone"] == "" {
		t.Fatalf("bad zone: %v", err)
	}
	if _, err := s.SetNight(ctx, "blank", "25:00", "06:00"); fieldsOf(t, err)["night_from"] == "" {
		t.Fatalf("bad night: %v", err)
	}
	want := household.Settings{TimeZone: "Europe/Berlin", Night: household.Night{Mode: "dim", From: "22:00", To: "06:30"}}
	if st, err := household.ReadSettings(ctx, db); err != nil || st != want {
		t.Fatalf("read back %+v %v, want %+v", st, err, want)
	}
	// The saved night told the screens; the refused one did not, nor the
	// zone (it applies at the next start).
	if len(pub.kinds) != 1 || pub.kinds[0] != live.KindSettings {
		t.Fatalf("published %v", pub.kinds)
	}
	// Off keeps the times; an empty zone clears the choice.
	if _, err := s.SetNight(ctx, "off", "22:00", "06:30"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetTimeZone(ctx, ""); err != nil {
		t.Fatal(err)
	}
	want = household.Settings{Night: household.Night{Mode: "off", From: "22:00", To: "06:30"}}
	if st, err := s.Settings(ctx); err != nil || st != want {
		t.Fatalf("read back %+v %v, want %+v", st, err, want)
	}
}
