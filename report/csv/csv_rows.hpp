#pragma once
// CSV for spreadsheets and batch scripts, quoted as RFC 4180 says (a field with a comma, a
// quote or a line break is enclosed in quotes, its quotes doubled); lines end in "\n", which
// every CSV reader accepts, so that the output diffs cleanly with other Unix text. The rows are taken from the
// command's JSON operations, so a CSV cell always holds exactly the JSON's value: an exact time string ("3/2"),
// true/false, or empty for null.
#include <string>
#include <vector>

#include "report/json.hpp"

namespace gpuwcrt {

// `field` quoted when RFC 4180 requires it.
std::string csv_field(const std::string& field);

// A header row of `columns`, then one row per element of `rows` (a JSON array of objects):
// each column's value of that object (the column "operation" is the object's "name"; "a.b" is
// the member b of the object a); a missing key, null or an object is an empty field, a string
// is written as is, anything else as its JSON text (true, 12).
std::string csv_from_json(const Json& rows, const std::vector<std::string>& columns);

}  // namespace gpuwcrt
