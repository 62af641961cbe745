#include "report/provenance.hpp"

#include <string_view>
#include <utility>

namespace gpuwcrt {

namespace {

constexpr std::pair<Provenance, std::string_view> texts[] = {
    {Provenance::none, ""},
    {Provenance::bounds, "bounds"},
    {Provenance::exact, "exact"},
    {Provenance::smt, "smt"},
    {Provenance::enumerate, "enumerate"},
    {Provenance::explicit_state, "explicit"},
    {Provenance::interference, "interference bound"},
    {Provenance::busy_time, "busy-time bound"},
    {Provenance::rta_orders, "RTA order search"},
    {Provenance::rta_file_order, "RTA, file order"},
    {Provenance::frame_search, "frame search"},
    {Provenance::steady_state, "steady state"},
    {Provenance::busy_window, "busy window"},
    {Provenance::frame_exploration, "frame exploration"},
    {Provenance::cpu_oblivious, "CPU RTA, suspension-oblivious"},
    {Provenance::cpu_jitter, "CPU RTA, interferers by jitter or bursts"},
    {Provenance::cpu_execution, "a job at its longest executions"},
    {Provenance::sliced_busy_window, "busy window under time slices"},
    {Provenance::cpu_joint_run, "a run of the CPU tasks and GPU frames together"},
};

}  // namespace

std::string provenance_text(Provenance p) {
    for (const auto& [by, text] : texts)
        if (by == p) return std::string(text);
    return "?";
}

Json provenance_json(Provenance p) { return p == Provenance::none ? Json(nullptr) : Json(provenance_text(p)); }

std::string contradiction_text(const BoundsContradict& e) {
    return std::string(e.what()) + " (lower bound by " + provenance_text(e.lower_by) + ", upper bound by " +
           provenance_text(e.upper_by) + ")";
}

}  // namespace gpuwcrt
