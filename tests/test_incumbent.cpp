// The SMT engine's first incumbent (sim/search/incumbent.hpp): a real scenario, never
// above the true worst case, reproducible, and good enough to be worth its simulations.
#include <catch2/catch.hpp>

#include "model/generate/random_workload.hpp"
#include "sim/simulate.hpp"
#include "solver/block/enumerate/enumerate.hpp"
#include "sim/search/incumbent.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

RandomWorkloadSpec spec(std::uint64_t seed) {
    RandomWorkloadSpec s;
    s.kernels = 3 + static_cast<int>(seed % 3);
    s.streams = 1 + static_cast<int>(seed % 3) + static_cast<int>((seed / 3) % 2);
    s.threads = {128, 256, 512, 768, 1024};
    s.shared_kib = {0, 16, 32, 48};
    s.max_blocks = 3;
    s.max_block_time = 4;
    s.staggered_issue = seed % 2 == 1;
    return s;
}

}  // namespace

TEST_CASE("the incumbent search returns a replayable scenario no worse than the file order and no better than the WCRT",
          "[wcrt][incumbent]") {
    int hits = 0, total = 0;
    for (std::uint64_t seed = 1; seed <= test::seeded(40); ++seed) {
        const Workload w = random_workload(spec(seed), seed);
        const Policy policy = seed % 2 == 0 ? Policy::chooser : Policy::most_room;
        EngineOptions o;
        o.policy = policy;
        const EnumerationResult all = enumerate_wcrt(w, o, Budget{});
        REQUIRE(all.complete);
        for (int op = 0; op < static_cast<int>(w.ops.size()); ++op) {
            INFO("seed " << seed << " op " << w.ops[static_cast<std::size_t>(op)].name);
            const search::Incumbent a = search::search_incumbent(w, op, policy, 200, seed);
            const Schedule replay = simulate(w, witness_scenario(w, a.witness));
            CHECK(replay.response(op) == a.response);
            CHECK(a.response <= *all.wcrt[static_cast<std::size_t>(op)].lower);
            Scenario file_order;
            file_order.policy = policy == Policy::chooser ? Policy::most_room : policy;
            CHECK(a.response >= simulate(w, file_order).response(op));
            CHECK(a.simulations <= 200 + 40);  // the structured starts come on top of moves
            const search::Incumbent again = search::search_incumbent(w, op, policy, 200, seed);
            CHECK(again.response == a.response);
            CHECK(again.witness.launch_order == a.witness.launch_order);
            hits += a.response == *all.wcrt[static_cast<std::size_t>(op)].lower ? 1 : 0;
            ++total;
        }
    }
    // Not a correctness property, a usefulness one: on these small workloads the search
    // should find the worst case almost always (it did on every one when written).
    CHECK(hits * 10 >= total * 9);
}
