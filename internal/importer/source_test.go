package importer

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hearth/internal/apperr"
)

// writeZip builds an export.zip like the Health app's: the export, the
// clinical CDA export and a workout route.
func writeZip(t *testing.T, files map[string]string) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "export.zip")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func fixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestAppleZip(t *testing.T) {
	export := fixture(t, "export.xml")
	cda := strings.Replace(export, "HKQuantityTypeIdentifierBodyMass", "HKQuantityTypeIdentifierBodyMassIndex", -1)
	tests := map[string]map[string]string{
		"standard layout": {
			"apple_health_export/export_cda.xml":                             cda,
			"apple_health_export/workout-routes/route_2024-01-06_7.33am.gpx": "<gpx/>",
			"apple_health_export/export.xml":                                 export,
		},
		"localised name": {"apple_health_export/exportar.xml": export, "apple_health_export/export_cda.xml": "<x/>"},
	}
	for name, files := range tests {
		t.Run(name, func(t *testing.T) {
			db := newDB(t)
			s, err := ImportFile(t.Context(), db, Options{Member: "ada"}, writeZip(t, files))
			if err != nil {
				t.Fatal(err)
			}
			if s.Kind != KindApple || s.Added != 18 || s.MealsCreated != 4 || s.File != "export.zip" {
				t.Errorf("summary %+v", s)
			}
			if len(weights(t, db)) != 2 {
				t.Error("weights not imported from the zip")
			}
		})
	}
}

func TestZipRefusals(t *testing.T) {
	db := newDB(t)
	_, err := ImportFile(t.Context(), db, Options{Member: "ada"}, writeZip(t, map[string]string{"notes.txt": "hi"}))
	if !apperr.Is(err, apperr.Invalid) || !strings.Contains(err.Error(), "no Apple Health export") {
		t.Errorf("zip without export: %v", err)
	}
	// A zip of CSV files imports file by file (zip_test.go), unless the
	// Apple kind was chosen.
	mfp := writeZip(t, map[string]string{"File-Export-2024-03-04-to-2024-03-05/Nutrition-Summary-2024-03-04-to-2024-03-05.csv": fixture(t, "mfp_nutrition.csv")})
	if _, err := ImportFile(t.Context(), db, Options{Member: "ada", Kind: KindApple}, mfp); !apperr.Is(err, apperr.Invalid) ||
		!strings.Contains(err.Error(), "the zip holds CSV files (Nutrition-Summary-2024-03-04-to-2024-03-05.csv, …), not an Apple Health export: import it as") {
		t.Errorf("MyFitnessPal's zip as Apple: %v", err)
	}
	bad := filepath.Join(t.TempDir(), "broken.zip")
	if err := os.WriteFile(bad, []byte("PK\x03\x04 this is not really a zip"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ImportFile(t.Context(), db, Options{Member: "ada"}, bad); !apperr.Is(err, apperr.Invalid) ||
		!strings.Contains(err.Error(), "not a readable zip") {
		t.Errorf("broken zip: %v", err)
	}
}

func TestAppleNotAnExport(t *testing.T) {
	db := newDB(t)
	for name, body := range map[string]string{
		"other root": `<?xml version="1.0"?><gpx><trk/></gpx>`,
		"no root":    `<?xml version="1.0"?>`,
		"bad syntax": `<HealthData><Record type="x" value="1"></HealthData>`,
	} {
		path := filepath.Join(t.TempDir(), "x.xml")
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := ImportFile(t.Context(), db, Options{Member: "ada"}, path)
		if !apperr.Is(err, apperr.Invalid) {
			t.Errorf("%s: err = %v, want invalid", name, err)
		}
	}
}
