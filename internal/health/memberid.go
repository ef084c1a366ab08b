package health

import "regexp"

// memberIDPattern is the one rule for member ids everywhere (URLs, files,
// element ids): 1-40 lower-case letters, digits and dashes, starting with a
// letter or digit ("mary-jane").
var memberIDPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,39}$`)

// ValidMemberID reports whether id follows the member id rule.
func ValidMemberID(id string) bool { return memberIDPattern.MatchString(id) }
