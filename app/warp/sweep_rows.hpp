#pragma once
// The rows of `gpuwcrt warp-sweep`, and how the processes of a run under mpirun bring theirs
// together on rank 0 (docs/theory/distributed.md, "Sweeps").
#include <cstddef>
#include <string>
#include <vector>

namespace gpuwcrt::app {

// One point of a sweep as printed: its cells and what decides the exit code.
struct SweepRow {
    std::size_t index = 0;  // among the sweep's points
    std::vector<std::string> cells;
    bool disagree = false, refuted = false, unknown = false;
};

// Every process's rows on rank 0, in the sweep's order (one process: `mine`). Collective.
std::vector<SweepRow> gathered_rows(const std::vector<SweepRow>& mine);

}  // namespace gpuwcrt::app
