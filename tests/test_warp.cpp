// Warp model (docs/theory/semantics.md §8): the TR's own figures, explicit vs SMT engine, an independent per-warp
// brute force for the count abstraction, the schedule checker, TOML errors and the CLI.
#include <catch2/catch.hpp>

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>

#include "solver/warp/warp_explicit.hpp"
#include "sim/warp/warp_schedule_check.hpp"
#include "model/io/warp/warp_toml.hpp"
#include "model/warp/warp_tr.hpp"
#include "solver/warp/warp_search.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

// Per-warp brute force: warps keep their identity, every subset of ready warps is tried and
// kept only if it obeys the rules as docs/theory/semantics.md §8 words them. Shares nothing with WarpStepper.
class BruteForce {
public:
    BruteForce(const WarpProblem& p, bool worst) : p_(p), instr_(p.instructions()), worst_(worst) {}

    int run() {
        std::vector<int> s;
        for (int w = 0; w < p_.warps; ++w) s.insert(s.end(), {0, 0});  // pc, cycles still to wait
        return value(s);
    }

private:
    bool legal(const std::vector<int>& s, unsigned mask) const {
        const auto& m = p_.machine;
        std::vector<int> ready(m.units.size()), issued(m.units.size()), low_wait(m.units.size(), 1 << 20),
            high_issue(m.units.size(), -1);
        for (int w = 0; w < p_.warps; ++w) {
            const int pc = s[2 * w], wait = s[2 * w + 1];
            const bool on = mask & (1u << w);
            const bool is_ready = pc < static_cast<int>(instr_.size()) && wait == 0;
            if (on && !is_ready) return false;
            if (!is_ready) continue;
            const auto& i = instr_[static_cast<std::size_t>(pc)];
            ++ready[i.unit];
            if (on) ++issued[i.unit], high_issue[i.unit] = std::max(high_issue[i.unit], i.level);
            else low_wait[i.unit] = std::min(low_wait[i.unit], i.level);
        }
        int total = 0, possible = 0;
        for (std::size_t u = 0; u < ready.size(); ++u) {
            const int can = std::min(ready[u], m.units[u].capacity);
            if (issued[u] > can) return false;
            if (!m.issue_limit && issued[u] < can) return false;
            if (high_issue[u] > low_wait[u]) return false;
            total += issued[u];
            possible += can;
        }
        return !m.issue_limit || total == std::min(*m.issue_limit, possible);
    }

    int value(const std::vector<int>& s) {
        bool done = true;
        for (int w = 0; w < p_.warps; ++w) done = done && s[2 * w] == static_cast<int>(instr_.size());
        if (done) return 0;
        if (auto it = memo_.find(s); it != memo_.end()) return it->second;
        int best = -1;
        for (unsigned mask = 0; mask < (1u << p_.warps); ++mask) {
            if (!legal(s, mask)) continue;
            std::vector<int> n = s;
            for (int w = 0; w < p_.warps; ++w) {
                if (mask & (1u << w)) {
                    n[2 * w + 1] = instr_[static_cast<std::size_t>(s[2 * w])].latency - 1;
                    ++n[2 * w];
                } else if (n[2 * w + 1] > 0) {
                    --n[2 * w + 1];
                }
            }
            const int v = 1 + value(n);
            if (best < 0 || (worst_ ? v > best : v < best)) best = v;
        }
        memo_[s] = best;
        return best;
    }

    WarpProblem p_;
    std::vector<WarpInstr> instr_;
    bool worst_;
    std::map<std::vector<int>, int> memo_;
};

void check_schedule(const WarpProblem& p, const std::vector<WarpIssue>& issues, int makespan) {
    const WarpSchedule s = schedule_from_issues(p, issues);
    CHECK(warp_schedule_violation(p, s) == "");
    CHECK(s.makespan() == makespan);
}

void cross_check(const WarpProblem& p) {
    INFO("W=" << p.warps << " rep=" << p.rep << " fairness=" << to_string(p.fairness)
              << " cuda=" << p.machine.units[0].capacity << " ldst=" << p.machine.units[1].capacity
              << " limit=" << p.machine.issue_limit.value_or(0) << " lat L=" << p.machine.classes[1].latency);
    const WarpExtreme ew = explicit_extreme(p, WarpGoal::worst), eb = explicit_extreme(p, WarpGoal::best);
    const WarpSmtOutcome sw = smt_worst_makespan(p, {}), sb = smt_best_makespan(p, {});
    REQUIRE(sw.makespan);
    REQUIRE(sb.makespan);
    CHECK(*sw.makespan == ew.makespan);
    CHECK(*sb.makespan == eb.makespan);
    check_schedule(p, ew.issues, ew.makespan);
    check_schedule(p, eb.issues, eb.makespan);
    check_schedule(p, sw.issues, *sw.makespan);
    check_schedule(p, sb.issues, *sb.makespan);
}

