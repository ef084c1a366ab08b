// Package faulttest holds Hearth's fault tests: the real binary is built
// once, started on a loopback port over a temp data directory, killed with
// SIGKILL in the middle of a coach run or an import, restarted, and the
// database is checked (integrity, no half-written dashboard, run marked
// interrupted, import absent or complete). Other tests cover schedule
// catch-up after downtime, model servers that hang, answer garbage or drop
// the connection, a read-only database and a full disk, and SSE clients
// that connect and leave thousands of times. The package has no non-test
// code.
package faulttest
