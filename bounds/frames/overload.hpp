#pragma once
// Whether a workload with periodic or sporadic streams is overloaded: more work arrives, on
// average, than some part of the GPU can ever serve (docs/theory/all-time.md, "No bound: overload"). Checked before
// any search, in time linear in the operations.
#include <optional>
#include <string>

#include "model/workload.hpp"

namespace gpuwcrt {

struct Overload {
    // The stream whose frames provably fall ever further behind (their responses grow without
    // bound in every scenario), or -1 when the overload is of the GPU as a whole: then some
    // stream falls behind, but which one depends on the priorities and the scenario.
    int stream = -1;
    std::string reason;  // for people: what needs how much against what is available
};

// An overload proven from lower ends alone (every block time and duration at its lower end,
// which no scenario undercuts), or nullopt when none is found; nullopt does not mean that the
// workload is schedulable. Streams that run once add no load over time and are ignored.
std::optional<Overload> find_overload(const Workload& w);

}  // namespace gpuwcrt
