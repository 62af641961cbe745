// `gpuwcrt rta-check` (is the RTA max over orders a safe bound on the TX2?), and
// inside the thesis' scope the equality RTA max over orders = TX2 WCRT over all orders and
// SM placements.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include "bounds/rta/rta_scope.hpp"
#include "model/generate/random_workload.hpp"
#include "model/io/write_toml.hpp"
#include "sim/simulate.hpp"
#include "solver/block/enumerate/enumerate.hpp"
#include "solver/rta/max_over_orders.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {}  // namespace

TEST_CASE("inside the thesis scope RTA max over orders equals the TX2 WCRT over orders and placements",
          "[rta][orders][wcrt]") {
    // One block size dividing threads_per_sm, no shared memory, one kernel per stream: the scope
    // of docs/theory/semantics.md §7. Enumeration ranges over every launch order and every SM where a block fits.
    int workloads = 0, kernels = 0, staggered = 0;
    for (std::uint64_t seed = 1; workloads < static_cast<int>(test::seeded(500)); ++seed) {
        RandomWorkloadSpec spec;
        spec.kernels = 1 + static_cast<int>(seed % 4);
        spec.streams = spec.kernels;
        const std::int64_t sizes[] = {256, 512, 1024};
        spec.threads = {sizes[seed % 3]};
        spec.max_blocks = 3;
        spec.max_block_time = 4;
        spec.staggered_issue = seed % 3 == 0;
        const Workload w = random_workload(spec, seed);
        REQUIRE(rta_scope_reasons(w).empty());
        INFO(workload_to_toml(w, {}));
        const RtaMaxOverOrders r = rta_max_over_orders(w, Budget{});
        REQUIRE(r.complete);
        const EnumerationResult e = enumerate_wcrt(w, {}, Budget{});
        REQUIRE(e.complete);
        for (std::size_t i = 0; i < w.ops.size(); ++i) {
            REQUIRE(r.answers[i].exact());
            REQUIRE(e.wcrt[i].lower);
            REQUIRE(exact_string(*r.answers[i].exact()) == exact_string(*e.wcrt[i].lower));
            ++kernels;
        }
        staggered += spec.staggered_issue;
        ++workloads;
    }
    if (!test::sanitized) {
        CHECK(kernels > 1000);
        CHECK(staggered > 100);
    }
}

TEST_CASE("rta-check: the thesis example is safe for every kernel", "[rta][cli]") {
    const auto r = test::run_cli({"rta-check", test::source_path("cases/thesis/example.toml")});
    INFO(r.out << r.err);
    CHECK(r.exit_code == 0);
    CHECK(test::contains(r.out, "RTA scope: exact"));
    for (const char* k : {"t1 ", "t2 ", "t3 ", "t4 "}) CHECK(test::contains(r.out, k));
    CHECK(!test::contains(r.out, "unsafe"));
    CHECK(!test::contains(r.out, "unknown"));
}

TEST_CASE("rta-check: mixed block sizes are unsafe, and the counterexample replays", "[rta][cli]") {
    // (Amert Fig. 3 is unsafe too, docs/theory/rta/rta-soundness.md, but its enumeration takes a minute.)
    const std::string dir = test::temp_dir();
    const auto r = test::run_cli({"rta-check", test::source_path("cases/rta-soundness/mixed-block-sizes.toml"),
                                  "--json", "--counterexample", dir + "/cex.toml"});
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 1);
    const auto j = nlohmann::json::parse(r.out);
    int unsafe = 0;
    for (const auto& k : j["kernels"]) {
        if (k["verdict"] != "unsafe") continue;
        ++unsafe;
        // excess = TX2 response − RTA max, both exact strings
        const Time excess = *parse_time(k["excess"].get<std::string>());
        const Time tx2 = *parse_time(k["tx2_response"].get<std::string>());
        const Time rta = *parse_time(k["rta_max_over_orders"].get<std::string>());
        CHECK(excess > 0);
        CHECK(tx2 - rta == excess);
    }
    CHECK(unsafe >= 1);
    // The written scenario reproduces the first unsafe kernel's TX2 response.
    const Workload cex = load_workload_file(dir + "/cex.toml");
    REQUIRE(cex.scenario);
    const auto first =
        std::find_if(j["kernels"].begin(), j["kernels"].end(), [](const auto& k) { return k["verdict"] == "unsafe"; });
    const Schedule s = simulate(cex, scenario_for(cex, {}, std::nullopt));
    const auto op = cex.find_op((*first)["name"].get<std::string>());
    REQUIRE(op);
    CHECK(exact_string(s.response(*op)) == (*first)["tx2_response"].get<std::string>());
}

TEST_CASE("rta-check refuses block-time intervals like certify, and a bad --timeout", "[rta][cli]") {
    const std::string dir = test::temp_dir();
    std::ofstream(dir + "/iv.toml") << "[[kernel]]\nname = \"K\"\nblocks = 2\nthreads = 1024\nblock_time = [1, 2]\n";
    const auto r = test::run_cli({"rta-check", dir + "/iv.toml"});
    CHECK(r.exit_code == 3);
    CHECK(r.out.empty());
    const auto t = test::run_cli({"rta-check", test::source_path("cases/thesis/example.toml"), "--timeout", "0"});
    CHECK(t.exit_code == 3);
    CHECK(test::contains(t.err, "gpuwcrt: --timeout:"));
}

