package content

import (
	"context"
	"fmt"

	"hearth/internal/apperr"
	"hearth/internal/store"
)

// Programs lists every program, ordered by title.
func (c *Catalog) Programs(ctx context.Context) ([]ProgramInfo, error) {
	out, err := store.All(ctx, c.db.Read, func(row store.Scanner) (ProgramInfo, error) {
		var p ProgramInfo
		err := row.Scan(&p.ID, &p.Title, &p.Description, &p.Source, &p.TotalDays, &p.TrainingDays)
		return p, err
	}, `SELECT p.id, p.title, p.description, p.source,
		count(d.day), coalesce(sum(CASE WHEN d.rest = 0 THEN 1 ELSE 0 END), 0)
		FROM content_programs p LEFT JOIN content_program_days d ON d.program_id = p.id
		GROUP BY p.id ORDER BY p.title, p.id`)
	if err != nil {
		return nil, fmt.Errorf("content: list programs: %w", err)
	}
	return out, nil
}

// Program returns a program with its schedule, or an apperr.NotFound error.
func (c *Catalog) Program(ctx context.Context, id string) (Program, error) {
	p, found, err := findProgram(ctx, c.db.Read, id)
	if err != nil {
		return p, err
	}
	if !found {
		return p, apperr.NotFoundf("no program %q in the catalog", id)
	}
	return p, nil
}

// ProgramDay resolves one day of a program with its item; a day outside the
// schedule or an unknown program is an apperr.NotFound error.
func (c *Catalog) ProgramDay(ctx context.Context, programID string, day int) (ScheduledDay, error) {
	p, err := c.Program(ctx, programID)
	if err != nil {
		return ScheduledDay{}, err
	}
	if day < 1 || day > len(p.Days) {
		return ScheduledDay{}, apperr.NotFoundf("program %q has days 1 to %d, not %d", programID, len(p.Days), day)
	}
	d := p.Days[day-1]
	sd := ScheduledDay{ProgramID: p.ID, ProgramTitle: p.Title, Day: d.Day, TotalDays: len(p.Days), Rest: d.Rest, Note: d.Note}
	if !d.Rest {
		it, err := c.Get(ctx, d.ContentID)
		if err != nil {
			return sd, fmt.Errorf("content: program %s day %d: %w", programID, day, err)
		}
		sd.Item = &it
	}
	return sd, nil
}
