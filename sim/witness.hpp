#pragma once
// A witness or counterexample scenario (docs/theory/semantics.md §5): launch order and SM of every block. Every
// one an engine reports is replayed through the simulator first (replay_witness).
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/scenario.hpp"
#include "sim/schedule.hpp"
#include "sim/simulate.hpp"

namespace gpuwcrt {

struct WitnessScenario {
    std::vector<int> launch_order;     // operation indices, in launch order
    std::vector<std::vector<int>> sm;  // per operation: SM of each block (empty for copies)
    // Per operation: the time of each block (a copy: its duration, one entry) within its
    // block_time/duration interval; empty (or shorter than the operation) = the interval's
    // upper end, the simulator's default.
    std::vector<std::vector<Time>> block_time;
    // Per operation: its issue instant within its issue window; empty/nullopt = the window's
    // lower end, the simulator's default.
    std::vector<std::optional<Time>> issue;
};

// The witness as the simulator's scenario: ranks from the launch order, fixed SMs.
Scenario witness_scenario(const Workload& w, const WitnessScenario& x);
WitnessScenario witness_of(const Workload& w, const Schedule& s);

// An engine's claim that disagrees with the simulator's replay: a bug, never a result.
class ReplayMismatch : public std::logic_error {
public:
    using std::logic_error::logic_error;
};

// Simulates the witness. Throws ReplayMismatch when `claimed_response` of `op` differs from
// the replayed one, or when `claimed` (if given) differs from the replayed schedule in any
// block start or SM; the message shows both.
Schedule replay_witness(const Workload& w, const WitnessScenario& x, int op, const Time& claimed_response,
                        const Schedule* claimed = nullptr);
// The two halves of replay_witness, for a caller that checks the responses of several
// operations against one replay of a scenario they share: the simulation (ReplayMismatch when
// the scenario cannot be simulated), and the comparison of one claim with its schedule.
Schedule simulate_witness(const Workload& w, const WitnessScenario& x);
void require_replayed(const Workload& w, const WitnessScenario& x, const Schedule& replayed, int op,
                      const Time& claimed_response, const Schedule* claimed = nullptr);

// Throws ReplayMismatch when the witness places a block where `policy` would not: under a
// fixed placement policy only the policy's own placements are scenarios of the workload, so a
// witness with other SMs would claim a response no run under that policy has. `chooser` (any
// SM where a block fits) accepts every placement.
void require_policy_placement(const Workload& w, const WitnessScenario& x, Policy policy);

// Throws ReplayMismatch when a replayed `response` of `op` exceeds `upper`, its proven
// busy-time bound (BlockProblem::response_upper_bound): that argument would be wrong.
void require_within_bound(const Workload& w, int op, const Time& response, const Time& upper);

// The witness as a workload's [scenario] table (launch order, SMs, block times and issue
// instants by name), so that a TOML copy of the workload replays it.
FixedScenario fixed_scenario(const Workload& w, const WitnessScenario& x);

// {"order":[names…],"sm":{"K":[0,1,…]…}}-like text for people: "order K2,K1; sm K1=[0,1] …".
std::string describe_witness(const Workload& w, const WitnessScenario& x);

}  // namespace gpuwcrt
