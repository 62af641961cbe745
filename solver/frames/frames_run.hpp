#pragma once
// What a run over periodic or sporadic streams (the all-time engine, solver/frames/all_time.hpp)
// used and found beyond its answers: the numbers its arguments name, why the others bounded
// nothing, and the frames its witnesses are scenarios of (docs/theory/all-time.md).
#include <optional>
#include <string>
#include <vector>

#include "bounds/frames/overload.hpp"
#include "bounds/frames/sliced_busy_window.hpp"
#include "model/frames/unroll.hpp"

namespace gpuwcrt {

struct FramesRun {
    std::optional<Overload> overload;  // set: no bound exists (or none for the whole GPU)
    Time hyperperiod = 0;
    int closed_after = 0;             // k: the GPU proven idle at k hyperperiods; 0 when no k closed
    Time closed_offset = 0;           // ... plus this least offset of the streams, when only then
    int steady_over = 0;              // L: the interference bound's steady state over L hyperperiods; 0: none
    std::string steady_why;           // why no steady state was found, when none was
    std::optional<Time> busy_window;  // X: every busy period proven to end within X, when that bounded frames
    std::string busy_why;             // why the busy window bounded nothing, when it was tried
    std::vector<ContextWindow> context_windows;  // per time-sliced context proven to end its busy periods
    int explored_window = 0;                     // hyperperiods of the window whose exploration closed; 0: none
    long long explored_states = 0;               // the states that exploration stored
    std::string explore_why;                     // why the frames were not explored to a fixed point, when tried
    std::optional<Unrolled> unrolled;            // the frames the witnesses are scenarios of
    long long simulations = 0;
};

// One sentence per argument the run used, as the reports list them (an empty list: none bounded).
std::vector<std::string> argument_sentences(const FramesRun& r);

// Where the witness of an answer of the run lies: the operation of `unrolled` that is frame
// `frame` of operation `op` of the file; nullopt without one.
std::optional<int> witnessed_operation(const FramesRun& r, int op, std::optional<std::int64_t> frame);

}  // namespace gpuwcrt
