// unroll (model/frames/unroll.hpp): periodic and sporadic streams become one finite frame whose
// operations carry their origin and frame, with the release windows of docs/theory/semantics.md §9.
#include <catch2/catch.hpp>

#include "model/frames/frame_name.hpp"
#include "model/frames/unroll.hpp"
#include "sim/simulate.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

const SourceLocation unroll_here{"test", 0, 0};

std::string kernel_in(const std::string& name, const std::string& stream, const std::string& extra = "") {
    return "[[kernel]]\nname = \"" + name + "\"\nstream = \"" + stream +
           "\"\nblocks = 1\nthreads = 32\nblock_time = 1\n" + extra + "\n";
}

int index_of(const Unrolled& u, const std::string& name) {
    const auto i = u.workload.find_op(name);
    REQUIRE(i);
    return *i;
}

}  // namespace

TEST_CASE("unroll: frame k of an operation is NAME#k in its stream, with its release window", "[frames][unroll]") {
    const Workload w =
        test::workload_from("[[stream]]\nname = \"S\"\nperiod = 10\noffset = 2\njitter = 3\n" + kernel_in("A", "S") +
                            kernel_in("B", "S", "issue = [1, 2]") + kernel_in("C", "S"));
    const Unrolled u = unroll(w, Horizon::of_frames(3, unroll_here));
    REQUIRE(u.workload.ops.size() == 9);
    CHECK(u.frames == std::vector<std::int64_t>{3});
    CHECK_FALSE(u.workload.repeats());
    for (std::int64_t k = 0; k < 3; ++k) {
        INFO("frame " << k);
        const Time release = 2 + 10 * k;
        const Operation& a = u.workload.ops[index_of(u, "A#" + std::to_string(k))];
        const Operation& b = u.workload.ops[index_of(u, "B#" + std::to_string(k))];
        const Operation& c = u.workload.ops[index_of(u, "C#" + std::to_string(k))];
        // The first operation without `issue` is issued in the release window itself.
        CHECK(a.issue.kind == IssueSpec::Kind::at);
        CHECK(a.issue.at == TimeRange{release, release + 3});
        // issue = [1, 2] relative to the release: [O + kT + 1, O + kT + J + 2].
        CHECK(b.issue.at == TimeRange{release + 1, release + 3 + 2});
        CHECK(c.issue.kind == IssueSpec::Kind::with_previous);
        for (const Operation* op : {&a, &b, &c}) {
            CHECK(op->stream == 0);  // every frame in the one stream: its FIFO carries the backlog
            const FrameOrigin& f = u.origin[op - u.workload.ops.data()];
            CHECK(f.frame == k);
            CHECK(f.release == TimeRange{release, release + 3});
            CHECK(w.ops[f.op].name + "#" + std::to_string(k) == op->name);
        }
        // Frames follow each other in the stream's list.
        CHECK(a.position == 3 * k);
        CHECK(c.position == 3 * k + 2);
    }
}

TEST_CASE("unroll: operations of streams that run once keep their name, frame 0, release 0", "[frames][unroll]") {
    const Workload w = test::workload_from("[[stream]]\nname = \"S\"\nperiod = 4\n[[stream]]\nname = \"O\"\n" +
                                           kernel_in("A", "S") + kernel_in("X", "O", "issue = 5"));
    const Unrolled u = unroll(w, Horizon::of_frames(2, unroll_here));
    REQUIRE(u.workload.ops.size() == 3);
    const int x = index_of(u, "X");
    CHECK(u.origin[x].frame == 0);
    CHECK(u.origin[x].release == TimeRange{0, 0});
    CHECK(u.workload.ops[x].issue.at == TimeRange{5, 5});
    // Order: by the frame's earliest release, then file order: A#0 (0), X (0), A#1 (4).
    CHECK(u.workload.ops[0].name == "A#0");
    CHECK(u.workload.ops[1].name == "X");
    CHECK(u.workload.ops[2].name == "A#1");
}

TEST_CASE("unroll: a wait names the same frame's operation", "[frames][unroll]") {
    const Workload w = test::workload_from(
        "[[stream]]\nname = \"S\"\nperiod = 4\n[[stream]]\nname = \"R\"\n"
        "period = 4\noffset = 1\n" +
        kernel_in("A", "S", "wait = [\"B\"]") + kernel_in("B", "R"));
    const Unrolled u = unroll(w, Horizon::of_frames(3, unroll_here));
    for (int k = 0; k < 3; ++k) {
        const Operation& a = u.workload.ops[index_of(u, "A#" + std::to_string(k))];
        CHECK(a.wait == std::vector<int>{index_of(u, "B#" + std::to_string(k))});
    }
}

