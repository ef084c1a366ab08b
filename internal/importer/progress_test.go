package importer

import (
	"os"
	"strings"
	"testing"
	"time"
)

func TestProgressThrottled(t *testing.T) {
	var calls []Progress
	p := newProgress(strings.NewReader("abcdef"), "f.csv", 6, func(pr Progress) { calls = append(calls, pr) })
	clock := time.Unix(0, 0)
	p.now = func() time.Time { return clock }
	buf := make([]byte, 4)
	_, _ = p.Read(buf)
	for i := range 100_000 {
		if i%256 == 0 {
			clock = clock.Add(time.Millisecond) // 100k records over ~0.4 s
		}
		p.record()
	}
	if n := len(calls); n < 3 || n > 5 {
		t.Errorf("%d progress calls over 0.4 s, want about 4 (at most 10 a second)", n)
	}
	if calls[0].BytesRead != 4 || calls[0].BytesTotal != 6 || calls[0].File != "f.csv" {
		t.Errorf("first call %+v", calls[0])
	}
	p.done()
	last := calls[len(calls)-1]
	if !last.Done || last.Records != 100_000 {
		t.Errorf("final call %+v", last)
	}
}

func TestImportReportsProgress(t *testing.T) {
	db := newDB(t)
	path := bigExport(t, 5_000)
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	var got []Progress
	if _, err := ImportFile(t.Context(), db, Options{Member: "ada", Progress: func(p Progress) { got = append(got, p) }}, path); err != nil {
		t.Fatal(err)
	}
	if len(got) < 2 {
		t.Fatalf("progress calls %d, want a first one and the final one", len(got))
	}
	for i := 1; i < len(got); i++ {
		if got[i].BytesRead < got[i-1].BytesRead || got[i].Records < got[i-1].Records {
			t.Errorf("progress went backwards: %+v then %+v", got[i-1], got[i])
		}
	}
	last := got[len(got)-1]
	if !last.Done || last.Records != 5_000 || last.BytesRead != st.Size() || last.Percent() != 100 {
		t.Errorf("final progress %+v", last)
	}
}
