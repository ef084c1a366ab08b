package web

import (
	"context"

	"hearth/internal/health"
	"hearth/internal/household"
	"hearth/internal/workflow"
	"hearth/web/api"
)

// Household is what the household API, the kiosk's forms and corrections,
// the program controls and the admin use to record and list entries
// (*household.Service): the API's interface and the single reads and the
// undo the kiosk adds.
type Household interface {
	api.Household
	Weight(ctx context.Context, member string, id int64) (health.WeightReading, error)
	Meal(ctx context.Context, member string, id int64) (health.Meal, error)
	Workout(ctx context.Context, member string, id int64) (health.Workout, error)
	BodyScan(ctx context.Context, member string, id int64) (health.BodyScan, error)
	Restore(ctx context.Context, member string, trashID int64) (household.Trashed, error)
}

// Workflows is the workflow runtime as the API, the admin and the kiosk use
// it (*workflow.Runtime): the API's interface and the waiting steps.
type Workflows interface {
	api.Workflows
	Waiting(ctx context.Context, member string) ([]workflow.Waiting, error)
}
