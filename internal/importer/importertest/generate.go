// Package importertest writes synthetic Apple Health exports for the
// importer's tests and benchmarks; large files are generated into temp dirs,
// never committed.
package importertest

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// Header is the start of an export.xml as the Health app writes it (DOCTYPE
// abridged).
const Header = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE HealthData [
<!-- HealthKit Export Version: 13 -->
<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
<!ATTLIST HealthData
  locale CDATA #REQUIRED
>
<!ELEMENT ExportDate EMPTY>
<!ATTLIST ExportDate
  value CDATA #REQUIRED
>
<!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
<!ATTLIST Record
  type          CDATA #REQUIRED
  unit          CDATA #IMPLIED
  value         CDATA #IMPLIED
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
]>
<HealthData locale="en_US">
 <ExportDate value="2024-01-10 09:00:00 -0800"/>
 <Me HKCharacteristicTypeIdentifierDateOfBirth="1985-04-12" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet" HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse="None"/>
`

// Footer closes the export.
const Footer = "</HealthData>\n"

const watch = `sourceName="Ada’s Apple Watch" sourceVersion="10.2" device="&lt;&lt;HKDevice: 0x283c54a50&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,1, software:10.2&gt;"`

// Mix is the share of each kind of element in a generated export, out of 20:
// 8 heart rate and 1 step count (skipped as unknown), 1 body mass, 1 body fat
// and 1 lean mass at the same instant, 6 dietary samples (energy in kcal and
// kJ, protein, carbohydrates, fat), 1 workout with heart-rate statistics and
// 1 activity summary (unknown).
const Mix = 20

// WriteAppleExport writes an export.xml with n records of mixed types (see
// Mix), one every 90 seconds from 2015-01-01 in UTC-8; every record is
// distinct. It returns the bytes written.
func WriteAppleExport(w io.Writer, n int) (int64, error) {
	bw := bufio.NewWriterSize(w, 1<<16)
	cw := &countWriter{w: bw}
	_, _ = io.WriteString(cw, Header)
	zone := time.FixedZone("", -8*3600)
	t := time.Date(2015, 1, 1, 6, 0, 0, 0, zone)
	var buf []byte
	for i := 0; i < n; i++ {
		t = t.Add(90 * time.Second)
		ts := t.Format("2006-01-02 15:04:05 -0700")
		buf = appendRecord(buf[:0], i, ts, t)
		if _, err := cw.Write(buf); err != nil {
			return cw.n, err
		}
	}
	_, _ = io.WriteString(cw, Footer)
	return cw.n, bw.Flush()
}

func appendRecord(b []byte, i int, ts string, t time.Time) []byte {
	rec := func(typ, unit, value, source string) []byte {
		b = append(b, ` <Record type="`...)
		b = append(b, typ...)
		b = append(b, `" `...)
		b = append(b, source...)
		b = append(b, ` unit="`...)
		b = append(b, unit...)
		b = append(b, `" creationDate="`...)
		b = append(b, ts...)
		b = append(b, `" startDate="`...)
		b = append(b, ts...)
		b = append(b, `" endDate="`...)
		b = append(b, ts...)
		b = append(b, `" value="`...)
		b = append(b, value...)
		return append(b, `"/>`+"\n"...)
	}
	num := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	const scale = `sourceName="Withings" sourceVersion="6.3.1"`
	const mfp = `sourceName="MyFitnessPal" sourceVersion="23.1.0"`
	switch k := i % Mix; k {
	case 0, 1, 2, 3, 4, 5, 6, 7:
		b = append(b, ` <Record type="HKQuantityTypeIdentifierHeartRate" `...)
		b = append(b, watch...)
		b = append(b, ` unit="count/min" creationDate="`...)
		b = append(b, ts...)
		b = append(b, `" startDate="`...)
		b = append(b, ts...)
		b = append(b, `" endDate="`...)
		b = append(b, ts...)
		b = append(b, `" value="`...)
		b = strconv.AppendInt(b, int64(60+i%50), 10)
		b = append(b, "\">\n  <MetadataEntry key=\"HKMetadataKeyHeartRateMotionContext\" value=\"0\"/>\n </Record>\n"...)
		return b
	case 8:
		return rec("HKQuantityTypeIdentifierStepCount", "count", strconv.Itoa(10+i%300), watch)
	case 9:
		if i%40 == 9 {
			return rec("HKQuantityTypeIdentifierBodyMass", "lb", num(150+float64(i%400)/10), scale)
		}
		return rec("HKQuantityTypeIdentifierBodyMass", "kg", num(68+float64(i%200)/10), scale)
	case 10:
		return rec("HKQuantityTypeIdentifierBodyFatPercentage", "%", num(0.18+float64(i%50)/1000), scale)
	case 11:
		return rec("HKQuantityTypeIdentifierLeanBodyMass", "kg", num(55+float64(i%100)/10), scale)
	case 12:
		return rec("HKQuantityTypeIdentifierDietaryEnergyConsumed", "kcal", num(200+float64(i%500)), mfp)
	case 13:
		return rec("HKQuantityTypeIdentifierDietaryEnergyConsumed", "kJ", num(800+float64(i%2000)), mfp)
	case 14:
		return rec("HKQuantityTypeIdentifierDietaryProtein", "g", num(5+float64(i%400)/10), mfp)
	case 15:
		return rec("HKQuantityTypeIdentifierDietaryCarbohydrates", "g", num(10+float64(i%800)/10), mfp)
	case 16:
		return rec("HKQuantityTypeIdentifierDietaryFatTotal", "g", num(2+float64(i%300)/10), mfp)
	case 17:
		return rec("HKQuantityTypeIdentifierDietaryProtein", "mg", num(500+float64(i%9000)), mfp)
	case 18:
		end := t.Add(32 * time.Minute).Format("2006-01-02 15:04:05 -0700")
		b = append(b, ` <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="32" durationUnit="min" totalEnergyBurned="`...)
		b = strconv.AppendInt(b, int64(250+i%200), 10)
		b = append(b, `" totalEnergyBurnedUnit="kcal" `...)
		b = append(b, watch...)
		b = append(b, ` creationDate="`...)
		b = append(b, end...)
		b = append(b, `" startDate="`...)
		b = append(b, ts...)
		b = append(b, `" endDate="`...)
		b = append(b, end...)
		b = append(b, "\">\n  <MetadataEntry key=\"HKIndoorWorkout\" value=\"0\"/>\n  <WorkoutStatistics type=\"HKQuantityTypeIdentifierHeartRate\" startDate=\""...)
		b = append(b, ts...)
		b = append(b, `" endDate="`...)
		b = append(b, end...)
		b = append(b, `" average="`...)
		b = strconv.AppendInt(b, int64(130+i%40), 10)
		b = append(b, `" minimum="95" maximum="`...)
		b = strconv.AppendInt(b, int64(175+i%15), 10)
		b = append(b, "\" unit=\"count/min\"/>\n </Workout>\n"...)
		return b
	default:
		b = append(b, ` <ActivitySummary dateComponents="`...)
		b = append(b, ts[:10]...)
		return append(b, `" activeEnergyBurned="512.3" activeEnergyBurnedGoal="500" activeEnergyBurnedUnit="kcal" appleMoveTime="0" appleMoveTimeGoal="0" appleExerciseTime="34" appleExerciseTimeGoal="30" appleStandHours="11" appleStandHoursGoal="12"/>`+"\n"...)
	}
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// AppleExportFile writes an n-record export.xml into a temp dir of tb and
// returns its path and size.
func AppleExportFile(tb testing.TB, n int) (string, int64) {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "export.xml")
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	size, err := WriteAppleExport(f, n)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		tb.Fatal(err)
	}
	return path, size
}
