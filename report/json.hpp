#pragma once
#include <nlohmann/json.hpp>

namespace gpuwcrt {

// Keys keep the order in which they are written, so JSON output reads like the documentation.
using Json = nlohmann::ordered_json;

}  // namespace gpuwcrt