TEST_CASE("every rta-soundness case's wcrt expectation holds over all orders and placements", "[rta][cases][wcrt]") {
    std::size_t checked = 0;
    for (const auto& f : test::workload_case_files()) {
        if (f.find("rta-soundness") == std::string::npos) continue;
        const Workload w = load_workload_file(f);
        for (const auto& e : w.expectations) {
            if (e.wcrt.empty()) continue;
            INFO(f << " expectation at " << e.where.str() << ": " << e.note);
            const EnumerationResult all = enumerate_wcrt(w, {}, Budget{});
            REQUIRE(all.complete);
            for (const auto& [name, t] : e.wcrt)
                CHECK(exact_string(*all.wcrt[*w.find_op(name)].lower) == exact_string(t));
            // ... and exceeds the RTA maximised over orders: the case is a counterexample.
            const RtaMaxOverOrders m = rta_max_over_orders(w, Budget{});
            for (const auto& [name, t] : e.wcrt) CHECK(*m.answers[*w.find_op(name)].exact() < t);
            ++checked;
        }
    }
    CHECK(checked >= 2);
}

TEST_CASE("rta-falsify: the smallest shared-memory finding is a real under-estimation", "[rta][cli]") {
    const auto r =
        test::run_cli({"rta-falsify", "--reason", "shared-memory", "--kernels", "2", "--blocks", "3", "--json"});
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    const auto j = nlohmann::json::parse(r.out);
    REQUIRE(j["reasons"].size() == 1);
    const auto& reason = j["reasons"][0];
    CHECK(reason["complete"] == true);
    for (const char* key : {"smallest_fixed_order", "smallest_all_orders"}) {
        INFO(key);
        REQUIRE(!reason[key].is_null());
        const Workload w = test::workload_from(reason[key]["workload"].get<std::string>());
        const int op = *w.find_op(reason[key]["kernel"].get<std::string>());
        const Time tx2 = *parse_time(reason[key]["tx2"].get<std::string>());
        const Time rta = *parse_time(reason[key]["rta"].get<std::string>());
        CHECK(tx2 > rta);
        if (std::string(key) == "smallest_all_orders") {
            CHECK(exact_string(*enumerate_wcrt(w, {}, Budget{}).wcrt[op].lower) == exact_string(tx2));
            CHECK(exact_string(*rta_max_over_orders(w, Budget{}).answers[op].exact()) == exact_string(rta));
        } else {
            CHECK(exact_string(simulate(w, Scenario{}).response(op)) == exact_string(tx2));
        }
        // Smallest: no workload with fewer blocks in the grid under-estimates; one kernel of up
        // to 3 blocks cannot (2 blocks of 32 KiB fit per SM, 4 in all).
        CHECK(w.total_blocks() >= 2);
    }
}

TEST_CASE("rta-falsify: issue-window findings replay through their [scenario] and beat the RTA", "[rta][cli]") {
    const auto r =
        test::run_cli({"rta-falsify", "--reason", "issue-windows", "--kernels", "2", "--blocks", "4", "--json"});
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    const auto reason = nlohmann::json::parse(r.out)["reasons"][0];
    CHECK(reason["complete"] == true);
    for (const char* key : {"smallest_fixed_order", "smallest_all_orders", "largest_ratio_all_orders"}) {
        INFO(key);
        REQUIRE(!reason[key].is_null());
        const Workload w = test::workload_from(reason[key]["workload"].get<std::string>());
        REQUIRE(w.scenario);
        const int op = *w.find_op(reason[key]["kernel"].get<std::string>());
        const Time tx2 = *parse_time(reason[key]["tx2"].get<std::string>());
        const Time rta = *parse_time(reason[key]["rta"].get<std::string>());
        CHECK(tx2 > rta);
        // The TX2 value is a real schedule: the written [scenario] (issue instants inside the
        // windows, launch order, SMs) replays it in the simulator.
        CHECK(exact_string(simulate(w, scenario_for(w, {}, std::nullopt)).response(op)) == exact_string(tx2));
        if (std::string(key) != "smallest_fixed_order")
            CHECK(exact_string(*rta_max_over_orders(w, Budget{}).answers[op].exact()) == exact_string(rta));
    }
}

TEST_CASE("the issue-window case: the replayed responses exceed the RTA maximised over orders", "[rta][cases]") {
    const Workload w = load_workload_file(test::source_path("cases/rta-soundness/issue-windows.toml"));
    const RtaMaxOverOrders m = rta_max_over_orders(w, Budget{});
    REQUIRE(m.complete);
    std::size_t checked = 0;
    for (const auto& e : w.expectations) {
        Scenario sc = scenario_for(w, {}, std::nullopt);
        sc.rank = launch_ranks(w, e.order);
        const Schedule s = simulate(w, sc);
        for (const auto& [name, finish] : e.finish) {
            const int op = *w.find_op(name);
            if (s.response(op) > *m.answers[op].exact()) ++checked;
        }
    }
    CHECK(checked == 2);  // K2 in the file order, K1 with K2 launched first
}
