// Package sensors turns the household's Home Assistant sensors into
// records: an admin maps an entity to a member and a record kind (a
// scale's weight or body fat, a step or sleep sensor), and Poll reads each
// mapping's state history since its cursor (GET /api/history/period) and
// writes the new readings through the import ledger with source
// "homeassistant" (importer.WriteReadings), so polling again adds nothing
// and a member's edit of an imported reading is kept.
//
// What becomes of a state:
//
//   - unavailable, unknown or not a number: skipped (counted);
//   - weight (kg, g, lb, oz, st → kg): one weigh-in at the state's
//     last_changed;
//   - body fat (%): the body fat of the weigh-in within 15 minutes, else a
//     body-composition entry (so map the weight entity too);
//   - steps (a count): the local day's figure is the day's largest reading,
//     because step sensors count up and reset at midnight (a late reading
//     smaller than the day's largest is a reset or a second device, never
//     steps undone);
//   - sleep (h, min or s → hours): the day's figure is the day's last
//     reading, because a sleep sensor reports last night's total once or
//     corrects it later that morning.
//
// Home Assistant reports the state in force at the start of the period
// first, with last_changed clamped to the start; such a state's real time
// is unknown, so only states strictly after the start are read.
package sensors
