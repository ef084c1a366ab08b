package faulttest

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/flate"
	"fmt"
	"hash/crc32"
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

// bombZip writes a zip whose export.xml is head followed by unit repeated
// to size bytes. Deflating 200 MiB under -race took over a minute, so one
// chunk of the repetition is deflated once and its compressed form written
// again and again: each piece is sync-flushed (byte-aligned, not final)
// and refers to nothing before it, so the pieces concatenate into one valid
// deflate stream (RFC 1951 §3.2.3), closed by an empty final block.
func bombZip(t *testing.T, path, head, unit string, size int64) {
	t.Helper()
	deflate := func(b []byte) []byte {
		var buf bytes.Buffer
		w, err := flate.NewWriter(&buf, flate.BestCompression)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(b); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	chunk := []byte(strings.Repeat(unit, max(1, (1<<20)/len(unit))))
	rest := []byte(strings.Repeat(unit, int(size%int64(len(chunk)))/len(unit)+1)[:size%int64(len(chunk))])
	whole, body := size/int64(len(chunk)), deflate(chunk)
	var end bytes.Buffer // the empty final block
	w, _ := flate.NewWriter(&end, flate.BestCompression)
	_ = w.Close()

	crc := crc32.ChecksumIEEE([]byte(head))
	for range whole {
		crc = crc32.Update(crc, crc32.IEEETable, chunk)
	}
	crc = crc32.Update(crc, crc32.IEEETable, rest)
	first, last := deflate([]byte(head)), deflate(rest)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	zf, err := zw.CreateRaw(&zip.FileHeader{Name: "apple_health_export/export.xml", Method: zip.Deflate, CRC32: crc,
		UncompressedSize64: uint64(int64(len(head)) + size),
		CompressedSize64:   uint64(len(first) + int(whole)*len(body) + len(last) + end.Len())})
	if err != nil {
		t.Fatal(err)
	}
	bw := bufio.NewWriter(zf)
	bw.Write(first)
	for range whole {
		bw.Write(body)
	}
	bw.Write(last)
	bw.Write(end.Bytes())
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
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
	bombZip(t, files["whitespace.zip"], head, " ", 200<<20)
	files["records.zip"] = filepath.Join(dir, "records.zip")
	bombZip(t, files["records.zip"], head, rec, 200<<20)
	files["attribute.xml"] = filepath.Join(dir, "attribute.xml")
	f, err := os.Create(files["attribute.xml"])
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprint(f, head+`<Record type="HKQuantityTypeIdentifierBodyMass" value="`)
	sevens := []byte(strings.Repeat("7", 1<<20))
	for range 200 {
		if _, err := f.Write(sevens); err != nil {
			t.Fatal(err)
		}
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
	// Each is refused for its own reason (a zip the importer cannot read
	// would be refused too, for the wrong one).
	for _, c2 := range []struct{ name, why string }{
		{"whitespace.zip", "more than 1 MiB"}, {"records.zip", "times its size"}, {"attribute.xml", "more than 1 MiB"},
	} {
		name := c2.name
		code, body := upload(t, c, p.base+"/admin/imports", token, files[name])
		if code >= 500 || !strings.Contains(body, "nothing was imported") || !strings.Contains(body, c2.why) {
			t.Errorf("%s: %d, the page does not say it was refused because of %q:\n%.400s", name, code, c2.why, body)
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

// bombZip's stitched deflate stream reads back as exactly the bytes it
// stands for, CRC included (a wrong stream would make the bomb test pass
// for the wrong reason).
func TestBombZipReadsBack(t *testing.T) {
	path := filepath.Join(t.TempDir(), "b.zip")
	head, unit, size := "<head>\n", "<Record value=\"70\"/>\n", int64(3<<20+12345)
	bombZip(t, path, head, unit, size)
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	r, err := zr.File[0].Open()
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(r) // the CRC is checked at EOF
	if err != nil {
		t.Fatal(err)
	}
	want := head + strings.Repeat(unit, int(size)/len(unit)+1)[:size]
	if string(got) != want {
		t.Fatalf("read back %d bytes, want %d (equal: %v)", len(got), len(want), string(got) == want)
	}
	if st, _ := os.Stat(path); st.Size() > size/100 {
		t.Fatalf("zip is %d bytes for %d: not a bomb's ratio", st.Size(), size)
	}
}
