#pragma once
// What wcrt and certify print of the all-time engine's run on a workload with periodic or
// sporadic streams (solver/frames/all_time_engine.hpp): one row per operation of the file
// bounding every one of its frames, the frame each lower bound was replayed in, the arguments
// the bounds rest on, and the witness files (a frame of the unrolled workload).
#include <map>
#include <optional>
#include <vector>

#include "app/verification.hpp"
#include "report/assumptions/assumptions.hpp"

namespace gpuwcrt::app {

struct AllTimeOutput {
    std::string command;  // "wcrt" or "certify"
    const VerifyOptions& options;
    std::vector<int> ops;  // the operations to report, in order
    // certify: the verdict per operation reported (in `ops` order); empty for wcrt.
    std::vector<CertifyAnswer> verdicts;
    // wcrt --witness, certify --counterexample: the TOML of the first operation's witness (wcrt)
    // or of the first refuted operation's (certify); empty: none.
    std::string toml;
    // What the answers rest on (app/assumptions/), printed after the table and in the JSON.
    std::vector<Assumption> assumptions = {};
    std::optional<int> chart_op = {};  // wcrt --op: the operation --svg charts; none: the critical one
};

// Prints the table (or --json/--csv) and writes --svg and `toml`.
void print_all_time(const AllTimeOutput& out, const Workload& w, const EngineRun& run);

}  // namespace gpuwcrt::app
