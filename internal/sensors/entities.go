package sensors

import (
	"context"
	"sort"

	"hearth/internal/homeassistant"
)

// Entity is a sensor an admin can map.
type Entity struct {
	ID   string
	Name string
	Unit string
}

// Entities lists the instance's sensor entities that report a unit, for
// the admin's picker (homeassistant.ErrNotConfigured or the client's error
// when it cannot).
func (s *Service) Entities(ctx context.Context) ([]Entity, error) {
	client, err := s.connect(ctx)
	if err != nil {
		return nil, err
	}
	states, err := client.States(ctx)
	if err != nil {
		return nil, err
	}
	var out []Entity
	for _, st := range states {
		if st.Domain() != "sensor" || st.Unit() == "" || homeassistant.CheckEntityID(st.EntityID) != nil {
			continue
		}
		out = append(out, Entity{ID: st.EntityID, Name: st.Name(), Unit: st.Unit()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}
