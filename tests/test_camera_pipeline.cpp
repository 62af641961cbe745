// The camera-perception pipeline generator (model/generate/camera_pipeline.hpp, bench/camera/):
// every workload is valid on the TX2 and has the shapes the family promises, a seed means one
// workload, and each variant varies exactly what it claims.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "model/generate/camera_pipeline.hpp"
#include "model/io/load_toml.hpp"
#include "model/io/write_toml.hpp"
#include "support.hpp"
#include "sim/simulate.hpp"

using namespace gpuwcrt;

namespace {

bool hundredths(const Time& t) { return denominator(Time(t * 100)) == 1; }

}  // namespace

TEST_CASE("camera pipelines: valid TX2 workloads with the family's shapes") {
    const Platform tx2;
    for (int streams : {1, 3, 8})
        for (int kernels : {1, 5, 10})
            for (std::uint64_t seed = 1; seed <= 20; ++seed) {
                CameraSpec spec;
                spec.streams = streams;
                spec.kernels = kernels;
                const Workload w = camera_pipeline(spec, seed);
                INFO("S=" << streams << " K=" << kernels << " seed " << seed);
                REQUIRE(w.streams.size() == static_cast<std::size_t>(streams));
                REQUIRE(w.ops.size() == static_cast<std::size_t>(streams * (kernels + 2)));
                CHECK(w.time_unit == "ms");
                CHECK(w.platform.sms == 2);
                for (int s = 0; s < streams; ++s) {
                    CHECK(w.streams[s].priority == (s == 0 ? Priority::high : Priority::low));
                    const std::vector<int> ops = w.stream_ops(s);
                    REQUIRE(ops.size() == static_cast<std::size_t>(kernels + 2));
                    CHECK(!w.ops[ops.front()].is_kernel());
                    CHECK(!w.ops[ops.back()].is_kernel());
                    for (std::size_t i = 1; i + 1 < ops.size(); ++i) CHECK(w.ops[ops[i]].is_kernel());
                }
                for (const Operation& op : w.ops) {
                    CHECK(op.time.is_point());
                    CHECK(hundredths(op.time.hi));
                    if (!op.is_kernel()) {
                        CHECK(op.time.hi >= Time(2, 100));
                        CHECK(op.time.hi <= Time(1));
                        continue;
                    }
                    CHECK(op.blocks >= 1);
                    CHECK(op.blocks <= 256);
                    CHECK(op.threads >= 64);
                    CHECK(op.threads <= 1024);
                    CHECK(op.registers >= 16);
                    CHECK(op.registers <= 64);
                    CHECK(op.shared_mem >= 0);
                    CHECK(op.shared_mem <= 48 * 1024);
                    CHECK(op.time.hi >= Time(2, 100));
                    CHECK(op.time.hi <= Time(6, 10));
                    CHECK(SmUsage{}.fits(op.demand(), tx2));  // one block alone fits an SM
                }
                // The written file loads back to the same operations.
                const Workload back = load_workload_text(workload_to_toml(w), "camera.toml");
                REQUIRE(back.ops.size() == w.ops.size());
                for (std::size_t i = 0; i < w.ops.size(); ++i) {
                    CHECK(back.ops[i].name == w.ops[i].name);
                    CHECK(back.ops[i].blocks == w.ops[i].blocks);
                    CHECK(back.ops[i].time.hi == w.ops[i].time.hi);
                }
            }
}

TEST_CASE("camera pipelines: the grids span small and large layers, the 3x8 family about a thousand blocks") {
    CameraSpec spec;  // 3 streams x 8 kernels
    std::int64_t smallest = 1000, largest = 0, total = 0;
    int with_shared = 0, kernels = 0;
    for (std::uint64_t seed = 1; seed <= 50; ++seed)
        for (const Operation& op : camera_pipeline(spec, seed).ops) {
            if (!op.is_kernel()) continue;
            ++kernels;
            smallest = std::min(smallest, op.blocks);
            largest = std::max(largest, op.blocks);
            total += op.blocks;
            with_shared += op.shared_mem > 0;
        }
    CHECK(smallest == 1);
    CHECK(largest > 200);
    CHECK(total / 50 > 600);  // a measured 3x8 pipeline had 1143 blocks
    CHECK(total / 50 < 2000);
    CHECK(with_shared > kernels / 2);
    CHECK(with_shared < kernels);
}

TEST_CASE("camera pipelines: a seed means one workload") {
    CameraSpec spec;
    spec.streams = 4;
    spec.kernels = 10;
    const std::string a = workload_to_toml(camera_pipeline(spec, 42));
    CHECK(a == workload_to_toml(camera_pipeline(spec, 42)));
    CHECK(a != workload_to_toml(camera_pipeline(spec, 43)));
}

