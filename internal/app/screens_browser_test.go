package app_test

import (
	"bytes"
	"context"
	"image/png"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"hearth/internal/app"
	"hearth/internal/qr/qrtest"
)

// Admin → Screens in Chromium: the QR code as the browser draws it
// (a screenshot of the page, read with ZXing) is the kiosk URL the page
// prints, from HEARTH_HOSTS; Hearth listening on loopback only is flagged;
// the footer shows the version.
func TestAddAScreenInBrowser(t *testing.T) {
	browser := newBrowser(t, 1280, 900)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	_, port, _ := net.SplitHostPort(addr)
	dir := t.TempDir()
	srv := startApp(t, app.Config{Addr: addr, DataDir: dir, DBPath: filepath.Join(dir, "hearth.db"), Location: time.UTC,
		Demo: true, KioskIdle: 10 * time.Minute, CatchUp: 12 * time.Hour, Prices: app.DefaultPrices, Hosts: []string{"hearth.lan"}})
	ctx, cancel := context.WithTimeout(browser, 60*time.Second)
	defer cancel()
	do(t, ctx, chromedp.Navigate(srv.url+"/admin/screens"), chromedp.WaitVisible(chromedp.CSS(".screen-qr svg")))
	want := "http://hearth.lan:" + port + "/"
	var shown, problem, version string
	if err := eval(ctx, `document.getElementById('screen-url').textContent`, &shown); err != nil || shown != want {
		t.Fatalf("URL shown %q (%v), want %q", shown, err, want)
	}
	if err := eval(ctx, `document.getElementById('screen-problem')?.textContent ?? ''`, &problem); err != nil || problem == "" {
		t.Fatalf("listening on %s only is not flagged (%v)", addr, err)
	}
	if err := eval(ctx, `document.getElementById('hearth-version').textContent`, &version); err != nil || version == "" {
		t.Fatalf("no version in the footer (%v)", err)
	}
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("HEARTH_ARTIFACTS") != "" {
		_ = os.WriteFile(filepath.Join(artifacts(t), "admin-add-a-screen.png"), shot, 0o644)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	got, err := qrtest.DecodeImage(img)
	if err != nil || got != want {
		t.Fatalf("the QR code on the page reads %q (%v), want %q", got, err, want)
	}
}
