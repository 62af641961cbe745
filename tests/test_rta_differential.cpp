// The thesis RTA against the simulator (docs/theory/semantics.md §7): equal inside the exactness scope for every
// launch order (release times included); outside it only an approximation that can
// under-estimate, and the CLI says so.
#include <catch2/catch.hpp>

#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "bounds/rta/rta_workload.hpp"
#include "sim/simulate.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

struct RandomKernel {
    std::int64_t blocks, threads, shared_mem = 0;
    Time c, issue;
};

Time random_c(std::mt19937& rng) {
    const int num = std::uniform_int_distribution<int>(1, 12)(rng);
    return test::fraction(num, std::uniform_int_distribution<int>(1, 4)(rng));
}

// TOML text, so that a workload found here can be handed to the CLI (and read by a person).
std::string to_toml(const std::vector<RandomKernel>& ks, int sms) {
    std::ostringstream t;
    t << "[platform]\nsms = " << sms << "\n";
    for (std::size_t i = 0; i < ks.size(); ++i)
        t << "\n[[kernel]]\nname = \"k" << i << "\"\nblocks = " << ks[i].blocks << "\nthreads = " << ks[i].threads
          << "\nshared_mem = " << ks[i].shared_mem << "\nblock_time = \"" << exact_string(ks[i].c) << "\"\nissue = \""
          << exact_string(ks[i].issue) << "\"\n";
    return t.str();
}

// Tie-break ranks from a random permutation (Scenario::rank); the simulator and
// rta_launch_order both keep issue times first.
std::vector<long> random_rank(std::size_t n, std::mt19937& rng) {
    std::vector<long> rank(n);
    for (std::size_t i = 0; i < n; ++i) rank[i] = static_cast<long>(i);
    std::shuffle(rank.begin(), rank.end(), rng);
    return rank;
}

// "" when RTA and simulation agree on every kernel for this order, else what differs.
std::string compare_with_simulation(const Workload& w, const std::vector<long>& rank) {
    Scenario sc;
    sc.rank = rank;
    const Schedule s = simulate(w, sc);
    const RtaOutcome r = rta(w, rta_launch_order(w, rank));
    std::ostringstream diff;
    if (r.order != s.launch_order) diff << "launch order differs; ";
    for (std::size_t i = 0; i < r.order.size(); ++i)
        if (r.finish[i] != s.ops[r.order[i]].finish)
            diff << w.ops[r.order[i]].name << ": rta " << r.finish[i] << " sim " << s.ops[r.order[i]].finish << "; ";
    return diff.str();
}

}  // namespace

TEST_CASE("inside the thesis scope RTA(order) equals simulate(order), release times included", "[rta][sim]") {
    std::mt19937 rng(20190704);
    const std::int64_t sizes[] = {128, 256, 512, 1024};
    int workloads = 0, comparisons = 0, closed_forms = 0, with_releases = 0;
    for (; workloads < 2000; ++workloads) {
        const int n = std::uniform_int_distribution<int>(1, 10)(rng);
        const std::int64_t b = sizes[rng() % 4];
        const int sms = std::uniform_int_distribution<int>(1, 3)(rng);
        const bool equal_c = rng() % 4 == 0, common_release = rng() % 3 == 0;
        const Time c0 = random_c(rng);
        std::vector<RandomKernel> ks;
        for (int i = 0; i < n; ++i) {
            RandomKernel k{
                std::uniform_int_distribution<std::int64_t>(1, 20)(rng), b, 0, equal_c ? c0 : random_c(rng),
                common_release ? Time(0) : test::fraction(std::uniform_int_distribution<int>(0, 12)(rng), 2)};
            ks.push_back(k);
        }
        const std::string toml = to_toml(ks, sms);
        const Workload w = test::workload_from(toml);
        INFO(toml);
        REQUIRE(rta_scope_reasons(w).empty());
        closed_forms += rta(w, rta_launch_order(w, {})).closed_form;
        with_releases += !common_release;
        REQUIRE(compare_with_simulation(w, {}) == "");  // file order
        ++comparisons;
        for (int o = 0; o < 3; ++o, ++comparisons)
            REQUIRE(compare_with_simulation(w, random_rank(w.ops.size(), rng)) == "");
    }
    CHECK(comparisons == 8000);
    CHECK(closed_forms > 100);    // the closed-form path was exercised too
    CHECK(with_releases > 1000);  // and the release-time extension
}

TEST_CASE("outside the scope the RTA can under-estimate, and `gpuwcrt rta` labels it approximation",
          "[rta][sim][cli]") {
    std::mt19937 rng(3141);
    struct Kind {
        const char* name;
        const char* reason;  // the words the CLI must name
        std::int64_t sizes[2];
        bool shared;
    };
    const Kind kinds[] = {{"mixed 768+512", "mixed block sizes", {768, 512}, false},
                          {"mixed 1024+256", "mixed block sizes", {1024, 256}, false},
                          {"shared memory", "shared memory", {512, 512}, true}};
    for (const Kind& kind : kinds) {
        int under = 0, tried = 0;
        for (; tried < 400 && under < 3; ++tried) {
            const int n = std::uniform_int_distribution<int>(2, 6)(rng);
            std::vector<RandomKernel> ks;
            for (int i = 0; i < n; ++i)
                ks.push_back({std::uniform_int_distribution<std::int64_t>(1, 10)(rng), kind.sizes[rng() % 2],
                              kind.shared ? std::int64_t(8192) * std::uniform_int_distribution<int>(0, 6)(rng) : 0,
                              random_c(rng), Time(0)});
            const std::string toml = to_toml(ks, 2);
            const Workload w = test::workload_from(toml);
            const RtaOutcome r = rta(w, rta_launch_order(w, {}));
            const Schedule s = simulate(w, {});
            bool below = false;
            for (std::size_t i = 0; i < r.order.size(); ++i) below |= r.finish[i] < s.ops[r.order[i]].finish;
            if (!below) continue;
            ++under;
            INFO(kind.name << ": RTA under-estimates\n" << toml);
            REQUIRE_FALSE(r.exact());
            const std::string path = test::temp_dir() + "/under.toml";
            std::ofstream(path) << toml;
            const auto text = test::run_cli({"rta", path});
            REQUIRE(text.exit_code == 0);
            CHECK(text.out.find("scope: approximation (outside the thesis' assumptions):\n  - ") != std::string::npos);
            CHECK(text.out.find(kind.reason) != std::string::npos);
            CHECK(text.out.find("scope: exact") == std::string::npos);
            const auto json = test::run_cli({"rta", path, "--json"});
            REQUIRE(json.exit_code == 0);
            CHECK(nlohmann::json::parse(json.out)["scope"] == "approximation");
        }
        INFO(kind.name << ": " << tried << " workloads tried");
        CHECK(under == 3);
    }
}
