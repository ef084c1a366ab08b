package admin

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"hearth/internal/homeassistant"
	"hearth/internal/sensors"
	"hearth/views"
	"hearth/views/adminview"
	"hearth/web/httpkit"
)

// SensorsAdmin maps Home Assistant entities to members and polls them
// (*sensors.Service).
type SensorsAdmin interface {
	Configured(ctx context.Context) bool
	Mappings(ctx context.Context) ([]sensors.Mapping, error)
	Entities(ctx context.Context) ([]sensors.Entity, error)
	AddMapping(ctx context.Context, in sensors.MappingInput) (sensors.Mapping, error)
	RemoveMapping(ctx context.Context, id int64) error
	Poll(ctx context.Context) (sensors.Result, error)
}

// sensorPages are Admin → Integrations → Sensors.
type sensorPages struct {
	*core
	sensors SensorsAdmin
}

const sensorsPath = "/admin/integrations/sensors"

var sensorFormFields = []string{"entity", "member", "kind"}

func sensorKinds() []views.Option {
	out := []views.Option{{Value: "", Label: "choose…"}}
	for _, k := range sensors.Kinds {
		out = append(out, views.Option{Value: string(k), Label: k.Label()})
	}
	return out
}

// sensorsPage builds the page; the entity list is asked of Home Assistant
// only when it is configured, and its failure is shown, not fatal.
func (s *sensorPages) sensorsPage(c echo.Context, form views.FormState, notice adminview.Notice) (adminview.AdminSensors, error) {
	ctx := c.Request().Context()
	p := adminview.AdminSensors{AdminPage: s.adminPage(c, "Sensors", "integrations"), Form: form, Notice: notice,
		Kinds: sensorKinds(), Configured: s.sensors.Configured(ctx)}
	var err error
	if p.Members, err = s.memberOptions(ctx); err != nil {
		return p, err
	}
	p.Members = append([]views.Option{{Value: "", Label: "choose…"}}, p.Members...)
	maps, err := s.sensors.Mappings(ctx)
	if err != nil {
		return p, err
	}
	for _, m := range maps {
		row := adminview.SensorRow{ID: strconv.FormatInt(m.ID, 10), Entity: m.EntityID, Member: m.MemberID, Kind: m.Kind.Label(),
			Error: m.Error}
		if m.PolledAt != nil {
			row.Polled = s.fmtAge(*m.PolledAt)
			row.Added = strconv.Itoa(m.Added)
		}
		if m.Cursor != nil {
			row.Cursor = s.fmtWhen(*m.Cursor)
		}
		p.Rows = append(p.Rows, row)
	}
	if p.Configured {
		ectx, cancel := context.WithTimeout(ctx, 5*time.Second) // the page does not wait long for the picker
		defer cancel()
		ents, err := s.sensors.Entities(ectx)
		switch {
		case err == nil:
			for _, e := range ents {
				p.Entities = append(p.Entities, views.Option{Value: e.ID, Label: e.Name + " (" + e.Unit + ")"})
			}
		case errors.Is(err, context.Canceled):
			return p, err
		default:
			p.EntitiesError = "Home Assistant's sensor list could not be read (" + problemText(err) + "): type the entity id."
		}
	}
	return p, nil
}

// adminSensors shows the mappings, their last polls and the form.
func (s *sensorPages) adminSensors(c echo.Context) error {
	notice := adminview.Notice{}
	switch c.QueryParam("done") {
	case "added":
		notice.Text = "Mapped, and read now: its outcome is below. Hearth reads it again every 15 minutes."
	case "removed":
		notice.Text = "Mapping removed; what it imported stays."
	case "polled":
		notice.Text = "Polled: each sensor's outcome is below."
	}
	p, err := s.sensorsPage(c, views.FormState{}, notice)
	if err != nil {
		return err
	}
	return httpkit.Render(c, http.StatusOK, adminview.AdminSensorsPage(p))
}

// adminSensorAdd maps an entity; a refused form comes back as typed.
func (s *sensorPages) adminSensorAdd(c echo.Context) error {
	values := httpkit.FormValues(c, sensorFormFields...)
	m, err := s.sensors.AddMapping(c.Request().Context(), sensors.MappingInput{EntityID: values["entity"], MemberID: values["member"],
		Kind: sensors.Kind(values["kind"])})
	if err == nil {
		httpkit.Owner(c, m.MemberID)
		// Read it at once rather than at the next poll: the admin sees
		// what it brings, or why not, on the page this redirects to (the
		// outcome is recorded on the mapping; an error here is only "not
		// configured", which the page says).
		_, _ = s.sensors.Poll(c.Request().Context())
		return c.Redirect(http.StatusSeeOther, sensorsPath+"?done=added")
	}
	fs, err := formFailure(err, values)
	if err != nil {
		return err
	}
	p, err := s.sensorsPage(c, fs, adminview.Notice{})
	if err != nil {
		return err
	}
	return httpkit.Render(c, http.StatusBadRequest, adminview.AdminSensorsPage(p))
}

// adminSensorRemove removes a mapping.
func (s *sensorPages) adminSensorRemove(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err == nil {
		err = s.sensors.RemoveMapping(c.Request().Context(), id)
	}
	if err != nil {
		p, perr := s.sensorsPage(c, views.FormState{}, adminview.Notice{Text: "Nothing was removed: " + problemText(err), Error: true})
		if perr != nil {
			return perr
		}
		return httpkit.Render(c, http.StatusNotFound, adminview.AdminSensorsPage(p))
	}
	return c.Redirect(http.StatusSeeOther, sensorsPath+"?done=removed")
}

// adminSensorPoll polls every mapping now; each outcome is recorded on
// its mapping, which the page shows.
func (s *sensorPages) adminSensorPoll(c echo.Context) error {
	res, err := s.sensors.Poll(c.Request().Context())
	if err != nil {
		text := "The poll failed: " + problemText(err)
		if errors.Is(err, homeassistant.ErrNotConfigured) {
			text = res.Headline() + "."
		}
		p, perr := s.sensorsPage(c, views.FormState{}, adminview.Notice{Text: text, Error: true})
		if perr != nil {
			return perr
		}
		return httpkit.Render(c, http.StatusBadRequest, adminview.AdminSensorsPage(p))
	}
	return c.Redirect(http.StatusSeeOther, sensorsPath+"?done=polled")
}
