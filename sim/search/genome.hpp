#pragma once
// One concrete scenario of docs/theory/semantics.md §5 as the search's genes: the tie-break rank of every
// operation, the issue instant of every operation with an issue window, the block times of
// every operation with a block-time interval (one value for every block, or one per block),
// and, under the `any` placement (Policy::chooser), a placement rule per kernel. The
// simulator turns a genome into one schedule; the genome itself is never a claim.
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "sim/scenario.hpp"
#include "sim/schedule.hpp"
#include "sim/witness.hpp"

namespace gpuwcrt::search {

// How a kernel's blocks pick an SM among those where they fit (Policy::chooser only). The
// chooser sees which SMs fit and which are alike, not their load, so the rules are over those.
enum class Place : std::uint8_t {
    first,     // the lowest-index SM that fits
    last,      // the highest-index SM that fits
    cycle,     // block j: the (j mod n)-th SM that fits
    hashed,    // block j: a pseudo-random SM that fits, from the kernel's salt
    preferred  // block j: its preferred SM if it fits (a replayed witness), else the first
};
inline constexpr int place_rules = 4;  // first..hashed: the rules a move draws from

struct Genome {
    std::vector<long> rank;                  // per operation; lower launches first among ties
    std::vector<std::optional<Time>> issue;  // per operation: nullopt = its window's lower end
    // Per operation: empty = the interval's upper end; one value = every block; else per block.
    std::vector<std::vector<Time>> time;
    std::vector<Place> place;                 // per operation (kernels, chooser only)
    std::vector<std::uint32_t> salt;          // per operation, for Place::hashed
    std::vector<std::vector<int>> preferred;  // per operation, for Place::preferred
};

// Which genes a workload has: operations with a block-time interval, with an issue window.
struct GeneSpace {
    explicit GeneSpace(const Workload& w);
    std::vector<int> ranged, windowed, kernels;
    bool any_placement = false;  // set by the search for Policy::chooser
};

// Every range at its simulate default: block times at hi, issues at lo, file order, first fit.
Genome default_genome(const Workload& w);

// Simulates `g`. `points` is a copy of `w` that this call sets to the genome's block times
// where they are one value per operation, so that the simulator runs them as point times
// (blocks dispatched together end at one instant, computed once); per-block times go through
// the scenario. Under Policy::chooser with every kernel on Place::first, first fit runs instead
// (the same SM every time, without the chooser's comparison of SM states).
Schedule simulate_genome(const Workload& w, Workload& points, const Genome& g, Policy policy);

// The witness of a simulation of `g` from its launch order and SMs (`placed`, witness_of the
// schedule): every block time and issue instant the genome chose for an operation with a range
// added, so that a replay needs no genome.
WitnessScenario with_times(const Workload& w, const Genome& g, WitnessScenario placed);

// A genome that replays `x` (its launch order as ranks, its SMs preferred, its times).
Genome genome_of_witness(const Workload& w, const WitnessScenario& x);

// A scenario drawn at random: ranks shuffled, every range at an end or a 1/16 point (one
// value per operation, or per block for one kernel in four), a random placement rule per kernel.
Genome random_genome(const Workload& w, const GeneSpace& genes, std::mt19937_64& rng);

// A point of [lo, hi] related to `cur`: an end, the middle, half-way from `cur` to an end (so
// that repeated moves approach a supremum reached only near an end), or a point of a 1/16 grid.
Time pick_value(const Time& cur, const Time& lo, const Time& hi, std::mt19937_64& rng);

// Changes one to three genes of `g` (for `target`: launches after its ties, or its own times).
void perturb(const Workload& w, const GeneSpace& genes, Genome& g, int target, std::mt19937_64& rng);

}  // namespace gpuwcrt::search
