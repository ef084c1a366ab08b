package importer

import "testing"

// An implausible figure in a file (a weight far from the trend, a 6,000
// kcal meal) is imported with a warning naming its line: the kiosk would
// have asked, the importer tells.
func TestImplausibleFiguresAreWarned(t *testing.T) {
	db := newDB(t)
	data := "date,weight,unit\n2024-01-01 07:00,81.4,kg\n2024-01-02 07:00,81.2,kg\n2024-01-03 07:00,81.0,kg\n" +
		"2024-01-04 07:00,8.1,kg\n2024-01-05 07:00,80.9,kg\n"
	s := mustImportBytes(t, db, "w.csv", data, Options{})
	if s.Added != 5 || len(weights(t, db)) != 5 {
		t.Fatalf("added %d, want every row (warned, not refused)", s.Added)
	}
	if len(s.Warnings) == 0 || s.Warnings[0].Line != 5 || !hasWarning(s, "the weight 8.1 kg on 2024-01-04 is far from the trend around then (81.3 kg)") {
		t.Fatalf("warnings %v", s.Warnings)
	}
	if len(s.Warnings) != 1 {
		t.Errorf("the readings after the typo were warned too: %v", s.Warnings)
	}
	// A new file is checked against what is stored already.
	s = mustImportBytes(t, db, "w2.csv", "date,weight,unit\n2024-01-06 07:00,18.1,kg\n", Options{})
	if !hasWarning(s, "the weight 18.1 kg on 2024-01-06") {
		t.Fatalf("a lone typo after stored readings: %v", s.Warnings)
	}
	meals := "date,name,calories\n2024-01-05,Feast,6200\n2024-01-05,Soup,320\n"
	s = mustImportBytes(t, db, "m.csv", meals, Options{})
	if !hasWarning(s, `the meal "Feast" on 2024-01-05`) || len(s.Warnings) != 1 {
		t.Fatalf("meal warnings %v", s.Warnings)
	}
}

// A sudden change in a file (3.5 kg up overnight) is warned like the kiosk
// asks about it; the same weight the next day is not.
func TestSuddenChangeIsWarned(t *testing.T) {
	db := newDB(t)
	data := "date,weight,unit\n2024-01-01 07:00,70.0,kg\n2024-01-02 07:00,70.1,kg\n2024-01-03 07:00,73.6,kg\n" +
		"2024-01-04 07:00,73.5,kg\n"
	s := mustImportBytes(t, db, "w.csv", data, Options{})
	if s.Added != 4 {
		t.Fatalf("added %d, want every row", s.Added)
	}
	if len(s.Warnings) != 1 || s.Warnings[0].Line != 4 ||
		!hasWarning(s, "the weight 73.6 kg on 2024-01-03: 73.6 kg is 3.5 kg above your last weigh-in of 70.1 kg") {
		t.Fatalf("warnings %v", s.Warnings)
	}
}
