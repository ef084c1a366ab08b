package backup

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// List returns the archives in dir, newest first (an absent directory has
// none). Other files are ignored.
func List(dir string) ([]Archive, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return []Archive{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("backup: list %s: %w", dir, err)
	}
	out := []Archive{}
	for _, e := range entries {
		a, ok := ParseName(e.Name())
		if !ok || !e.Type().IsRegular() {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue // removed meanwhile
		}
		a.Path, a.Size = filepath.Join(dir, e.Name()), fi.Size()
		out = append(out, a)
	}
	slices.SortFunc(out, func(a, b Archive) int {
		if c := b.CreatedAt.Compare(a.CreatedAt); c != 0 {
			return c
		}
		return compareNames(b.Name, a.Name)
	})
	return out, nil
}

func compareNames(a, b string) int {
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Retention is how many scheduled backups to keep: the newest of each of
// the last Daily days that have one, and the newest of each of the last
// Weekly ISO weeks, in the household's time zone. Backups someone asked for
// (not auto) are never pruned.
type Retention struct {
	Daily  int `json:"keep_daily"`
	Weekly int `json:"keep_weekly"`
}

// DefaultRetention keeps a week of nightly backups and a month of weeklies.
var DefaultRetention = Retention{Daily: 7, Weekly: 4}

// Keep returns the names of the auto archives retention keeps.
func (r Retention) Keep(archives []Archive, loc *time.Location) map[string]bool {
	sorted := slices.Clone(archives)
	slices.SortFunc(sorted, func(a, b Archive) int { return b.CreatedAt.Compare(a.CreatedAt) })
	keep := map[string]bool{}
	days, weeks := map[string]bool{}, map[string]bool{}
	for _, a := range sorted {
		if !a.Auto {
			continue
		}
		t := a.CreatedAt.In(loc)
		day := t.Format(time.DateOnly)
		y, w := t.ISOWeek()
		week := fmt.Sprintf("%d-W%02d", y, w)
		if !days[day] && len(days) < r.Daily {
			days[day] = true
			keep[a.Name] = true
		}
		if !weeks[week] && len(weeks) < r.Weekly {
			weeks[week] = true
			keep[a.Name] = true
		}
	}
	return keep
}

// Prune removes the auto archives in dir that r does not keep and returns
// their names. The newest backup always stays.
func Prune(dir string, r Retention, loc *time.Location) ([]string, error) {
	all, err := List(dir)
	if err != nil {
		return nil, err
	}
	keep := r.Keep(all, loc)
	var removed []string
	var errs []error
	for i, a := range all {
		if !a.Auto || keep[a.Name] || i == 0 {
			continue
		}
		if err := os.Remove(a.Path); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
			continue
		}
		removed = append(removed, a.Name)
	}
	if len(errs) > 0 {
		return removed, fmt.Errorf("backup: prune: %w", errors.Join(errs...))
	}
	return removed, syncDir(dir)
}
