#pragma once
// Progress of a long warp run on stderr (app/phase_progress.hpp): the point being checked, then
// what runs and its counters (states stored / solver checks), read from a Budget.
#include <string>

#include "app/phase_progress.hpp"
#include "common/budget.hpp"

namespace gpuwcrt::app {

class WarpProgress {
public:
    WarpProgress(std::string command, const Budget& budget);

    void set_context(std::string context) { lines_.set_phase(std::move(context)); }  // e.g. "point 3/16 (…)"

private:
    PhaseProgress lines_;
};

}  // namespace gpuwcrt::app
