// The SMT engine on the documented examples (the full example of docs/reference/input-format.md, with its interval and
// window fixed to one value) and the fast imported examiner configs: equal to enumeration,
// every witness replayed. The slower configs are listed in bench/RESULTS.md ("wcrt").
#include <catch2/catch.hpp>

#include "encode/block/block_problem.hpp"
#include "model/io/examiner_config.hpp"
#include "model/io/load_toml.hpp"
#include "sim/simulate.hpp"
#include "solver/block/enumerate/enumerate.hpp"
#include "solver/block/smt/wcrt_smt.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

void smt_equals_enumeration(const Workload& w) {
    const EnumerationResult reference = enumerate_wcrt(w, EngineOptions{}, Budget{});
    REQUIRE(reference.complete);
    const BlockProblem p = make_block_problem(w);
    EngineStats stats;
    for (std::size_t op = 0; op < w.ops.size(); ++op) {
        INFO("operation " << w.ops[op].name);
        const WcrtAnswer a = smt_maximise(w, p, static_cast<int>(op), EngineOptions{}, Budget{}, stats);
        REQUIRE(a.status == WcrtStatus::exact);
        CHECK(exact_string(*a.lower) == exact_string(*reference.wcrt[op].lower));
        const Schedule s = simulate(w, witness_scenario(w, *a.witness));
        CHECK(s.response(static_cast<int>(op)) == *a.lower);
    }
}

}  // namespace

TEST_CASE("README full example (copies, high priority, NULL stream): SMT equals enumeration",
          "[wcrt][smt][cases][slow]") {
    const Workload w = load_workload_file(test::source_path("tests/data/smt/readme_full_example_points.toml"));
    const BlockProblem p = make_block_problem(w);
    REQUIRE(p.has_copies);
    REQUIRE(p.has_priorities);
    REQUIRE(p.has_null);
    smt_equals_enumeration(w);
}

TEST_CASE("examiner multikernel examples: SMT equals enumeration", "[wcrt][smt][cases][examiner]") {
    for (const char* name : {"multikernel_example", "multikernel_delay_example"}) {
        INFO(name);
        const ExaminerImport x =
            import_examiner_file(test::source_path(std::string("tests/data/examiner-configs/") + name + ".json"), {});
        smt_equals_enumeration(x.workload);
    }
}
