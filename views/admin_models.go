package views

// AdminSections are the admin navigation entries, in order.
var AdminSections = []struct{ ID, Label, Href string }{
	{"assignments", "Assignments", "/admin"},
	{"runs", "Runs", "/admin/runs"},
	{"schedules", "Schedules", "/admin/schedules"},
	{"memory", "Memory", "/admin/memory"},
	{"household", "Household", "/admin/household"},
	{"catalog", "Catalog", "/admin/catalog"},
	{"imports", "Imports", "/admin/imports"},
	{"todos", "To-dos", "/admin/todos"},
	{"definitions", "Agents", "/admin/definitions"},
}

// AdminPage is what every admin page shares.
type AdminPage struct {
	Page
	Section string
}

// AdminMemberRow is one member in the household list.
type AdminMemberRow struct {
	ID, Name, Color, Avatar, Unit, Targets, Goal string
}

// AdminHousehold lists the members and offers a new-member form.
type AdminHousehold struct {
	AdminPage
	Members []AdminMemberRow
	New     FormState
}

// AdminGoalRow is one goal on the member page.
type AdminGoalRow struct {
	ID                               int64
	Kind, Description, Target, Status string
}

// AdminMember edits one member and their goals.
type AdminMember struct {
	AdminPage
	ID    string
	Form  FormState
	Goals []AdminGoalRow
	Goal  FormState
}
