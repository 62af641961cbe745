#pragma once
// wcrt and certify on a workload with periodic streams: the all-time analysis
// (solver/frames/all_time.hpp) instead of the one-frame engines, one row per operation of the
// file bounding every one of its frames.
#include <map>
#include <optional>
#include <vector>

#include "app/verification.hpp"

namespace gpuwcrt::app {

struct AllTimeRequest {
    std::string command;  // "wcrt" or "certify"
    const VerifyOptions& options;
    std::vector<int> ops;        // the operations to report, in order
    std::map<int, Time> bounds;  // certify: the bound to check per operation
    // wcrt --witness, certify --counterexample: the TOML of the first operation's witness (wcrt)
    // or of the first refuted operation's (certify), a frame of the unrolled workload; empty: none.
    std::string toml;
    std::optional<int> chart_op = {};  // wcrt --op: the operation --svg charts; none: the critical one
};

// Prints the table (or --json/--csv), writes --svg and `toml`, and returns the exit code: 0 when every operation is
// bounded (wcrt: exact; certify: certified), 1 when certify refutes a bound, 2 otherwise.
int run_all_time(const AllTimeRequest& r, const Workload& w);

}  // namespace gpuwcrt::app
