package definition

// Service is the admin face of definitions: the Repo's reads and writes
// (List, Active, Version, History, Check, Save, Rollback) and the Runner's
// Invoke.
type Service struct {
	*Repo
	*Runner
}

// NewService combines a repo and the runner over it.
func NewService(repo *Repo, runner *Runner) *Service {
	return &Service{Repo: repo, Runner: runner}
}
