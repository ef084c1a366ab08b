package adminview

// PlexSyncView is the last Plex sync on Admin → Catalog.
type PlexSyncView struct {
	// Section is the section Hearth syncs ("" when Plex is not configured
	// to sync: no "Sync now").
	Section string
	// Recorded: a sync has run; the rest describes it.
	Recorded bool
	// Name is "section 3 (Fitness)"; When and Took in the household's
	// words; Origin says what started it.
	Name, When, Took, Origin string
	Error                    string // "" when it succeeded
	Seen, Added, Updated     int
	Unchanged, Removed       int
	Skipped                  int
	Warnings                 []string
}
