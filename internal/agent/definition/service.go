package definition

// Service is the admin face of definitions: the Repo's reads and writes
// (List, Active, Version, History, Check, Save, Rollback) and the Invoker's
// Invoke.
type Service struct {
	*Repo
	*Invoker
}

// NewService combines a repo and the invoker over it.
func NewService(repo *Repo, invoker *Invoker) *Service {
	return &Service{Repo: repo, Invoker: invoker}
}
