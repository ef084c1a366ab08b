package export

// Files are the names of the CSV files in an export (tests check each is
// in the zip and parses).
func Files() []string {
	out := make([]string, len(kinds))
	for i, k := range kinds {
		out[i] = k.file
	}
	return out
}