TEST_CASE("camera pipelines: fixed, ranged and jitter variants differ only in what they claim") {
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        CameraSpec spec;
        const Workload fixed = camera_pipeline(spec, seed);
        spec.ranges = true;
        const Workload ranged = camera_pipeline(spec, seed);
        spec.ranges = false;
        spec.jitter = Time(3, 2);
        const Workload jitter = camera_pipeline(spec, seed);
        REQUIRE(ranged.ops.size() == fixed.ops.size());
        REQUIRE(jitter.ops.size() == fixed.ops.size());
        for (std::size_t i = 0; i < fixed.ops.size(); ++i) {
            const Operation &f = fixed.ops[i], &r = ranged.ops[i], &j = jitter.ops[i];
            INFO(f.name << " seed " << seed);
            CHECK(r.blocks == f.blocks);
            CHECK(r.threads == f.threads);
            CHECK(r.shared_mem == f.shared_mem);
            CHECK(r.registers == f.registers);
            CHECK(r.time.hi == f.time.hi);
            CHECK(r.time.lo == (f.is_kernel() ? f.time.hi * Time(4, 5) : f.time.hi));
            CHECK(j.time.lo == f.time.lo);
            CHECK(j.time.hi == f.time.hi);
            const bool first = f.position == 0;
            for (const Operation* op : {&f, &r, &j})
                CHECK(op->issue.kind == (first ? IssueSpec::Kind::at : IssueSpec::Kind::with_previous));
            if (first) {
                CHECK(f.issue.at.lo == 0);
                CHECK(f.issue.at.hi == 0);
                CHECK(r.issue.at.hi == 0);
                CHECK(j.issue.at.lo == 0);
                CHECK(j.issue.at.hi == Time(3, 2));
            }
        }
        // The simulator runs every variant (at the upper ends and window starts, docs/theory/semantics.md §5).
        CHECK(simulate(ranged).ops.size() == ranged.ops.size());
        CHECK(simulate(jitter).ops.size() == jitter.ops.size());
    }
}

TEST_CASE("camera pipelines: a spec outside the limits is refused") {
    CameraSpec spec;
    spec.streams = 0;
    CHECK_THROWS_AS(camera_pipeline(spec, 1), std::invalid_argument);
    spec.streams = camera_max_streams + 1;
    CHECK_THROWS_AS(camera_pipeline(spec, 1), std::invalid_argument);
    spec.streams = 2;
    spec.kernels = 0;
    CHECK_THROWS_AS(camera_pipeline(spec, 1), std::invalid_argument);
    spec.kernels = camera_max_kernels + 1;
    CHECK_THROWS_AS(camera_pipeline(spec, 1), std::invalid_argument);
    spec.kernels = 2;
    spec.jitter = -1;
    CHECK_THROWS_AS(camera_pipeline(spec, 1), std::invalid_argument);
}

TEST_CASE("the newcomer's pipeline of bench/camera: 18 operations, 1285 blocks, three variants as stated") {
    const Workload fixed = load_workload_file(test::source_path("bench/camera/newcomer-fixed.toml"));
    const Workload ranged = load_workload_file(test::source_path("bench/camera/newcomer-ranged.toml"));
    const Workload window = load_workload_file(test::source_path("bench/camera/newcomer-window.toml"));
    REQUIRE(fixed.streams.size() == 3);
    CHECK(fixed.streams[0].name == "camera");
    CHECK(fixed.streams[0].priority == Priority::high);
    CHECK(fixed.streams[1].priority == Priority::low);
    CHECK(fixed.streams[2].priority == Priority::low);
    REQUIRE(fixed.ops.size() == 18);
    CHECK(fixed.total_blocks() == 1285);
    for (int s = 0; s < 3; ++s) {
        const std::vector<int> ops = fixed.stream_ops(s);
        REQUIRE(ops.size() == 6);
        CHECK(!fixed.ops[ops.front()].is_kernel());
        CHECK(!fixed.ops[ops.back()].is_kernel());
    }
    for (const Workload* w : {&ranged, &window}) REQUIRE(w->ops.size() == fixed.ops.size());
    int windows = 0;
    for (std::size_t i = 0; i < fixed.ops.size(); ++i) {
        const Operation &f = fixed.ops[i], &r = ranged.ops[i], &j = window.ops[i];
        INFO(f.name);
        CHECK(f.time.is_point());
        CHECK(f.issue.at.is_point());
        if (f.is_kernel()) {
            CHECK(f.blocks >= 1);
            CHECK(f.blocks <= 300);
            CHECK(f.threads >= 128);
            CHECK(f.threads <= 1024);
        }
        CHECK(r.time.hi == f.time.hi);
        CHECK(r.time.lo == (f.is_kernel() ? f.time.hi * Time(4, 5) : f.time.hi));
        CHECK(r.issue.at.hi == f.issue.at.hi);
        CHECK(j.time.lo == f.time.lo);
        CHECK(j.time.hi == f.time.hi);
        if (!j.issue.at.is_point()) {
            ++windows;
            CHECK(j.name == "cam_in");
            CHECK(j.issue.at.lo == 0);
            CHECK(j.issue.at.hi == 1);
        }
    }
    CHECK(windows == 1);
}
