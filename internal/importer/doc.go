// Package importer brings a member's existing data into Hearth: the Apple
// Health export (export.xml, or the export.zip that holds it), the CSV
// exports of MyFitnessPal, Withings, Strong and Hevy, Hearth's own export,
// generic CSV files of weigh-ins, meals and workouts, and zips of CSV files
// (each file imported on its own, zip.go). See README.md for the formats,
// the headers recognised and how to export from each app.
//
// Guarantees:
//
//   - Streaming: export.xml is read token by token with encoding/xml's
//     Decoder, CSV row by row (rows are staged in SQLite, not memory); peak
//     memory does not grow with the file (BENCHMARKS.md).
//   - One transaction per file: every record of a file is written in one
//     write transaction (store.DB.Tx, prepared statements); a crash imports
//     nothing. A bad record is rejected and listed with its line and the
//     others import; Options.Strict keeps the all-or-nothing rule. A file
//     that cannot be read as a whole (truncated XML, an unknown CSV layout)
//     imports nothing.
//   - Idempotent, and corrections update in place: Apple records carry a
//     stable source key (an FNV-128a hash of the normalised record), CSV
//     entries a natural key (a weigh-in's time, a meal's local date and
//     name, a workout's start and type). Importing the same file twice adds
//     nothing; a corrected file updates the entries it changed, except those
//     the member has edited or deleted since (import_ledger remembers what
//     each import wrote). Records repeated inside one file are "repeated in
//     file", never "duplicate".
//   - Text is cleaned: names, titles and metadata go through text.Clean, and
//     characters XML 1.0 forbids are dropped from Apple exports; the report
//     counts what was dropped. CSV files that are not UTF-8 are transcoded.
//   - Truthful history: each file is a row in the imports table, committed
//     as 'running' before the data transaction and set 'complete' inside it;
//     MarkInterrupted turns rows left 'running' by a crash into 'interrupted'.
//
// Nutrition aggregation. Apple Health stores nutrition as separate samples per
// nutrient (energy, protein, carbohydrates, fat), often several per meal and
// from several apps; Hearth stores meals. Each dietary sample is staged
// individually, keyed like any other record, in import_samples, with its
// food entry: the samples of one HKCorrelationTypeIdentifierFood, or without
// one the samples one app wrote at one start time. All samples of an entry
// go to one meal: the one a record or its correlation names ("Meal",
// "HKFoodMeal"), else the one of the entry's local hour (breakfast 04-10,
// lunch 11-14, snack 15-16, dinner 17-22, snack 23-03). Meals are summed per
// member, day and meal, named like "Breakfast (Apple Health)", stamped with
// the earliest sample's time and keyed "slot:<day>:<meal>". After the samples
// of a file are staged, every meal that received, lost or moved a sample is
// recomputed from all staged samples of that meal (update if the entry
// exists, insert otherwise). Because samples are deduplicated before they are
// summed, re-importing a file changes nothing and an overlapping export adds
// only the samples it has that the earlier one lacked; a meal's total is
// never double-counted. A meal with macros but no energy sample has 0
// calories (nothing is estimated).
//
// Body composition. Apple exports body mass, body-fat percentage and lean body
// mass as separate samples; Hearth keeps them on one weight reading. Body-mass
// samples become weight readings; body-fat and lean-mass samples are staged
// and attached to the Apple weight reading nearest in time within 15 minutes
// (smart scales write all three at the same instant). A reading with no
// weigh-in nearby becomes a body-composition entry of its own (a body scan
// with only the figures it has). Attachment runs after every import over the
// staged samples, so a later export that brings the missing half completes
// the reading and removes the entry.
package importer
