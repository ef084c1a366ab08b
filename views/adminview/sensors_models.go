package adminview

import "hearth/views"

// AdminSensors is Admin → Integrations → Sensors: Home Assistant entities
// mapped to members and record kinds.
type AdminSensors struct {
	AdminPage
	// Configured: Home Assistant's URL and token are set.
	Configured bool
	Notice     Notice
	Form       views.FormState
	Members    []views.Option
	Kinds      []views.Option
	// Entities are the instance's sensors with units, for the picker
	// (none when it is not configured or could not be read).
	Entities      []views.Option
	EntitiesError string
	Rows          []SensorRow
}

// SensorRow is one mapping and its last poll.
type SensorRow struct {
	ID, Entity, Member, Kind string
	// Polled is when it was last polled ("" never), Added what that poll
	// added, Error why it failed; Cursor the last state time imported.
	Polled, Added, Error, Cursor string
}
