package web

// PatchRenders is how many stream patch sets were encoded so far.
func PatchRenders() int64 { return patchRenders.Load() }
