// The thesis RTA: closed form against Algorithm 2, the thesis' own values, every case's
// [[expect]] rta_finish, and what `gpuwcrt rta` prints.
#include <catch2/catch.hpp>

#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <toml++/toml.h>

#include "bounds/rta/rta.hpp"
#include "bounds/rta/rta_workload.hpp"
#include "sim/simulate.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

nlohmann::json rta_json(const std::vector<std::string>& args) {
    auto run = test::run_cli(args);
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    return nlohmann::json::parse(run.out);
}

}  // namespace

TEST_CASE("the closed form (thesis §3.6) equals Algorithm 2 on random equal-C inputs", "[rta]") {
    std::mt19937 rng(1906);
    for (int iter = 0; iter < 5000; ++iter) {
        const std::int64_t g_max = std::uniform_int_distribution<std::int64_t>(1, 32)(rng);
        const int num = std::uniform_int_distribution<int>(1, 20)(rng);
        const Time c = test::fraction(num, std::uniform_int_distribution<int>(1, 6)(rng));
        const Time r = test::fraction(std::uniform_int_distribution<int>(0, 9)(rng), 3);
        std::vector<RtaKernel> ks(std::uniform_int_distribution<int>(1, 30)(rng));
        // Small grids and multiples of g_max hit the edges (g_i = g_f, g_i − g_f ≡ 0 mod g_max).
        for (auto& k : ks)
            k = {r, c,
                 rng() % 3 ? std::uniform_int_distribution<std::int64_t>(1, 3 * g_max)(rng)
                           : g_max * std::uniform_int_distribution<std::int64_t>(1, 3)(rng)};
        REQUIRE(rta_closed_form_applies(ks));
        const auto closed = rta_closed_form(ks, g_max);
        REQUIRE(closed);
        REQUIRE(*closed == rta_algorithm2(ks, g_max));
    }
    CHECK_FALSE(rta_closed_form({{0, 1, 1}, {0, 2, 1}}, 8));  // different C
    CHECK_FALSE(rta_closed_form({{0, 1, 1}, {1, 1, 1}}, 8));  // different releases
}

TEST_CASE("the closed form is corrected where g_i - g_f is a multiple of g_max", "[rta][sim]") {
    // Thesis eq. 3.8/3.10 give K = 1, t_a = 2C, f = 3C for 16 blocks on 8 free slots; the
    // simulator runs them in two rounds.
    const Workload w = test::workload_from("[[kernel]]\nname = \"k\"\nblocks = 16\nthreads = 512\nblock_time = 1\n");
    const Time sim = simulate(w).ops[0].finish;
    CHECK(sim == 2);
    CHECK(rta_closed_form({{0, 1, 16}}, 8)->front() == sim);
    CHECK(rta_algorithm2({{0, 1, 16}}, 8).front() == sim);
}

TEST_CASE("release times: slots freed at or before a release are free for the released kernel", "[rta][sim]") {
    const Workload w = test::workload_from(
        "[[kernel]]\nname = \"a\"\nblocks = 8\nthreads = 512\nblock_time = 2\n"
        "[[kernel]]\nname = \"b\"\nblocks = 8\nthreads = 512\nblock_time = 1\nissue = 2\n"
        "[[kernel]]\nname = \"c\"\nblocks = 3\nthreads = 512\nblock_time = \"1/3\"\nissue = \"5/2\"\n");
    const Schedule s = simulate(w);
    const RtaOutcome r = rta(w, rta_launch_order(w, {}));
    REQUIRE(r.exact());
    CHECK_FALSE(r.closed_form);
    for (int k = 0; k < 3; ++k) CHECK(*r.finish_of(k) == s.ops[k].finish);
    // b takes all 8 slots a frees exactly at its release 2; c (released at 5/2) waits for b's at 3.
    CHECK(*r.finish_of(1) == 3);
    CHECK(*r.response_of(2) == Time(5, 6));
}

TEST_CASE("after_stream_idle on a stream's first operation is a release at the delay", "[rta][sim]") {
    const Workload w = test::workload_from(
        "[[kernel]]\nname = \"a\"\nblocks = 6\nthreads = 1024\nblock_time = 3\n"
        "[[kernel]]\nname = \"b\"\nblocks = 2\nthreads = 1024\nblock_time = 1\nafter_stream_idle = 2\n");
    const Schedule s = simulate(w);
    const RtaOutcome r = rta(w, rta_launch_order(w, {}));
    REQUIRE(r.exact());
    CHECK(r.release[1] == 2);
    for (int k = 0; k < 2; ++k) CHECK(*r.finish_of(k) == s.ops[k].finish);
}

