// Combining engines' answers (auto) and reading certify verdicts off them.
#include <catch2/catch.hpp>

#include "model/io/load_toml.hpp"
#include "bounds/answer.hpp"
#include "report/provenance.hpp"
#include "solver/block/enumerate/enumerate.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

Workload thesis_example() { return load_workload_file(std::string(GPUWCRT_SOURCE_DIR) + "/cases/thesis/example.toml"); }

}  // namespace

TEST_CASE("absorb keeps the largest lower bound and the smallest upper bound, exact when they meet") {
    const Workload w = thesis_example();
    const EnumerationResult e = enumerate_wcrt(w, EngineOptions{}, Budget{});
    REQUIRE(e.complete);
    const WcrtAnswer& truth = e.wcrt[0];
    REQUIRE(truth.lower);

    WcrtAnswer loose;  // what an abstraction might say: a weaker lower bound, a looser upper bound
    loose.op = 0;
    loose.upper = *truth.lower + 3;
    loose.unknown_reason = "gap";
    WcrtAnswer combined;
    combined.op = 0;
    absorb(w, combined, loose, Provenance::bounds);
    CHECK(combined.status == WcrtStatus::unknown);
    CHECK(combined.upper_by == Provenance::bounds);
    CHECK(!combined.lower);

    absorb(w, combined, truth, Provenance::exact);
    CHECK(combined.status == WcrtStatus::exact);
    CHECK(*combined.lower == *truth.lower);
    CHECK(*combined.upper == *truth.lower);
    CHECK(combined.lower_by == Provenance::exact);
    CHECK(combined.upper_by == Provenance::exact);
    CHECK(combined.unknown_reason.empty());

    absorb(w, combined, loose, Provenance::bounds);  // nothing to take from a weaker answer
    CHECK(combined.upper_by == Provenance::exact);
    CHECK(combined.status == WcrtStatus::exact);
}

TEST_CASE("absorb refuses a lower bound above a proven upper bound") {
    const Workload w = thesis_example();
    const EnumerationResult e = enumerate_wcrt(w, EngineOptions{}, Budget{});
    WcrtAnswer wrong;
    wrong.op = 0;
    wrong.upper = *e.wcrt[0].lower - 1;
    WcrtAnswer combined;
    combined.op = 0;
    absorb(w, combined, wrong, Provenance::bounds);
    CHECK_THROWS_AS(absorb(w, combined, e.wcrt[0], Provenance::exact), ReplayMismatch);
    try {
        absorb(w, combined, e.wcrt[0], Provenance::exact);
    } catch (const BoundsContradict& c) {
        CHECK(c.lower_by == Provenance::exact);
        CHECK(c.upper_by == Provenance::bounds);
        CHECK(contradiction_text(c).find("(lower bound by exact, upper bound by bounds)") != std::string::npos);
    }
}

TEST_CASE("verdicts: certified at or above the upper bound, refuted below the replayed response") {
    const Workload w = thesis_example();
    const EnumerationResult e = enumerate_wcrt(w, EngineOptions{}, Budget{});
    for (const WcrtAnswer& a : e.wcrt) {
        CHECK(verdict_from(w, a, *a.lower).verdict == Verdict::certified);
        const CertifyAnswer r = verdict_from(w, a, *a.lower - Time(1, 2));
        CHECK(r.verdict == Verdict::refuted);
        REQUIRE(r.counterexample);
        CHECK(*r.response == *a.lower);
    }
    WcrtAnswer open = e.wcrt[0];
    open.status = WcrtStatus::unknown;
    open.upper = *open.lower + 2;
    open.unknown_reason = "timeout";
    const CertifyAnswer u = verdict_from(w, open, *open.lower + 1);
    CHECK(u.verdict == Verdict::unknown);
    CHECK(u.unknown_reason == "timeout");
    open.upper_by = Provenance::bounds;
    const CertifyAnswer c = verdict_from(w, open, *open.lower + 2);
    CHECK(c.verdict == Verdict::certified);
    REQUIRE(c.upper);
    CHECK(*c.upper == *open.lower + 2);
    CHECK(c.upper_by == Provenance::bounds);
    CHECK(!c.busy_time_bound);
    open.upper_by = Provenance::busy_time;
    CHECK(provenance_text(open.upper_by) == "busy-time bound");  // certify's text and JSON name that argument
    const CertifyAnswer b = verdict_from(w, open, *open.lower + 2);
    REQUIRE(b.busy_time_bound);
    CHECK(*b.busy_time_bound == *open.lower + 2);
}

TEST_CASE("a witness whose SMs are not the fixed placement policy's is refused, whichever engine found it") {
    // Thesis example, 2 SMs: under first-fit every block goes to SM 0 while it fits there. The
    // witness of an "any SM" search moved to SM 1 is a scenario of `any`, not of first-fit.
    const Workload w = thesis_example();
    EngineOptions any;
    const EnumerationResult e = enumerate_wcrt(w, any, Budget{});
    REQUIRE(e.complete);
    EngineOptions ff;
    ff.policy = Policy::first_fit;
    const EnumerationResult f = enumerate_wcrt(w, ff, Budget{});
    REQUIRE(f.complete);
    for (const WcrtAnswer& a : f.wcrt) {
        REQUIRE(a.witness);
        CHECK_NOTHROW(require_policy_placement(w, *a.witness, Policy::first_fit));
        CHECK_NOTHROW(require_policy_placement(w, *a.witness, Policy::chooser));
    }
    int refused = 0;
    for (const WcrtAnswer& a : e.wcrt) {
        REQUIRE(a.witness);
        CHECK_NOTHROW(require_policy_placement(w, *a.witness, Policy::chooser));
        WitnessScenario moved = *a.witness;
        for (auto& sms : moved.sm)
            for (int& sm : sms) sm = 1 - sm;  // the mirror image: a scenario of any, never of first-fit
        try {
            require_policy_placement(w, moved, Policy::first_fit);
        } catch (const ReplayMismatch& m) {
            ++refused;
            CHECK(std::string(m.what()).find("placement policy first-fit") != std::string::npos);
        }
    }
    CHECK(refused == static_cast<int>(e.wcrt.size()));
}
