package main

import (
	"bytes"
	"context"
	"net/url"
	"strings"
	"testing"

	"hearth/internal/app"
	"hearth/internal/session"
	"hearth/web/adminauth"
)

// `hearth admin login-link` writes a one-time code the server's login
// accepts once: the admin's way in while the login is throttled.
func TestAdminLoginLinkCommand(t *testing.T) {
	dir := t.TempDir()
	env := func(k string) string {
		return map[string]string{"HEARTH_DATA": dir, "HEARTH_ADMIN_PASSWORD": "hunter2", "HEARTH_HOSTS": "hearth.lan", "HEARTH_ADDR": "0.0.0.0:8080"}[k]
	}
	var out, errOut bytes.Buffer
	if code := runAdmin([]string{"login-link"}, env, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var link string
	for _, f := range strings.Fields(out.String()) {
		if strings.HasPrefix(f, "http://hearth.lan:8080/admin/login/link?code=") {
			link = f
		}
	}
	if link == "" {
		t.Fatalf("no link for the household's host name:\n%s", out.String())
	}
	u, _ := url.Parse(link)
	code := u.Query().Get("code")

	ctx := context.Background()
	cfg, err := app.LoadConfig(nil, env, &errOut)
	if err != nil {
		t.Fatal(err)
	}
	db, err := app.OpenDatabase(ctx, cfg, app.NewLogger(&errOut, "warn"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	auth, err := adminauth.New("hunter2", "", session.New(db), false)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := auth.TakeLoginLink(ctx, code); !ok || err != nil {
		t.Fatalf("the server refuses the printed link: %v %v", ok, err)
	}
	if ok, _ := auth.TakeLoginLink(ctx, code); ok {
		t.Fatal("the link worked twice")
	}

	// No password, no login: the command says where the admin area is.
	noPw := func(k string) string { return map[string]string{"HEARTH_DATA": dir}[k] }
	errOut.Reset()
	if code := runAdmin([]string{"login-link"}, noPw, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "no admin password") {
		t.Fatalf("without a password: exit %d %s", code, errOut.String())
	}
	for _, bad := range [][]string{nil, {"logout"}, {"login-link", "extra"}} {
		if code := runAdmin(bad, env, &out, &errOut); code != 2 {
			t.Errorf("hearth admin %q: exit %d", bad, code)
		}
	}
}
