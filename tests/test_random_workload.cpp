// The random workload generator: its features appear when asked, the workloads are valid and
// simulate, and a spec without features draws the same workloads as before they existed.
#include <catch2/catch.hpp>

#include "model/generate/pipeline_workload.hpp"
#include "model/generate/random_workload.hpp"
#include "sim/simulate.hpp"

#include <sstream>

using namespace gpuwcrt;

TEST_CASE("random workloads with every feature are valid, simulate, and use each feature") {
    RandomWorkloadSpec spec;
    spec.kernels = 6;
    spec.streams = 3;
    spec.sms = 3;
    spec.copy_engines = 2;
    spec.registers = {0, 16, 32};
    spec.shared_kib = {0, 8, 24};
    spec.copy_percent = 25;
    spec.high_priority_streams = 1;
    spec.null_stream = true;
    spec.interval_percent = 30;
    spec.window_percent = 30;
    spec.after_idle_percent = 30;
    spec.staggered_issue = true;
    int copies = 0, intervals = 0, windows = 0, idle = 0, regs = 0;
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
        const Workload w = random_workload(spec, seed);
        REQUIRE(w.platform.sms == 3);
        REQUIRE(w.streams.front().priority == Priority::high);
        REQUIRE(w.null_stream() == 2);
        for (const Operation& op : w.ops) {
            copies += !op.is_kernel();
            intervals += !op.time.is_point();
            windows += op.issue.kind == IssueSpec::Kind::at && !op.issue.at.is_point();
            idle += op.issue.kind == IssueSpec::Kind::after_stream_idle;
            regs += op.registers > 0;
        }
        const Schedule s = simulate(w);
        REQUIRE(s.ops.size() == w.ops.size());
    }
    CHECK(copies > 100);
    CHECK(intervals > 100);
    CHECK(windows > 50);
    CHECK(idle > 50);
    CHECK(regs > 100);
}

TEST_CASE("idle ties: after_stream_idle first in a stream too, followed by an issue the host reaches late") {
    RandomWorkloadSpec spec;
    spec.kernels = 5;
    spec.streams = 2;
    spec.staggered_issue = true;
    spec.idle_tie_percent = 60;
    int first_idle = 0, late = 0, with_idle = 0;
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
        const Workload w = random_workload(spec, seed);
        const Schedule s = simulate(w);
        for (std::size_t i = 0; i < w.ops.size(); ++i) {
            const Operation& op = w.ops[i];
            first_idle += op.position == 0 && op.issue.kind == IssueSpec::Kind::after_stream_idle;
            late += op.issue.kind == IssueSpec::Kind::at && s.ops[i].issue > op.issue.at.hi;
            with_idle += op.issue.kind == IssueSpec::Kind::with_previous;
        }
    }
    CHECK(first_idle > 50);
    CHECK(late > 30);  // issued after its `issue`: when the host got there (docs/theory/semantics.md §3)
    CHECK(with_idle > 50);
}

TEST_CASE("a spec without the new features draws the workloads it drew before them") {
    // Printed by the generator as it was before the feature fields existed (commit 6072562),
    // for this spec and seeds 7 and 8: name, stream, blocks, threads, shared_mem, C, issue.
    const char* expected =
        "K1 0 4 128 0 1 1/2\nK2 1 1 1024 0 4 0\nK3 2 5 128 8192 1 1\nK4 0 6 512 8192 4 2\n"
        "K5 1 2 512 0 2 1/2\nK6 2 3 1024 0 4 1\nK1 0 2 256 0 5 0\nK2 1 1 768 0 2 2\n"
        "K3 2 1 1024 8192 4 1/2\nK4 0 4 512 0 1 1\nK5 1 6 128 8192 2 2\nK6 2 6 1024 8192 6 2\n";
    RandomWorkloadSpec spec;
    spec.staggered_issue = true;
    spec.kernels = 6;
    spec.streams = 3;
    spec.shared_kib = {0, 8};
    std::ostringstream out;
    for (std::uint64_t seed : {7, 8})
        for (const Operation& o : random_workload(spec, seed).ops)
            out << o.name << " " << o.stream << " " << o.blocks << " " << o.threads << " " << o.shared_mem << " "
                << o.time.hi << " " << o.issue.at.lo << "\n";
    CHECK(out.str() == expected);
}

TEST_CASE("pipeline workloads: 64 operations in 4 streams, copies, one high-priority stream") {
    const Workload w = pipeline_workload(PipelineSpec{}, 1);
    REQUIRE(w.ops.size() == 64);
    int kernels = 0;
    for (const Operation& op : w.ops) kernels += op.is_kernel();
    CHECK(kernels == 32);
    CHECK(w.streams.front().priority == Priority::high);
    CHECK(w.streams.back().priority == Priority::low);
    const Schedule s = simulate(w);
    for (std::size_t i = 0; i < w.ops.size(); ++i) CHECK(s.ops[i].finish > s.ops[i].issue);
    // Iteration 2 of every stream is released one period after iteration 1.
    CHECK(w.ops[4].issue.at.lo == Time(8));
}