// The W <= 6, rep <= 4 grid (or the part of it with warps and repetitions in the given
// ranges), split into test cases so that ctest -j2 runs them side by side; bench/warp/grid
// times every instance (bench/RESULTS.md, warp).
void cross_check_grid(WarpFairness f, const FermiUnits& u, int min_w = 1, int max_w = 6, int min_r = 1, int max_r = 4) {
    for (int w = min_w; w <= max_w; ++w)
        for (int r = min_r; r <= max_r; ++r) cross_check(tr_problem(w, r, f, u));
}

FermiUnits wide_units() {  // two LD/ST per cycle, one CUDA
    FermiUnits u;
    u.cuda = 1;
    u.ldst = 2;
    return u;
}

FermiUnits one_issue_slot() {  // a single issue slot per cycle over both units
    FermiUnits u;
    u.issue_limit = 1;
    return u;
}

FermiUnits slow_loads() {  // loads take 3 cycles before the warp may go on
    FermiUnits u;
    u.latency_l = 3;
    return u;
}

}  // namespace

TEST_CASE("the TR's figures: 64 threads make 14/22/30 cycles worst, 13 best for rep 1", "[warp]") {
    const int fig[] = {14, 22, 30};  // Fig. 3(a), 4, 5
    for (int rep = 1; rep <= 3; ++rep) {
        const WarpProblem p = tr_problem(warps_for_threads(64, 16), rep);
        CHECK(explicit_extreme(p, WarpGoal::worst).makespan == fig[rep - 1]);
        CHECK(finishing_time_conjecture(p.warps, rep) == fig[rep - 1]);
    }
    CHECK(explicit_extreme(tr_problem(4, 1), WarpGoal::best).makespan == 13);  // Fig. 3(b)
}

TEST_CASE("explicit and SMT engines agree: W <= 6, rep <= 4, subblock fairness", "[warp][crosscheck][slow]") {
    cross_check_grid(WarpFairness::subblock, {});
}

TEST_CASE("explicit and SMT engines agree: W <= 6, rep <= 4, strict fairness", "[warp][crosscheck][slow]") {
    cross_check_grid(WarpFairness::strict, {});
}

TEST_CASE("explicit and SMT engines agree: W <= 6, rep <= 4, no fairness", "[warp][crosscheck][slow]") {
    cross_check_grid(WarpFairness::none, {});
}

TEST_CASE("explicit and SMT engines agree: W <= 6, rep <= 4, wide LD/ST, and one issue slot for W <= 4",
          "[warp][crosscheck][slow]") {
    cross_check_grid(WarpFairness::subblock, wide_units());
    cross_check_grid(WarpFairness::subblock, one_issue_slot(), 1, 4);
}

TEST_CASE("explicit and SMT engines agree: one issue slot, W = 5 with rep <= 4 and W = 6 with rep <= 3",
          "[warp][crosscheck][slow]") {
    cross_check_grid(WarpFairness::subblock, one_issue_slot(), 5, 5);
    cross_check_grid(WarpFairness::subblock, one_issue_slot(), 6, 6, 1, 3);
}

// The slowest point of the grid, about 20 s alone (bench/RESULTS.md, warp).
TEST_CASE("explicit and SMT engines agree: one issue slot, W = 6, rep = 4", "[warp][crosscheck][slow]") {
    cross_check(tr_problem(6, 4, WarpFairness::subblock, one_issue_slot()));
}

TEST_CASE("explicit and SMT engines agree: W <= 6, rep <= 4, 3-cycle loads, subblock fairness",
          "[warp][crosscheck][slow]") {
    cross_check_grid(WarpFairness::subblock, slow_loads());
}

TEST_CASE("explicit and SMT engines agree: W <= 6, rep <= 4, 3-cycle loads, no fairness", "[warp][crosscheck][slow]") {
    cross_check_grid(WarpFairness::none, slow_loads());
}

TEST_CASE("count vectors lose nothing: explicit engine equals a per-warp brute force", "[warp]") {
    std::vector<WarpProblem> cases;
    for (auto f : {WarpFairness::subblock, WarpFairness::strict, WarpFairness::none})
        for (int w = 1; w <= 3; ++w)
            for (int r = 1; r <= 3; ++r) cases.push_back(tr_problem(w, r, f));
    for (const FermiUnits& u : {wide_units(), one_issue_slot(), slow_loads()})
        cases.push_back(tr_problem(3, 2, WarpFairness::subblock, u));
    cases.push_back(tr_problem(3, 2, WarpFairness::none, slow_loads()));
    for (const auto& p : cases) {
        INFO("W=" << p.warps << " rep=" << p.rep << " fairness=" << to_string(p.fairness));
        CHECK(explicit_extreme(p, WarpGoal::worst).makespan == BruteForce(p, true).run());
        CHECK(explicit_extreme(p, WarpGoal::best).makespan == BruteForce(p, false).run());
    }
}

