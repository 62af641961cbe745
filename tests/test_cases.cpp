// Every [[expect]] of every case under cases/ holds in the simulator.
#include <catch2/catch.hpp>

#include "model/frames/unroll.hpp"
#include "sim/simulate.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

void check_expectation(const Workload& file, const Expectation& e) {
    // With periodic or sporadic streams the expectation is about the frames it names (`frames`,
    // else the default horizon), its names those of the unrolled operations (NAME#k).
    std::optional<Unrolled> frames;
    if (file.repeats())
        frames = unroll(file, e.frames ? Horizon::of_frames(*e.frames, e.where)
                                       : Horizon{Horizon::Kind::hyperperiod, 1, 0, e.where});
    const Workload& w = frames ? frames->workload : file;
    Scenario sc;
    // The file's [scenario] issue instants and block times apply (an expectation has no keys
    // for them): how a case states a replayed schedule inside issue windows and intervals.
    if (file.scenario) {
        const Scenario fixed = scenario_for(w, {}, std::nullopt);
        sc.issue_at = fixed.issue_at;
        sc.block_time = fixed.block_time;
    }
    if (e.policy) sc.policy = *parse_policy(*e.policy);
    sc.rank = launch_ranks(w, e.order);
    const Schedule s = simulate(w, sc);
    auto op = [&](const std::string& name) { return *w.find_op(name); };
    for (const auto& [name, t] : e.finish) CHECK(exact_string(s.ops[op(name)].finish) == exact_string(t));
    for (const auto& [name, t] : e.start) CHECK(exact_string(s.ops[op(name)].start) == exact_string(t));
    for (const auto& [name, t] : e.response) CHECK(exact_string(s.response(op(name))) == exact_string(t));
    for (const auto& b : e.blocks) {
        INFO("block " << b.kernel << ":" << b.index);
        auto it = std::find_if(s.blocks.begin(), s.blocks.end(),
                               [&](const BlockTiming& x) { return x.kernel == op(b.kernel) && x.index == b.index; });
        REQUIRE(it != s.blocks.end());
        if (b.start) CHECK(exact_string(it->start) == exact_string(*b.start));
        if (b.end) CHECK(exact_string(it->end) == exact_string(*b.end));
        if (b.sm) CHECK(it->sm == *b.sm);
    }
}

}  // namespace

TEST_CASE("every case expectation holds in the simulator", "[cases][sim]") {
    const auto files = test::workload_case_files();
    REQUIRE(!files.empty());
    std::size_t checked = 0;
    for (const auto& f : files) {
        const Workload w = load_workload_file(f);
        for (const auto& e : w.expectations) {
            if (e.finish.empty() && e.start.empty() && e.response.empty() && e.blocks.empty()) continue;
            INFO(f << " expectation at " << e.where.str() << ": " << e.note);
            check_expectation(w, e);
            ++checked;
        }
    }
    CHECK(checked >= 4);
}
