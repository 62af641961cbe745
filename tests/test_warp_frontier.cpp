// The frontier sweep (solver/warp/warp_frontier), which explicit_extreme runs, against the
// memoising search (solver/warp/warp_memo_search): both walk WarpStepper's step
// relation, one depth-first with a memo per state, the other cycle by cycle. Values must be
// equal on every small point of every fairness and unit variant, the sweep's schedules must
// be legal and reach its values, and a budget that runs out must leave a goal unsettled,
// never give it a value.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <random>

#include "solver/warp/warp_frontier.hpp"
#include "solver/warp/warp_memo_search.hpp"
#include "solver/warp/warp_packed_state.hpp"
#include "sim/warp/warp_schedule_check.hpp"
#include "model/warp/warp_tr.hpp"

using namespace gpuwcrt;

namespace {

std::vector<FermiUnits> frontier_unit_variants() {
    FermiUnits wide, slot, slow;
    wide.cuda = 1;
    wide.ldst = 2;
    slot.issue_limit = 1;
    slow.latency_l = 3;
    return {{}, wide, slot, slow};
}

void check_schedule(const WarpProblem& p, const WarpExtreme& e) {
    const WarpSchedule rows = schedule_from_issues(p, e.issues);
    CHECK(warp_schedule_violation(p, rows) == "");
    CHECK(rows.makespan() == e.makespan);
}

// Returns the largest frontier, so that a grid can check that two threads had work to share.
std::size_t check_extremes(const WarpProblem& p) {
    INFO("W=" << p.warps << " rep=" << p.rep << " fairness=" << to_string(p.fairness)
              << " cuda=" << p.machine.units[0].capacity << " ldst=" << p.machine.units[1].capacity
              << " limit=" << p.machine.issue_limit.value_or(0) << " lat L=" << p.machine.classes[1].latency);
    const WarpExtreme mw = memo_extreme(p, WarpGoal::worst), mb = memo_extreme(p, WarpGoal::best);
    REQUIRE_FALSE(mw.stopped);
    REQUIRE_FALSE(mb.stopped);

    const WarpExtremes both = frontier_extremes(p, Budget());
    REQUIRE_FALSE(both.worst.stopped);
    REQUIRE_FALSE(both.best.stopped);
    CHECK(both.worst.makespan == mw.makespan);
    CHECK(both.best.makespan == mb.makespan);
    check_schedule(p, both.worst);
    check_schedule(p, both.best);
    // The memo holds every reachable unfinished state once; the sweep holds each once per
    // cycle at which it is reachable (some are reachable at two: a few per cent more).
    CHECK(both.worst.states >= mw.states);

    WarpFrontierOptions values;  // the oracle's mode: no schedules, two threads
    values.witness = false;
    values.threads = 2;
    const WarpExtremes v = frontier_extremes(p, Budget(), values);
    CHECK(v.worst.makespan == mw.makespan);
    CHECK(v.best.makespan == mb.makespan);
    CHECK(v.worst.issues.empty());

    const WarpExtreme eb = explicit_extreme(p, WarpGoal::best);  // stops at the first finish
    CHECK(eb.makespan == mb.makespan);
    check_schedule(p, eb);
    return v.peak_frontier;
}

std::size_t grid(WarpFairness f) {
    std::size_t peak = 0;
    for (const auto& u : frontier_unit_variants())
        for (int w = 1; w <= 8; ++w)
            for (int r = 1; r <= 3; ++r) peak = std::max(peak, check_extremes(tr_problem(w, r, f, u)));
    return peak;
}

}  // namespace

TEST_CASE("frontier sweep equals the memoising search: W <= 8, rep <= 3, subblock fairness, every unit variant",
          "[warp][frontier]") {
    grid(WarpFairness::subblock);
}

TEST_CASE("frontier sweep equals the memoising search: W <= 8, rep <= 3, strict fairness, every unit variant",
          "[warp][frontier]") {
    grid(WarpFairness::strict);
}

TEST_CASE("frontier sweep equals the memoising search: W <= 8, rep <= 3, no fairness, every unit variant",
          "[warp][frontier][slow]") {
    CHECK(grid(WarpFairness::none) > 2 * 1024);  // frontiers that two threads expand together
}

TEST_CASE("packed states unpack to themselves along random schedules", "[warp][frontier]") {
    std::mt19937 rng(15);
    for (const auto& u : frontier_unit_variants())
        for (int w : {1, 3, 16, 17, 300}) {
            const WarpProblem p = tr_problem(w, 3, WarpFairness::none, u);
            const WarpStepper step(p);
            const WarpStatePacker pack(step);
            std::vector<std::uint64_t> key(pack.words());
            WarpState s = step.initial(), back;
            for (int cycle = 0; !step.finished(s) && cycle < 200; ++cycle) {
                pack.pack(s, key.data());
                pack.unpack(key.data(), back);
                REQUIRE(back == s);
                // A random legal step; the greedy ones when there are too many to list.
                const WarpGreedy bias = rng() % 2 ? WarpGreedy::ahead_first : WarpGreedy::behind_first;
                s = step.apply(s, w <= 17 ? [&] {
                    const auto all = step.successors(s);
                    return all[rng() % all.size()];
                }() : step.greedy(s, bias));
            }
        }
}

TEST_CASE("a frontier sweep out of time or memory settles no goal it did not finish", "[warp][frontier]") {
    const WarpProblem p = tr_problem(16, 4, WarpFairness::none);  // minutes of search
    for (int memory : {0, 1}) {
        Budget budget;
        if (memory) budget.memory_bytes = 1u << 20;
        else budget.deadline = Budget::Clock::now() + std::chrono::milliseconds(300);
        const auto t0 = std::chrono::steady_clock::now();
        const WarpExtremes e = frontier_extremes(p, budget);
        CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(3));  // slack for a loaded machine
        REQUIRE(e.worst.stopped);
        CHECK(*e.worst.stopped == (memory ? StopReason::memory : StopReason::timeout));
        CHECK(e.worst.issues.empty());
        if (!e.best.stopped) check_schedule(p, e.best);  // how far it got depends on the machine
        const WarpExtreme single = explicit_extreme(p, WarpGoal::worst, budget);
        CHECK(single.stopped);
        CHECK(single.issues.empty());
    }
}