TEST_CASE("every case's [[expect]] rta_finish holds", "[rta][cases]") {
    std::size_t checked = 0;
    for (const auto& f : test::workload_case_files()) {
        const Workload w = load_workload_file(f);
        for (const auto& e : w.expectations) {
            if (e.rta_finish.empty()) continue;
            INFO(f << " expectation at " << e.where.str() << ": " << e.note);
            const RtaOutcome r = rta(w, rta_launch_order(w, launch_ranks(w, e.order)));
            for (const auto& [name, t] : e.rta_finish)
                CHECK(exact_string(*r.finish_of(*w.find_op(name))) == exact_string(t));
            ++checked;
        }
    }
    CHECK(checked >= 6);  // the thesis example's four orders and both block analyses
}

TEST_CASE("gpuwcrt rta on the thesis example: §3.5 values, scope exact, --order", "[rta][cli]") {
    const std::string example = test::source_path("cases/thesis/example.toml");
    auto text = test::run_cli({"rta", example});
    REQUIRE(text.exit_code == 0);
    CHECK(text.out.find("scope: exact") != std::string::npos);
    CHECK(text.out.find("closed form") == std::string::npos);  // C differs between kernels
    // §3.5: "The completion times f = {4, 10, 12, 11} were explained".
    auto j = rta_json({"rta", example, "--json"});
    CHECK(j["scope"] == "exact");
    CHECK(j["reasons"].empty());
    CHECK(j["g_max"] == 8);
    std::vector<std::string> finish;
    for (const auto& op : j["operations"]) finish.push_back(op["finish"]);
    CHECK(finish == std::vector<std::string>{"4", "10", "12", "11"});
    // §4.2 scenario 1, order τ2 τ3 τ4 τ1: "f = {6, 12, 11, 10}".
    j = rta_json({"rta", example, "--order", "t2,t3,t4,t1", "--json"});
    finish.clear();
    for (const auto& op : j["operations"]) finish.push_back(std::string(op["name"]) + "=" + std::string(op["finish"]));
    CHECK(finish == std::vector<std::string>{"t2=6", "t3=12", "t4=11", "t1=10"});
    // --order is validated like simulate's.
    auto bad = test::run_cli({"rta", example, "--order", "t9"});
    CHECK(bad.exit_code == 3);
    CHECK(bad.err.find("unknown operation 't9'") != std::string::npos);
}

TEST_CASE("gpuwcrt rta reports completion and deadline (= period) for every kernel", "[rta][cli][sim]") {
    const std::string file = test::source_path("cases/thesis/block-analysis-1.toml");
    const Workload w = load_workload_file(file);
    const Schedule s = simulate(w);
    const auto j = rta_json({"rta", file, "--json"});
    REQUIRE(j["operations"].size() == w.ops.size());
    for (const auto& op : j["operations"]) {
        const int k = *w.find_op(op["name"]);
        INFO(w.ops[k].name);
        CHECK(op["finish"] == exact_string(s.ops[k].finish));
        CHECK(op["deadline"] == "15");
        CHECK(op["meets_deadline"] == (s.response(k) <= 15));
    }
    const auto text = test::run_cli({"rta", file});
    CHECK(text.out.find("met") != std::string::npos);
}

TEST_CASE("gpuwcrt rta says when it used the closed form", "[rta][cli]") {
    const std::string file = test::temp_dir() + "/equal.toml";
    std::ofstream(file) << "[[kernel]]\nname = \"a\"\nblocks = 9\nthreads = 256\nblock_time = 1.5\n"
                           "[[kernel]]\nname = \"b\"\nblocks = 16\nthreads = 256\nblock_time = 1.5\n";
    const auto text = test::run_cli({"rta", file});
    REQUIRE(text.exit_code == 0);
    CHECK(text.out.find("method: closed form") != std::string::npos);
    CHECK(text.out.find("scope: exact") != std::string::npos);
}

TEST_CASE("the scope check names each assumption a workload breaks", "[rta]") {
    const Workload w = test::workload_from(R"(
[[stream]]
name = "hi"
priority = "high"
[[stream]]
name = "n"
null = true
[[kernel]]
name = "a"
stream = "hi"
blocks = 2
threads = 768
block_time = [1, 2]
[[kernel]]
name = "b"
stream = "n"
blocks = 2
threads = 512
registers = 64
block_time = 1
[[copy]]
name = "c"
stream = "n"
duration = 1
)");
    const auto reasons = rta_scope_reasons(w);
    std::string all;
    for (const auto& r : reasons) all += r + "\n";
    INFO(all);
    for (const char* what : {"mixed block sizes", "does not divide", "register", "holds 2 operations", "high priority",
                             "NULL stream", "copies", "block_time of 'a' is the interval"})
        CHECK(all.find(what) != std::string::npos);
    CHECK(rta_scope_reasons(load_workload_file(test::source_path("cases/thesis/example.toml"))).empty());
}
