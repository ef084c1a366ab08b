package sensors

import (
	"context"
	"strconv"
	"testing"
	"time"
)

// BenchmarkFirstPoll: a mapping's first poll reads 30 days. A step sensor
// that reports every 5 minutes has 8,640 states then (30 daily figures); a
// scale weighed twice a day 60. After the first, each iteration re-reads
// all 30 days (cursor lost): every reading is a ledger duplicate.
func BenchmarkFirstPoll(b *testing.B) {
	for _, c := range []struct {
		name  string
		kind  Kind
		every time.Duration
		unit  string
	}{{"steps every 5 min", KindSteps, 5 * time.Minute, "steps"}, {"scale twice a day", KindWeight, 12 * time.Hour, "kg"}} {
		b.Run(c.name, func(b *testing.B) {
			e := newEnv(b)
			e.mapping("sensor.x", "ada", c.kind)
			n := 0
			for at := e.now.Add(-FirstPoll).Add(time.Minute); at.Before(e.now); at = at.Add(c.every) {
				v := 80 + float64(n%10)/10
				if c.kind == KindSteps {
					v = float64((n * 37) % 12000)
				}
				e.add("sensor.x", strconv.FormatFloat(v, 'f', 1, 64), c.unit, at)
				n++
			}
			b.ReportMetric(float64(n), "states")
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				if _, err := e.db.Write.Exec(`UPDATE sensor_mappings SET cursor_at = NULL`); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if _, err := e.svc.Poll(context.Background()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
