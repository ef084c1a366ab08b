// Package settings stores the settings an admin saves on Admin →
// Integrations: plain values (a URL) and secrets (a token), one row per
// name in the settings table.
//
// Precedence, the one place it is written down: for every setting, the
// environment (and the command-line flags, which win over it) comes
// first, then what was saved on Admin → Integrations, then the default.
// The app resolves each field on its own (internal/app, Resolve here) and
// the page says where the value in force came from, so a value the
// environment sets is shown read-only.
//
// Secrets are encrypted with AES-256-GCM under a key derived with
// HKDF-SHA256 from secret.key, 32 random bytes in the data directory,
// created on first use with mode 0600 (and refused, with a clear error,
// once group or others may read it). Every write draws a fresh nonce and
// binds the ciphertext to the setting's name (additional data), so a
// ciphertext copied to another name does not decrypt. Backups hold the
// database but not secret.key: a secret restored on another machine reads
// as Unreadable ("set but unreadable: enter it again"), never as a crash.
//
// Secrets never go to pages: SecretState says only unset, set or
// unreadable; Secret returns the plain text for use (a request header).
package settings
