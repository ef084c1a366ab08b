package importer

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeStreamZip writes a zip holding one file streamed from body.
func writeStreamZip(t testing.TB, path, name string, body io.Reader) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	w, err := zw.Create(name)
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

// repeat is n bytes of s repeated, as a reader.
func repeat(s string, n int64) io.Reader {
	return io.LimitReader(&cycle{b: []byte(s)}, n)
}

type cycle struct {
	b []byte
	i int
}

func (c *cycle) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		k := copy(p[n:], c.b[c.i:])
		n += k
		c.i = (c.i + k) % len(c.b)
	}
	return n, nil
}

// The crafted files of the outside review, smaller (the limits are what is
// tested here; the server's memory while refusing them is in faulttest).
func TestCraftedFilesAreRefused(t *testing.T) {
	dir := t.TempDir()
	head := `<?xml version="1.0" encoding="UTF-8"?>` + "\n<HealthData locale=\"en_US\">\n"
	rec := `<Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Scale" unit="kg" startDate="2024-01-05 07:00:00 +0100" endDate="2024-01-05 07:00:00 +0100" value="70"/>` + "\n"

	// A zip whose export unpacks at a bomb's ratio (short, valid tokens): a
	// few thousand real readings, which must not be stored, then elements
	// the parser skips between runs of spaces (parsing 10 MiB of readings
	// under -race took 40 s; the ratio check is the same either way).
	ratio := filepath.Join(dir, "ratio.zip")
	writeStreamZip(t, ratio, "apple_health_export/export.xml",
		io.MultiReader(strings.NewReader(head), repeat(rec, int64(len(rec))*2000), repeat("<Skip/>"+strings.Repeat(" ", 64<<10), 24<<20)))
	// A zip of whitespace (one text run far over the token limit).
	spaces := filepath.Join(dir, "spaces.zip")
	writeStreamZip(t, spaces, "apple_health_export/export.xml", io.MultiReader(strings.NewReader(head), repeat(" ", 4<<20)))
	// One attribute of 8 MiB, uncompressed.
	attr := filepath.Join(dir, "attr.xml")
	if err := os.WriteFile(attr, []byte(head+`<Record type="HKQuantityTypeIdentifierBodyMass" value="`+strings.Repeat("7", 8<<20)+`"/></HealthData>`), 0o644); err != nil {
		t.Fatal(err)
	}
	// A comment of 4 MiB holding both quotes and angle brackets.
	comment := filepath.Join(dir, "comment.xml")
	if err := os.WriteFile(comment, []byte(head+"<!--"+strings.Repeat(`a>'"<b `, 600_000)+"-->\n"+rec+"</HealthData>"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A CSV line of 4 MiB.
	line := filepath.Join(dir, "line.csv")
	if err := os.WriteFile(line, []byte("date,weight\n2024-01-01,"+strings.Repeat("7", 4<<20)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, path, want string
		max              int64
	}{
		{"zip ratio", ratio, "times its size", 0},
		{"zip of spaces", spaces, "more than 1 MiB", 0},
		{"huge attribute", attr, "more than 1 MiB", 0},
		{"huge comment", comment, "more than 1 MiB", 0},
		{"huge csv line", line, "a line of more than 1 MiB", 0},
		{"over the size limit", attr, "larger than 2 MiB", 2 << 20},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := newDB(t)
			sum, err := ImportFile(context.Background(), db, Options{Member: "ada", MaxBytes: c.max}, c.path)
			var ve *ValidationError
			msg := ""
			if errors.As(err, &ve) && len(ve.Problems) > 0 {
				msg = ve.Problems[0].Message
			} else if err != nil {
				msg = err.Error()
			}
			if !strings.Contains(msg, c.want) {
				t.Fatalf("import = %+v, %v; want a refusal saying %q", sum, err, c.want)
			}
			var n int
			if err := db.Read.QueryRow(`SELECT count(*) FROM weight_readings`).Scan(&n); err != nil || n != 0 {
				t.Fatalf("%d readings stored (%v)", n, err)
			}
		})
	}
}

// A real export's DTD, comments and attributes pass the guard unchanged.
func TestTokenGuardPassesRealExports(t *testing.T) {
	for _, name := range []string{"export.xml", "export_messy.xml", "export_mfp_meals.xml", "export_mfp_nomeal.xml", "export_later.xml"} {
		raw, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		for _, chunk := range []int{1, 7, 4096} { // state carried across reads
			g := &tokenGuard{r: &chunked{r: bytes.NewReader(raw), n: chunk}}
			got, err := io.ReadAll(g)
			if err != nil || !bytes.Equal(got, raw) {
				t.Fatalf("%s in %d-byte reads: %v", name, chunk, err)
			}
		}
	}
	g := &tokenGuard{r: strings.NewReader(`<!DOCTYPE HealthData [ <!ATTLIST x y CDATA "it's"> ]><a b='>'><![CDATA[ x>y ]]><?pi ok?></a>`)}
	if _, err := io.ReadAll(g); err != nil {
		t.Fatal(err)
	}
}

type chunked struct {
	r io.Reader
	n int
}

func (c *chunked) Read(p []byte) (int, error) { return c.r.Read(p[:min(len(p), c.n)]) }
