package workflow

// PauseRequested reports whether Pause was asked for run id while it is
// being walked (tests wait for it before letting the step finish).
func PauseRequested(rt *Runtime, id int64) bool {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	a := rt.active[id]
	return a != nil && a.paused.Load()
}
