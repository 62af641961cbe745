#pragma once
// One resolution of the choices docs/theory/semantics.md §5 leaves open: launch order among simultaneous issues,
// SM placement, and block times within their intervals. For a scenario the schedule is unique.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/workload.hpp"

namespace gpuwcrt {

enum class Policy {
    most_room,    // the SM that can host the most more blocks of this kernel; ties to the lowest index
    round_robin,  // the next SM after the one used last, skipping SMs where the block does not fit
    first_fit,    // the lowest-index SM where the block fits
    chooser       // Scenario::choose decides (verification: any SM where it fits)
};

std::optional<Policy> parse_policy(const std::string& name);
std::string policy_name(Policy p);

struct PlacementRequest {
    int kernel = 0;
    std::int64_t block = 0;
    std::vector<int> fitting;   // SMs where the block fits, ascending
    std::vector<int> distinct;  // one SM per class of identical SM states (SMs are interchangeable)
};

struct Scenario {
    // Tie-break rank of each operation among operations issued at the same instant; lower goes
    // first. Empty: file order.
    std::vector<long> rank;
    Policy policy = Policy::most_room;
    std::function<int(const PlacementRequest&)> choose;  // with Policy::chooser; returns an SM
    // Per kernel: the SM of each block, overriding the policy (replay of a witness, or a
    // [scenario] table); empty for a kernel = the policy decides. A fixed SM where the block
    // does not fit is an InputError at `fixed_where`.
    std::vector<std::vector<int>> fixed_sm;
    SourceLocation fixed_where;
    // Execution time of block j of kernel k (of a copy: block 0 = its duration); empty: the
    // upper end of the operation's block_time/duration interval.
    std::function<Time(int kernel, std::int64_t block)> block_time;
    // Issue instant of operations with an issue window; empty or nullopt: the window's lower end.
    std::vector<std::optional<Time>> issue_at;
};

// Where an explicit launch order was written, for its error messages: a command-line option
// ("gpuwcrt: --order: unknown operation 'Q'") or the file's [scenario] table
// ("w.toml:12:1: [scenario] order: unknown operation 'Q'").
struct OrderSource {
    SourceLocation where;
    std::string prefix;  // put before the message, e.g. "[scenario] order: "
    static OrderSource option(const std::string& name) { return {{"gpuwcrt: " + name, 0, 0}, ""}; }
    static OrderSource scenario(const FixedScenario& f) { return {f.where, "[scenario] order: "}; }
};

// Ranks from an explicit launch order (`--order a,b,c`). Named operations go first, in the
// given order; unnamed ones follow in file order. Throws InputError at `from` when a name is
// empty, unknown or repeated, or the order breaks stream order or issue times.
std::vector<long> launch_ranks(const Workload& w, const std::vector<std::string>& order,
                               const OrderSource& from = OrderSource::option("--order"));

}  // namespace gpuwcrt

namespace gpuwcrt {

// The scenario a simulation runs: the file's [scenario] table (if any) with the command
// line's --order / --policy taking precedence when given. Kernels whose blocks [scenario]
// places explicitly are placed so; the others follow the policy. A fixed placement that
// does not fit is an InputError at the [scenario] table.
Scenario scenario_for(const Workload& w, const std::vector<std::string>& order_option,
                      const std::optional<std::string>& policy_option);

}  // namespace gpuwcrt
