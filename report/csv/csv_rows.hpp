#pragma once
// CSV for spreadsheets and batch scripts, quoted as RFC 4180 says (a field with a comma, a
// quote or a line break is enclosed in quotes, its quotes doubled); lines end in "\n", which
// every CSV reader accepts, so that the output diffs cleanly with other Unix text. The rows are taken from the
// command's JSON operations, so a CSV cell holds the JSON's value: true/false, empty for null, and
// a time as a table writes it (report/time_notation.hpp): its decimal when short, else rounded to
// rounded_fraction_digits in its column's direction ("5.9", "0.333334"), so that a spreadsheet
// reads a number; with exact times (--exact) the JSON's exact string ("59/10").
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include "report/json.hpp"
#include "report/time_notation.hpp"

namespace gpuwcrt {

// `field` quoted when RFC 4180 requires it.
std::string csv_field(const std::string& field);

// A header row of `columns`, then one row per element of `rows` (a JSON array of objects):
// each column's value of that object (the column "operation" is the object's "name"; "a.b" is
// the member b of the object a); a missing key, null or an object is an empty field, a string
// is written as is, anything else as its JSON text (true, 12).
// `times`: the columns that hold times, with the way each rounds; any other is written as is.
using CsvTimes = std::map<std::string, Rounding>;
std::string csv_from_json(const Json& rows, const std::vector<std::string>& columns, const CsvTimes& times);

// The columns rounded down, up and to the nearest.
CsvTimes csv_times(std::initializer_list<const char*> down, std::initializer_list<const char*> up,
                   std::initializer_list<const char*> nearest);

// The time columns of the bounds that wcrt, certify and rta-check write: lower bounds (wcrt,
// lower_bound, a replayed response, a certified margin, rta-check's excess) round down, upper
// bounds (upper_bound, the RTA columns, busy_time_bound) up, deadlines and given bounds to the nearest.
extern const CsvTimes bound_csv_times;
// The time columns of one simulated schedule (simulate): exact values of that scenario, to the nearest.
extern const CsvTimes schedule_csv_times;

}  // namespace gpuwcrt
