#include "app/warp/warp_progress.hpp"

namespace gpuwcrt::app {

WarpProgress::WarpProgress(std::string command, const Budget& budget)
    : lines_(std::move(command), [&budget] {
          std::string s = budget.counters().phase.load();
          if (const auto n = budget.counters().states.load()) s += ", " + std::to_string(n) + " states";
          if (const auto n = budget.counters().checks.load()) s += ", " + std::to_string(n) + " solver checks";
          return s;
      }) {}

}  // namespace gpuwcrt::app
