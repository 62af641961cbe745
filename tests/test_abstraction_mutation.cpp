// The differential tests of the interval abstraction have teeth: with one
// soundness ingredient removed (BoundsOptions::mutation), the same comparison against the
// enumeration that tests/test_abstraction.cpp runs finds, on some seeded workload, an operation
// whose "upper bound" is below the enumeration's grid maximum (or below a replayed scenario,
// which abstraction_bounds itself refuses with std::logic_error). Without the mutation, the
// same workloads pass.
#include <catch2/catch.hpp>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "bounds/abstraction/bounds.hpp"
#include "model/generate/random_workload.hpp"
#include "solver/block/enumerate/enumerate.hpp"
#include "support.hpp"

using namespace gpuwcrt;
using abstraction::AbstractionMutation;

namespace {

// The workloads of tests/test_abstraction.cpp's feature_spec, with intervals and windows when
// `ranges`: several operations per stream, copies, registers, shared memory, staggered issues.
RandomWorkloadSpec mutation_spec(std::uint64_t seed, bool ranges) {
    RandomWorkloadSpec s;
    s.kernels = 2 + static_cast<int>(seed % 3);
    s.streams = 1 + static_cast<int>((seed / 3) % 3);
    s.shared_kib = {0, 16, 32, 48};
    s.registers = {0, 16, 32};
    s.max_blocks = 3;
    s.max_block_time = 3;
    s.staggered_issue = seed % 2 == 1;
    s.copy_percent = 25;
    if (ranges) s.interval_percent = 60;
    return s;
}

// The workload with every block time fixed at lo + (hi - lo) * num / den.
Workload times_fixed_at(Workload w, long num, long den) {
    for (Operation& op : w.ops) {
        const Time t = op.time.lo + (op.time.hi - op.time.lo) * Time(num, den);
        op.time = {t, t};
    }
    return w;
}

// Per operation, the largest response the enumeration finds with every range fixed at its low
// end, its middle, or its high end: each a real scenario, so a lower bound on the true WCRT.
std::vector<Time> enumerated_maximum(const Workload& w, bool ranges) {
    EngineOptions o;
    std::vector<Time> best(w.ops.size(), Time(0));
    for (long num : ranges ? std::vector<long>{0, 1, 2} : std::vector<long>{2}) {
        const EnumerationResult ref = enumerate_wcrt(times_fixed_at(w, num, 2), o, Budget{});
        REQUIRE(ref.complete);
        for (std::size_t op = 0; op < w.ops.size(); ++op) best[op] = std::max(best[op], *ref.wcrt[op].lower);
    }
    return best;
}

// How many of `seeds` workloads the differential test fails on: some operation's upper bound
// below the enumeration's maximum, or a replayed lower bound above the upper bound.
int failures(AbstractionMutation m, bool ranges, int seeds) {
    EngineOptions o;
    int failed = 0;
    for (std::uint64_t seed = 1; seed <= static_cast<std::uint64_t>(seeds); ++seed) {
        const Workload w = random_workload(mutation_spec(seed, ranges), 70000 + seed);
        const std::vector<Time> ref = enumerated_maximum(w, ranges);
        BoundsOptions b;
        b.lower_bound_simulations = 20;
        b.max_beam_width = 1;
        b.max_states = 4;
        b.mutation = m;
        try {
            const BoundsResult r = abstraction_bounds(w, o, Budget{}, b);
            bool below = false;
            for (std::size_t op = 0; op < w.ops.size(); ++op) below = below || *r.wcrt[op].upper < ref[op];
            failed += below;
        } catch (const std::logic_error&) {
            ++failed;  // a replayed scenario above the "proven" bound
        }
    }
    return failed;
}

}  // namespace

TEST_CASE("bounds mutation: the differential test passes unmutated and fails with each soundness ingredient removed") {
    CHECK(failures(AbstractionMutation::none, false, 150) == 0);
    CHECK(failures(AbstractionMutation::none, true, 150) == 0);
    // The block time's low end: a shorter block can finish a resource earlier and delay another
    // kernel (docs/decisions/0010-interval-anomalies.md, the anomalies), and a later copy end is not "worse" either.
    CHECK(failures(AbstractionMutation::drop_time_low, true, 150) > 0);
    // Every SM where a block may fit (policy any): one SM alone misses placements.
    CHECK(failures(AbstractionMutation::one_sm, false, 150) > 0);
    // Operations joining their queue at one instant are dispatched in every launch order.
    CHECK(failures(AbstractionMutation::fifo_strict, false, 150) > 0);
}
