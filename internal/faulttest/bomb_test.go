package faulttest

import (
	"archive/zip"
	"bufio"
	"fmt"
	"hearth/internal/testkit"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// peakRSS is the child's peak resident set (VmHWM) in bytes.
func peakRSS(t *testing.T, pid int) int64 {
	t.Helper()
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		testkit.Need(t, false, fmt.Sprintf("no /proc: %v", err))
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmHWM")
	return 0
}

// zipOf writes a zip holding export.xml streamed from body.
func zipOf(t *testing.T, path string, body io.Reader) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: "apple_health_export/export.xml", Method: zip.Deflate})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(w, body); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

type repeated struct {
	b []byte
	i int
}

func (r *repeated) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = r.b[r.i]
		r.i = (r.i + 1) % len(r.b)
	}
	return len(p), nil
}

// TestImportBombsKeepServerMemoryBounded uploads the outside review's
// crafted files to the real server's admin import: a 200 MiB-of-whitespace
// zip, a zip of 200 MiB of short records (a bomb's ratio), and an export
// with one 200 MiB attribute. Each is refused with a clear message, nothing
// is stored, and the server's peak RSS stays under 150 MiB (it reached 556
// and 939 MiB before).
func TestImportBombsKeepServerMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 200 MB files")
	}
	dir := t.TempDir()
	head := `<?xml version="1.0" encoding="UTF-8"?>` + "\n<HealthData locale=\"en_US\">\n"
	rec := `<Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Scale" unit="kg" startDate="2024-01-05 07:00:00 +0100" endDate="2024-01-05 07:00:00 +0100" value="70"/>` + "\n"
	files := map[string]string{}
	files["whitespace.zip"] = filepath.Join(dir, "whitespace.zip")
	zipOf(t, files["whitespace.zip"], io.MultiReader(strings.NewReader(head), io.LimitReader(&repeated{b: []byte(" ")}, 200<<20)))
	files["records.zip"] = filepath.Join(dir, "records.zip")
	zipOf(t, files["records.zip"], io.MultiReader(strings.NewReader(head), io.LimitReader(&repeated{b: []byte(rec)}, 200<<20)))
	files["attribute.xml"] = filepath.Join(dir, "attribute.xml")
	f, err := os.Create(files["attribute.xml"])
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprint(f, head+`<Record type="HKQuantityTypeIdentifierBodyMass" value="`)
	if _, err := io.Copy(f, io.LimitReader(&repeated{b: []byte("7")}, 200<<20)); err != nil {
		t.Fatal(err)
	}
	fmt.Fprint(f, `"/></HealthData>`)
	f.Close()

	data := t.TempDir()
	p := startHearth(t, data)
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 2 * time.Minute}
	if resp, err := c.Get(p.base + "/admin/imports"); err != nil {
		t.Fatal(err)
	} else {
		resp.Body.Close()
	}
	var token string
	for _, ck := range jar.Cookies(mustURL(t, p.base)) {
		if ck.Name == "hearth_csrf" {
			token = ck.Value
		}
	}
	before := countReadings(t, data)
	for _, name := range []string{"whitespace.zip", "records.zip", "attribute.xml"} {
		code, body := upload(t, c, p.base+"/admin/imports", token, files[name])
		if code >= 500 || !(strings.Contains(body, "nothing was imported") || strings.Contains(body, "not an export")) {
			t.Errorf("%s: %d, the page does not say it was refused:\n%.400s", name, code, body)
		}
		rss := peakRSS(t, p.cmd.Process.Pid)
		t.Logf("%s: refused (%d); server peak RSS %d MiB", name, code, rss>>20)
		if rss > 150<<20 {
			t.Errorf("%s: the server's peak RSS reached %d MiB", name, rss>>20)
		}
	}
	if n := countReadings(t, data); n != before {
		t.Fatalf("readings %d -> %d: a refused import stored something", before, n)
	}
}

func countReadings(t *testing.T, data string) int {
	t.Helper()
	db := openDB(t, data)
	defer db.Close()
	return count(t, db, `SELECT count(*) FROM weight_readings`)
}

// upload posts a file to the admin import page as a browser form would.
func upload(t *testing.T, c *http.Client, url, token, path string) (int, string) {
	t.Helper()
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		_ = mw.WriteField("member", "maya")
		fw, err := mw.CreateFormFile("file", filepath.Base(path))
		if err == nil {
			var f *os.File
			if f, err = os.Open(path); err == nil {
				_, err = io.Copy(fw, f)
				f.Close()
			}
		}
		if err == nil {
			err = mw.Close()
		}
		pw.CloseWithError(err)
	}()
	req, _ := http.NewRequest(http.MethodPost, url, pr)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("X-CSRF-Token", token)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