TEST_CASE("unroll: after_stream_idle in a frame carries the frame's release", "[frames][unroll][sim]") {
    // One SM of 1024 threads; S: a kernel of 3 at the release, then one after the idle stream + 1.
    // Frame 0 (release 0): K 0-3, L issued at max(0, 3) + 1 = 4, runs 4-5. Frame 1 (release 10):
    // K 10-13, L at 14. With T = 2, frame 1 (release 2) queues behind frame 0: the host issues
    // the stream's calls in order, so K#1 is issued when L#0 is, at 4 (not 2), runs after it,
    // 5-8, and L#1 is issued at max(2, 8) + 1 = 9.
    auto file = [](const std::string& period) {
        return test::workload_from(
            "[platform]\nsms = 1\nthreads_per_sm = 1024\n[[stream]]\nname = \"S\"\nperiod = " + period + "\n" +
            "[[kernel]]\nname = \"K\"\nstream = \"S\"\nblocks = 1\nthreads = 1024\n"
            "block_time = 3\n" +
            "[[kernel]]\nname = \"L\"\nstream = \"S\"\nblocks = 1\nthreads = 1024\n"
            "block_time = 1\nafter_stream_idle = 1\n");
    };
    const Unrolled slow = unroll(file("10"), Horizon::of_frames(2, unroll_here));
    const int l1 = index_of(slow, "L#1");
    REQUIRE(slow.workload.ops[l1].issue.release);
    CHECK(*slow.workload.ops[l1].issue.release == TimeRange{10, 10});
    const Schedule s = simulate(slow.workload);
    CHECK(s.ops[index_of(slow, "L#0")].issue == 4);
    CHECK(s.ops[index_of(slow, "K#1")].start == 10);
    CHECK(s.ops[l1].issue == 14);

    const Unrolled fast = unroll(file("2"), Horizon::of_frames(2, unroll_here));
    const Schedule f = simulate(fast.workload);
    CHECK(f.ops[index_of(fast, "K#1")].issue == 4);
    CHECK(f.ops[index_of(fast, "K#1")].start == 5);
    CHECK(f.ops[index_of(fast, "L#1")].issue == 9);
}

TEST_CASE("unroll: the frame's release holds back after_stream_idle on an idle stream", "[frames][unroll][sim]") {
    // The stream is idle long before frame 1's release at 10: L#1 (first of its frame) is
    // issued at 10 + 2, not at the idle instant + 2. Without the release it would be 3 + 2 = 5.
    const Workload w =
        test::workload_from("[[stream]]\nname = \"S\"\nperiod = 10\n" + kernel_in("L", "S", "after_stream_idle = 2"));
    const Unrolled u = unroll(w, Horizon::of_frames(2, unroll_here));
    const Schedule s = simulate(u.workload);
    CHECK(s.ops[index_of(u, "L#0")].issue == 2);
    CHECK(s.ops[index_of(u, "L#1")].issue == 12);
}

TEST_CASE("horizon: frames, until, hyperperiod, and streams linked by wait", "[frames][unroll]") {
    const Workload w = test::workload_from(
        "[[stream]]\nname = \"A\"\nperiod = 2\n[[stream]]\nname = \"B\"\nperiod = 3\noffset = 1\n"
        "[[stream]]\nname = \"C\"\nmin_interarrival = \"3/2\"\n[[stream]]\nname = \"D\"\nperiod = 3\noffset = 2\n"
        "[[stream]]\nname = \"O\"\n" +
        kernel_in("a", "A") + kernel_in("b", "B") + kernel_in("c", "C") + kernel_in("d", "D", "wait = [\"b\"]") +
        kernel_in("o", "O"));
    CHECK(frame_counts(w, Horizon::of_frames(5, unroll_here)) == std::vector<std::int64_t>{5, 5, 5, 5, 1});
    // Until 6: A releases 0, 2, 4, 6 (4); B 1, 4 (2); C 0, 1.5, ..., 6 (5); D 2, 5 (2); O once.
    CHECK(frame_counts(w, Horizon::up_to(6, unroll_here)) == std::vector<std::int64_t>{4, 2, 5, 2, 1});
    // Until 4: B has 1 and 4 (2) but D only 2 (1); D waits on B, so both get 2.
    CHECK(frame_counts(w, Horizon::up_to(4, unroll_here)) == std::vector<std::int64_t>{3, 2, 3, 2, 1});
    CHECK(hyperperiod(w) == 6);  // lcm(2, 3, 3/2, 3) = 6
    CHECK(frame_counts(w, Horizon{}) == std::vector<std::int64_t>{3, 2, 4, 2, 1});
    const Unrolled u = unroll(w, Horizon::up_to(Time(1, 2), unroll_here));
    CHECK(u.workload.ops.size() == 3);  // a#0, c#0, o; B and D release later
}

TEST_CASE("horizon: limits and empty horizons are input errors at the option", "[frames][unroll]") {
    const Workload w = test::workload_from("[[stream]]\nname = \"S\"\nperiod = 1\noffset = 5\n" + kernel_in("A", "S"));
    const SourceLocation option{"gpuwcrt: --until", 0, 0};
    CHECK_THROWS_WITH(unroll(w, Horizon::up_to(4, option)), Catch::Contains("covers no frame"));
    CHECK_THROWS_WITH(unroll(w, Horizon::of_frames(0, unroll_here)), Catch::Contains("must be between 1 and 100000"));
    CHECK_THROWS_WITH(unroll(w, Horizon::up_to(200000, option)), Catch::Contains("more than 100000 frames"));
    const Workload coprime = test::workload_from(
        "[[stream]]\nname = \"S\"\nperiod = 1009\n[[stream]]\nname = "
        "\"R\"\nperiod = 1013\n" +
        kernel_in("A", "S") + kernel_in("B", "R"));
    CHECK_THROWS_WITH(unroll(coprime, Horizon{}), Catch::Contains("give --frames N or --until T"));
    CHECK(unroll(coprime, Horizon::of_frames(2, unroll_here)).workload.ops.size() == 4);
}

TEST_CASE("frame names split back into their parts", "[frames]") {
    CHECK(frame_op_name("K", 12) == "K#12");
    CHECK(split_frame_name("K#12") == std::pair<std::string, std::int64_t>{"K", 12});
    CHECK(split_frame_name("a b#0") == std::pair<std::string, std::int64_t>{"a b", 0});
    CHECK_FALSE(split_frame_name("K"));
    CHECK_FALSE(split_frame_name("K#"));
    CHECK_FALSE(split_frame_name("K#01"));
    CHECK_FALSE(split_frame_name("K#-1"));
    CHECK_FALSE(split_frame_name("#3"));
}