TEST_CASE("the schedule checker rejects idle units, unfair choices and program-order breaks", "[warp]") {
    const WarpProblem p = tr_problem(2, 1);
    CHECK(warp_schedule_violation(p, {{"CLLCS...", "C..L.LCS"}}) == "");
    CHECK_THAT(warp_schedule_violation(p, {{"CLLCS...", "C..LLCS."}}), Catch::Contains("over capacity"));
    CHECK_THAT(warp_schedule_violation(p, {{"CLLCS....", "C...LLCS."}}), Catch::Contains("not work-conserving"));
    CHECK_THAT(warp_schedule_violation(p, {{"CLCLS...", "C..L.LCS"}}), Catch::Contains("out of program order"));
    // Cycle 5: warp 1's STORE beats warp 2's second LOAD. Same level under the subblock
    // reading (epilogue at level rep), a later level under strict fairness (rep + 1).
    const WarpProblem strict = tr_problem(2, 1, WarpFairness::strict);
    CHECK_THAT(warp_schedule_violation(strict, {{"CLLCS...", "C..L.LCS"}}), Catch::Contains("later sub-block"));
    CHECK_THAT(warp_schedule_violation(p, {{"CLLCS..", "C..L.LC"}}), Catch::Contains("does not finish"));
}

TEST_CASE("an SMT timeout is unknown with a proved bound, never a makespan", "[warp]") {
    SolverOptions o;
    o.timeout = std::chrono::milliseconds(1);
    const WarpSmtOutcome w = smt_worst_makespan(tr_problem(6, 4), o);
    CHECK(!w.makespan);
    CHECK(w.last.answer == Answer::unknown);
    CHECK(w.incumbent >= 1);
}

TEST_CASE("warp TOML: the Fermi case equals the built-in TR model, unknown keys are located", "[warp][toml]") {
    const WarpSpec spec = load_warp_spec_file(test::source_path("cases/raravi2010/fermi.toml"));
    CHECK(is_tr_program(spec.machine, spec.program));
    WarpProblem p = tr_problem(5, 2);
    p.machine = spec.machine;
    p.program = spec.program;
    CHECK(explicit_extreme(p, WarpGoal::worst).makespan ==
          explicit_extreme(tr_problem(5, 2), WarpGoal::worst).makespan);

    const std::string bad =
        "[[unit]]\nname = \"u\"\ncapacity = 1\n[[class]]\nletter = \"C\"\nunit = \"u\"\ncolour = 3\n"
        "[program]\nbody = [\"C\"]\n";
    try {
        load_warp_spec_text(bad, "bad.toml");
        FAIL("no error");
    } catch (const InputError& e) {
        CHECK(std::string(e.what()).rfind("bad.toml:7:1: unknown key 'colour'", 0) == 0);
    }
    CHECK_THROWS_AS(
        load_warp_spec_text("[[unit]]\nname = \"u\"\ncapacity = 1\n[[class]]\nletter = \"C\"\nunit = \"v\"\n"
                            "[program]\nbody = [\"C\"]\n",
                            "t.toml"),
        InputError);
}

TEST_CASE("gpuwcrt warp: JSON, verdicts and exit codes", "[warp][cli]") {
    auto r = test::run_cli({"warp", "--threads", "64", "--rep", "1", "--json"});
    REQUIRE(r.exit_code == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["threads"] == 64);
    CHECK(j["warps"] == 4);
    CHECK(j["ft"] == 14);
    CHECK(j["worst"] == 14);
    CHECK(j["best"] == 13);
    CHECK(j["verdict"] == "holds (tight)");
    CHECK(j["schedule"].size() == 4);
    CHECK(j["schedule"][0].size() == 14);

    // One warp: a sub-block costs 3 cycles, FT charges 2 per repetition.
    r = test::run_cli({"warp", "--threads", "16", "--rep", "3", "--schedule"});  // opt-in
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.out, Catch::Contains("refuted (worst case exceeds FT by 2)"));
    CHECK_THAT(r.out, Catch::Contains("Clock cycle"));

    r = test::run_cli({"warp", "--warps", "8", "--rep", "4", "--engine", "smt", "--timeout", "1"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.out, Catch::Contains("verdict              unknown"));

    r = test::run_cli({"warp", "--threads", "64", "--program", test::source_path("tests/no-such.toml")});
    CHECK(r.exit_code == 3);
}

TEST_CASE("gpuwcrt warp-sweep: CSV rows for every point", "[warp][cli]") {
    const auto r = test::run_cli({"warp-sweep", "--threads", "16:48:16", "--rep", "1:2", "--csv"});
    CHECK(r.exit_code == 0);  // completed: the refuted single-warp point is a result (test_warp_cli: exit codes)
    CHECK_THAT(r.out, Catch::StartsWith("threads,warps,rep,FT,worst,best,verdict\n"));
    CHECK_THAT(r.out, Catch::Contains("48,3,2,17,17,16,\"holds (tight)\""));
    CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 7);
}
