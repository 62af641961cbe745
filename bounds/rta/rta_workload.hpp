#pragma once
// The thesis RTA applied to a workload: the API other engines call (e.g. "RTA for the file
// order" and "RTA maximised over all orders").
#include <optional>
#include <string>
#include <vector>

#include "bounds/rta/rta_scope.hpp"

namespace gpuwcrt {

struct RtaOutcome {
    std::vector<int> order;             // kernels (operation indices) in the order analysed
    std::vector<Time> release, finish;  // parallel to `order`
    OneBigSm big;                       // slot size and g_max
    bool closed_form = false;           // thesis §3.6 computed it (equal C, common release)
    std::vector<std::string> reasons;   // empty: exact (rta_scope_reasons)

    bool exact() const { return reasons.empty(); }
    std::optional<Time> finish_of(int op) const;
    std::optional<Time> response_of(int op) const;
};

// The release r_i the RTA uses for each operation (indexed like w.ops): its issue instant (the
// lower end of a window); after_stream_idle on a stream's first operation is the delay (the
// stream starts idle). For a
// later operation of a stream (outside the scope) the earliest instant the host could issue it:
// with_previous = the predecessor's release, after_stream_idle = predecessor's release + delay,
// a fixed issue no earlier than the predecessor's release.
std::vector<Time> rta_releases(const Workload& w);

// The launch order the simulator realises for tie-break ranks `rank` (Scenario::rank, e.g. from
// launch_ranks): kernels sorted by release, ties by rank. Copies are left out.
std::vector<int> rta_launch_order(const Workload& w, const std::vector<long>& rank);

// Algorithm 2 (or the closed form when it applies, cross-checked against Algorithm 2) over the
// kernels of `launch_order` (operation indices; copies in it are skipped). Every kernel must
// appear exactly once; std::invalid_argument otherwise.
RtaOutcome rta(const Workload& w, const std::vector<int>& launch_order);

}  // namespace gpuwcrt
