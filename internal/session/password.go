package session

import (
	"strings"

	"golang.org/x/crypto/bcrypt"
)

// PasswordHash is the bcrypt hash the admin password is checked against.
// The configured password may be a bcrypt hash itself ("$2a$", "$2b$" or
// "$2y$", 60 characters: `htpasswd -nbBC 12 admin PASSWORD` prints one), so
// the plain password need not sit in the service's environment file; it is
// then used as it is, at its own cost.
func PasswordHash(password string) ([]byte, error) {
	if IsPasswordHash(password) {
		return []byte(password), nil
	}
	return bcrypt.GenerateFromPassword([]byte(password), bcrypt.DefaultCost)
}

// IsPasswordHash reports whether a configured password is a bcrypt hash.
func IsPasswordHash(password string) bool {
	if len(password) != 60 || !(strings.HasPrefix(password, "$2a$") || strings.HasPrefix(password, "$2b$") || strings.HasPrefix(password, "$2y$")) {
		return false
	}
	_, err := bcrypt.Cost([]byte(password))
	return err == nil
}

// samePassword reports whether stored (a bcrypt hash) stands for the
// configured password, plain or hashed.
func samePassword(stored, password string) bool {
	if IsPasswordHash(password) {
		return stored == password
	}
	return bcrypt.CompareHashAndPassword([]byte(stored), []byte(password)) == nil
}
