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

// QueryOf is the query that fills an export file ("" for none).
func QueryOf(file string) string {
	for _, k := range kinds {
		if k.file == file {
			return k.query
		}
	}
	return ""
}
