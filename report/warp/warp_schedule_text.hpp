#pragma once
// A warp interleaving in the layout of Raravi & Andersson's Fig. 3–5: one row per warp
// (labelled with its threads), one column per clock cycle, C/L/S letters, '.' when idle.
#include <ostream>

#include "model/warp/warp_model.hpp"
#include "report/json.hpp"

namespace gpuwcrt {

void print_warp_schedule(std::ostream& out, const WarpSchedule& s, int warp_size, long long threads);

// [["C","L",".",…],…]: one array per warp, one string per cycle.
Json warp_schedule_json(const WarpSchedule& s);

}  // namespace gpuwcrt
