// Package importer brings a member's existing data into Hearth: the Apple
// Health export (export.xml, or the export.zip that holds it) and CSV files of
// weigh-ins, meals and workouts. See README.md for the file formats.
//
// Guarantees:
//
//   - Streaming: export.xml is read token by token with encoding/xml's
//     Decoder; no DOM and no per-record state is kept, so peak memory does not
//     grow with the file (BENCHMARKS.md).
//   - All or nothing per file: every record of a file is written in one write
//     transaction (store.DB.Tx, prepared statements). A file with any problem
//     (truncated XML, a bad CSV row, a bad number, an unknown unit) imports
//     nothing; the first problems are reported with their line numbers.
//   - Idempotent: every record carries a source ("apple_health" or "csv") and
//     a stable source key (an FNV-128a hash of the normalised record: UTC
//     instants, canonical units), and the store's inserts do nothing on a
//     known (member, source, source_key). Importing the same file twice adds
//     nothing the second time; overlapping exports merge.
//   - Truthful history: each file is a row in the imports table, committed
//     as 'running' before the data transaction and set 'complete' inside it;
//     MarkInterrupted turns rows left 'running' by a crash into 'interrupted'.
//
// Nutrition aggregation. Apple Health stores nutrition as separate samples per
// nutrient (energy, protein, carbohydrates, fat), often several per meal and
// from several apps. Hearth stores meals. Each dietary sample is therefore
// staged individually, keyed like any other record, in import_samples, and the
// samples are summed into one nutrition entry per member, day and meal slot,
// by the sample's own local time (its time zone offset in the export):
// breakfast before 10:30, lunch before 15:00, snack before 17:30, dinner
// otherwise. The entry is named like "Breakfast (Apple Health)", is stamped
// with the earliest sample's time and has the source key "slot:<day>:<slot>".
// After the samples of a file are staged, every slot that received a new
// sample is recomputed from all staged samples of that slot (update if the
// entry exists, insert otherwise). Because samples are deduplicated before
// they are summed, re-importing a file changes nothing and an overlapping
// export adds only the samples it has that the earlier one lacked; a slot's
// total is never double-counted. A slot with macros but no energy sample has
// 0 calories (nothing is estimated).
//
// Body composition. Apple exports body mass, body-fat percentage and lean body
// mass as separate samples; Hearth keeps them on one weight reading. Body-mass
// samples become weight readings; body-fat and lean-mass samples are staged
// and attached to the Apple weight reading nearest in time within 15 minutes
// (smart scales write all three at the same instant). Attachment runs after
// every import over the staged samples, so a later export that brings the
// missing half completes the reading.
package importer
