#include "app/warp_progress.hpp"

namespace gpuwcrt::app {

WarpProgress::WarpProgress(std::string command, const WarpBudget& budget)
    : lines_(std::move(command), [&budget] {
          std::string s = budget.phase.load();
          if (const auto n = budget.states.load()) s += ", " + std::to_string(n) + " states";
          if (const auto n = budget.checks.load()) s += ", " + std::to_string(n) + " solver checks";
          return s;
      }) {}

}  // namespace gpuwcrt::app
