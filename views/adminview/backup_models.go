package adminview

import "hearth/views"

// BackupRow is one archive in Admin → Backups.
type BackupRow struct {
	Name, Size, Made, Age string
	Schema                int64
	Auto                  bool
}

// BackupStatus is the live part of Admin → Backups.
type BackupStatus struct {
	Dir       string
	Running   bool
	Phase     string
	Percent   int
	Failure   string // the newest backup failed: when, and why
	LastOK    string
	ListError string // the target directory cannot be read (a drive unplugged?)
	Archives  []BackupRow
}

// AdminBackups is Admin → Backups.
type AdminBackups struct {
	AdminPage
	Notice   Notice
	Status   BackupStatus
	Settings views.FormState
}

// phaseText says what a backup is doing, in words.
func phaseText(p string) string {
	switch p {
	case "database":
		return "Copying the database"
	case "files":
		return "Writing the archive"
	case "verify":
		return "Checking the archive"
	}
	return "Starting"
}

// EraseCount is how many rows of one kind erasing removes.
type EraseCount struct {
	What string
	Rows int64
}

// AdminErase is the erase-member confirmation page.
type AdminErase struct {
	AdminPage
	ID, Name string
	Counts   []EraseCount
	Error    string
}
