package text

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		mode Mode
		in   string
		want string
		bad  rune // -1: accepted
	}{
		{"plain", Line, "Oats with berries", "Oats with berries", -1},
		{"emoji", Line, "Pho 🍜", "Pho 🍜", -1},
		{"line separator is text", Line, "a\u2028b\u2029c", "a\u2028b\u2029c", -1},
		{"line refuses CR", Line, "Oats\r\revent: x", "", '\r'},
		{"line refuses LF", Line, "a\nb", "", '\n'},
		{"line refuses tab", Line, "a\tb", "", '\t'},
		{"line refuses NUL", Line, "a\x00b", "", 0x00},
		{"line refuses ESC", Line, "a\x1bb", "", 0x1b},
		{"line refuses DEL", Line, "a\x7fb", "", 0x7f},
		{"line refuses C1", Line, "a\u0085b", "", 0x85},
		{"line refuses invalid UTF-8", Line, "a\xffb", "", utf8.RuneError},
		{"literal U+FFFD is text", Line, "a\uFFFDb", "a\uFFFDb", -1},
		{"multi CRLF", Multi, "one\r\ntwo", "one\ntwo", -1},
		{"multi lone CR", Multi, "one\rtwo\r", "one\ntwo\n", -1},
		{"multi keeps tab", Multi, "a\tb", "a\tb", -1},
		{"multi refuses ESC", Multi, "a\x1b[31m", "", 0x1b},
		{"multi refuses NUL", Multi, "a\x00", "", 0},
		{"multi refuses C1", Multi, "a\u009bb", "", 0x9b},
		{"multi refuses invalid UTF-8", Multi, "\xc3\x28", "", utf8.RuneError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Check(tc.mode, tc.in)
			if tc.bad == -1 {
				if err != nil || got != tc.want {
					t.Fatalf("Check(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
				}
				return
			}
			var te *Error
			if !errors.As(err, &te) {
				t.Fatalf("Check(%q) = %q, %v; want refusal", tc.in, got, err)
			}
			if te.Rune != tc.bad {
				t.Fatalf("refused rune %U, want %U", te.Rune, tc.bad)
			}
			if te.Error() == "" {
				t.Fatal("empty message")
			}
		})
	}
}

func TestCleanDropsAndCounts(t *testing.T) {
	for _, tc := range []struct {
		mode    Mode
		in      string
		want    string
		dropped int
	}{
		{Line, "Yoga Flow", "Yoga Flow", 0},
		{Line, "Yoga\r\nFlow", "Yoga  Flow", 2},
		{Line, "a\x0bb", "ab", 1}, // U+000B: a real Apple Health export defect
		{Line, "a\xffb\xfe", "ab", 2},
		{Multi, "a\r\nb\x00c\u0085", "a\nbc", 2},
		{Multi, "keep\u2028this", "keep\u2028this", 0},
	} {
		got, n := Clean(tc.mode, tc.in)
		if got != tc.want || n != tc.dropped {
			t.Errorf("Clean(%d, %q) = %q, %d; want %q, %d", tc.mode, tc.in, got, n, tc.want, tc.dropped)
		}
		if _, err := Check(tc.mode, got); err != nil {
			t.Errorf("Clean output %q fails Check: %v", got, err)
		}
	}
}

func TestFieldAndRequired(t *testing.T) {
	errs := map[string]string{}
	if got := Field(errs, "note", Multi, "  hi\r\nthere ", 100); got != "hi\nthere" {
		t.Fatalf("Field = %q", got)
	}
	if got := Field(errs, "name", Line, strings.Repeat("é", 5), 4); got != "" || errs["name"] == "" {
		t.Fatalf("length cap not enforced: %q %v", got, errs)
	}
	if got := Required(errs, "title", Line, "   ", 10); got != "" || errs["title"] != "is required" {
		t.Fatalf("Required: %q %v", got, errs)
	}
	if Required(errs, "bad", Line, "x\x1b", 10); errs["bad"] != "contains a control character (U+001B)" {
		t.Fatalf("first error must win, got %q", errs["bad"])
	}
}

func TestWithoutCR(t *testing.T) {
	in := []byte("data: a\rb\r\n")
	orig := string(in)
	if got := string(WithoutCR(in)); got != "data: ab\n" {
		t.Fatalf("WithoutCR = %q", got)
	}
	if string(in) != orig {
		t.Fatal("WithoutCR modified its input")
	}
	plain := []byte("no cr")
	if got := WithoutCR(plain); &got[0] != &plain[0] {
		t.Fatal("expected the same slice back when there is no CR")
	}
}

func FuzzClean(f *testing.F) {
	for _, s := range []string{"", "a\rb", "\xff", "x\u2028", "\x1b[0m", "\r\n\r"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, m := range []Mode{Line, Multi} {
			out, _ := Clean(m, s)
			if _, err := Check(m, out); err != nil {
				t.Fatalf("Clean(%d, %q) = %q fails Check: %v", m, s, out, err)
			}
			if strings.ContainsRune(out, '\r') {
				t.Fatalf("CR survived Clean: %q", out)
			}
			if got, err := Check(m, s); err == nil && got != out {
				t.Fatalf("Check accepted %q as %q but Clean gave %q", s, got, out)
			}
		}
	})
}
