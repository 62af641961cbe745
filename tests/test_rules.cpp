// One test per rule of docs/theory/semantics.md §4: each workload is built so that the asserted timing is
// explained by that rule alone (the comment says what would happen without it).
#include <catch2/catch.hpp>

#include <fstream>

#include "sim/simulate.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

struct Run {
    Workload w;
    Schedule s;
    Time start(const std::string& op) const { return s.ops[*w.find_op(op)].start; }
    Time finish(const std::string& op) const { return s.ops[*w.find_op(op)].finish; }
    Time issue(const std::string& op) const { return s.ops[*w.find_op(op)].issue; }
    const BlockTiming& block(const std::string& kernel, std::int64_t j) const {
        const int k = *w.find_op(kernel);
        for (const BlockTiming& b : s.blocks)
            if (b.kernel == k && b.index == j) return b;
        FAIL("no block " << kernel << ":" << j);
        throw;
    }
};

Run run(const std::string& toml, Policy policy = Policy::most_room) {
    Run r{test::workload_from(toml), {}};
    Scenario sc;
    sc.policy = policy;
    r.s = simulate(r.w, sc);
    return r;
}

// A kernel in TOML; `extra` adds keys such as stream, issue, shared_mem.
std::string kernel(const std::string& name, int blocks, int threads, const std::string& time,
                   const std::string& extra = "") {
    return "[[kernel]]\nname = \"" + name + "\"\nblocks = " + std::to_string(blocks) +
           "\nthreads = " + std::to_string(threads) + "\nblock_time = " + time + "\n" + extra + "\n";
}
std::string copy(const std::string& name, const std::string& duration, const std::string& extra = "") {
    return "[[copy]]\nname = \"" + name + "\"\nduration = " + duration + "\n" + extra + "\n";
}
std::string stream(const std::string& name, const std::string& extra = "") {
    return "[[stream]]\nname = \"" + name + "\"\n" + extra + "\n";
}
const std::string one_sm = "[platform]\nsms = 1\n";
const std::string one_small_sm = "[platform]\nsms = 1\nthreads_per_sm = 1024\n";

}  // namespace

TEST_CASE("G1: an operation joins its stream queue when issued, not before", "[rules]") {
    // The GPU is idle throughout; without G1 the kernel would start at 0.
    const Run r = run(kernel("A", 1, 32, "1", "issue = 3"));
    CHECK(r.issue("A") == 3);
    CHECK(r.start("A") == 3);
}

TEST_CASE("G2: a kernel joins the EE queue when it reaches the head of its stream", "[rules]") {
    // One SM of 1024 threads. S1: A then B (issued together at 0); S2: C issued at 0.5.
    // B reaches S1's head only when A completes at 1, so it queues behind C although it was
    // issued earlier: C's second block runs at 1 and B at 2. Without G2 (EE order = issue
    // order) B would head the EE queue from 0 and run at 1, before C's second block.
    const Run r =
        run(one_small_sm + stream("S1") + stream("S2") + kernel("A", 1, 512, "1", "stream = \"S1\"") +
            kernel("B", 1, 1024, "1", "stream = \"S1\"") + kernel("C", 2, 512, "1", "stream = \"S2\"\nissue = 0.5"));
    CHECK(r.start("C") == Time(1, 2));
    CHECK(r.block("C", 1).start == 1);
    CHECK(r.start("B") == 2);
}

TEST_CASE("G3: a fully dispatched kernel leaves the EE queue while its blocks still run", "[rules]") {
    // A's 2 blocks take one SM each (48 KiB shared memory) and run 0-4; B fits beside them.
    // Without G3 (A leaving the EE queue only on completion) B would wait until 4.
    const Run r = run(kernel("A", 2, 1024, "4", "shared_mem = 49152") + kernel("B", 1, 1024, "1"));
    CHECK(r.start("B") == 0);
    CHECK(r.finish("A") == 4);
}

TEST_CASE("G4: a kernel leaves its stream queue only when all its blocks complete", "[rules]") {
    // A is fully dispatched at 0 but completes at 3; the GPU has room for B all along.
    // Without G4 (leaving at full dispatch) B would start at 0.
    const Run r =
        run(stream("S") + kernel("A", 1, 32, "3", "stream = \"S\"") + kernel("B", 1, 32, "1", "stream = \"S\""));
    CHECK(r.start("B") == 3);
}

TEST_CASE("X1: only the head of the EE queue may dispatch blocks", "[rules]") {
    // A's blocks need 48 KiB shared memory: one per SM, so its third block waits until 1.
    // B (32 threads, no shared memory) would fit at 0 beside A but is not the head.
    const Run r = run(kernel("A", 3, 1024, "1", "shared_mem = 49152") + kernel("B", 1, 32, "1"));
    CHECK(r.block("A", 2).start == 1);
    CHECK(r.start("B") == 1);
}

TEST_CASE("R1: a block over a per-block limit is an input error", "[rules]") {
    CHECK_THROWS_WITH(test::workload_from(kernel("A", 1, 1025, "1")),
                      Catch::Contains("threads per block 1025 exceeds the per-block limit 1024 (R1)"));
    CHECK_THROWS_WITH(test::workload_from("[platform]\nthreads_per_block_max = 512\n" + kernel("A", 1, 768, "1")),
                      Catch::Contains("exceeds the per-block limit 512 (R1)"));
    CHECK_THROWS_WITH(test::workload_from(kernel("A", 1, 32, "1", "shared_mem = 49153")),
                      Catch::Contains("shared memory per block (bytes) 49153 exceeds the per-block limit 49152"));
    CHECK_NOTHROW(test::workload_from(kernel("A", 1, 1024, "1", "shared_mem = 49152\nregisters = 32")));
}

TEST_CASE("R2: threads per SM bound how many blocks run together", "[rules]") {
    // One SM of 2048 threads: two 1024-thread blocks fit, the third waits for one to end.
    const Run r = run(one_sm + kernel("A", 3, 1024, "1"));
    CHECK(r.block("A", 1).start == 0);
    CHECK(r.block("A", 2).start == 1);
    // The limit is on the sum: three 682-thread blocks (2046 threads) run together.
    const Run fits = run(one_sm + kernel("A", 3, 682, "1"));
    CHECK(fits.block("A", 2).start == 0);
}

TEST_CASE("R3: shared memory per SM bounds how many blocks run together", "[rules]") {
    // Threads (3 x 32) and registers are far from their limits; 3 x 32 KiB > 64 KiB.
    const Run r = run(one_sm + kernel("A", 3, 32, "1", "shared_mem = 32768"));
    CHECK(r.block("A", 1).start == 0);
    CHECK(r.block("A", 2).start == 1);
    const Run fits = run(one_sm + kernel("A", 3, 32, "1", "shared_mem = 21845"));
    CHECK(fits.block("A", 2).start == 0);
}

TEST_CASE("registers: registers per SM bound how many blocks run together", "[rules]") {
    // 32 threads x 1024 registers = 32768 per block; 65536 per SM: two blocks, the third waits.
    const Run r = run(one_sm + kernel("A", 3, 32, "1", "registers = 1024"));
    CHECK(r.block("A", 1).start == 0);
    CHECK(r.block("A", 2).start == 1);
    const Run fits = run(one_sm + kernel("A", 3, 32, "1", "registers = 682"));
    CHECK(fits.block("A", 2).start == 0);
}

TEST_CASE("resident blocks: at most blocks_per_sm_max blocks per SM", "[rules]") {
    // 33 blocks of 32 threads: 1056 threads, no shared memory or registers; the 33rd waits.
    const Run r = run(one_sm + kernel("A", 33, 32, "1"));
    CHECK(r.block("A", 31).start == 0);
    CHECK(r.block("A", 32).start == 1);
    const Run more = run("[platform]\nsms = 1\nblocks_per_sm_max = 33\n" + kernel("A", 33, 32, "1"));
    CHECK(more.block("A", 32).start == 0);
}

TEST_CASE("C1: a copy joins the CE queue when it reaches the head of its stream", "[rules]") {
    // S1: Ca then Cb (both issued at 0); S2: Cc issued at 0.5. Cb reaches S1's head at 1,
    // after Cc joined the CE queue, so Cc goes first. Without C1 (CE order = issue order) Cb
    // would run 1-2.
    const Run r = run(stream("S1") + stream("S2") + copy("Ca", "1", "stream = \"S1\"") +
                      copy("Cb", "1", "stream = \"S1\"") + copy("Cc", "1", "stream = \"S2\"\nissue = 0.5"));
    CHECK(r.start("Cc") == 1);
    CHECK(r.start("Cb") == 2);
}

TEST_CASE("C2: a copy engine performs one copy at a time", "[rules]") {
    const Run r = run(copy("Ca", "1") + copy("Cb", "1"));
    CHECK(r.start("Ca") == 0);
    CHECK(r.start("Cb") == 1);
    const Run two = run("[platform]\ncopy_engines = 2\n" + copy("Ca", "1") + copy("Cb", "1"));
    CHECK(two.start("Cb") == 0);
}

TEST_CASE("C3: a copy leaves the CE queue once assigned, so the next can take another engine", "[rules]") {
    // Two engines, three copies: without C3 the running copy would stay at the head of the CE
    // queue and block the second engine.
    const Run r = run("[platform]\ncopy_engines = 2\n" + copy("Ca", "2") + copy("Cb", "1") + copy("Cc", "1"));
    CHECK(r.start("Cb") == 0);
    CHECK(r.start("Cc") == 1);
}

TEST_CASE("C4: a copy leaves its stream queue when the copy completes", "[rules]") {
    // Without C4 (leaving at assignment) the kernel behind the copy would start at 0.
    const Run r = run(stream("S") + copy("C", "2", "stream = \"S\"") + kernel("K", 1, 32, "1", "stream = \"S\""));
    CHECK(r.start("K") == 2);
}

TEST_CASE("N1: a NULL-stream kernel waits for other streams' heads launched before it", "[rules]") {
    // A (S1) launched at 0 runs 0-2; N (NULL) launched at 0.5 waits for it; B (S2) launched
    // at 1, after N, does not delay N. Without N1, N would start at 0.5.
    const Run r =
        run(stream("NULL", "null = true") + stream("S1") + stream("S2") + kernel("A", 1, 32, "2", "stream = \"S1\"") +
            kernel("N", 1, 32, "1", "stream = \"NULL\"\nissue = 0.5") +
            kernel("B", 1, 32, "5", "stream = \"S2\"\nissue = 1"));
    CHECK(r.start("N") == 2);
}

TEST_CASE("N2: other kernels wait while the NULL stream's head was launched before them", "[rules]") {
    // Z launched before N is not blocked; A launched after N waits for N to complete.
    // Without N2, A would start at 0.5.
    const Run r =
        run(stream("NULL", "null = true") + stream("S1") + stream("S2") + kernel("Z", 1, 32, "1", "stream = \"S2\"") +
            kernel("N", 1, 32, "1", "stream = \"NULL\"") + kernel("A", 1, 32, "1", "stream = \"S1\"\nissue = 0.5"));
    CHECK(r.start("Z") == 0);
    CHECK(r.start("N") == 1);
    CHECK(r.start("A") == 2);
}

TEST_CASE("A1: a kernel joins the EE queue of its stream's priority - none means low", "[rules]") {
    // One SM, every block takes the whole SM. L1 (low) runs one block at 0; N (priority
    // none), L2 (low) and H (high) queue up. H has its own queue and runs at 1; N shares the
    // low queue with L1 and L2, so it runs after L1's last block and before L2.
    const Run r =
        run(one_small_sm + stream("SL1", "priority = \"low\"") + stream("SN", "priority = \"none\"") +
            stream("SL2", "priority = 0") + stream("SH", "priority = -1") +
            kernel("L1", 2, 1024, "1", "stream = \"SL1\"") + kernel("N", 1, 1024, "1", "stream = \"SN\"\nissue = 0.1") +
            kernel("L2", 1, 1024, "1", "stream = \"SL2\"\nissue = 0.2") +
            kernel("H", 1, 1024, "1", "stream = \"SH\"\nissue = 0.3"));
    CHECK(r.start("H") == 1);
    CHECK(r.block("L1", 1).start == 2);
    CHECK(r.start("N") == 3);
    CHECK(r.start("L2") == 4);
}

TEST_CASE("A2: a waiting high-priority head blocks every low-priority kernel", "[rules]") {
    // One SM: L0's two blocks hold 1536 threads until 1. H (high, 1024 threads) cannot fit; L (low, 256
    // threads) would fit at 0.2 but is not eligible while H waits. Without A2, L would start at 0.2.
    const Run r =
        run(one_sm + stream("S0") + stream("SH", "priority = \"high\"") + stream("SL") +
            kernel("L0", 2, 768, "1", "stream = \"S0\"") + kernel("H", 1, 1024, "1", "stream = \"SH\"\nissue = 0.1") +
            kernel("L", 1, 256, "1", "stream = \"SL\"\nissue = 0.2"));
    CHECK(r.start("H") == 1);
    CHECK(r.start("L") == 1);
}

TEST_CASE("placement policies: most-room, round-robin and first-fit differ", "[rules][placement]") {
    // A (1024 threads, long) goes to SM0 under every policy. Then B's three 512-thread blocks:
    //   first-fit:   lowest SM where it fits        -> 0, 0, 1
    //   round-robin: next SM after the last one used -> 1, 0, 1
    //   most-room:   SM with room for most more B    -> 1 (2 vs 4), 1 (2 vs 3), 0 (2 vs 2, tie)
    const std::string toml = kernel("A", 1, 1024, "10") + kernel("B", 3, 512, "1");
    auto sms = [](const Run& r) {
        return std::vector<int>{r.block("B", 0).sm, r.block("B", 1).sm, r.block("B", 2).sm};
    };
    const Run ff = run(toml, Policy::first_fit), rr = run(toml, Policy::round_robin), mr = run(toml, Policy::most_room);
    CHECK(ff.block("A", 0).sm == 0);
    CHECK(sms(ff) == std::vector<int>{0, 0, 1});
    CHECK(sms(rr) == std::vector<int>{1, 0, 1});
    CHECK(sms(mr) == std::vector<int>{1, 1, 0});
    // The default policy is most-room.
    CHECK(sms(run(toml)) == sms(mr));
}

TEST_CASE("after_stream_idle: the host waits for its stream to drain, then sleeps", "[rules][issue]") {
    // S: A runs 0-2; B after_stream_idle = 0.5 is issued at 2.5; C (issue = 1) comes after B
    // in the host's program, so it cannot be issued before 2.5 ("not before" reading).
    // T: the first operation with after_stream_idle is issued at its delay.
    const Run r = run(stream("S") + stream("T") + kernel("A", 1, 32, "2", "stream = \"S\"") +
                      kernel("B", 1, 32, "1", "stream = \"S\"\nafter_stream_idle = 0.5") +
                      kernel("C", 1, 32, "1", "stream = \"S\"\nissue = 1") +
                      kernel("D", 1, 32, "1", "stream = \"T\"\nafter_stream_idle = \"1/3\""));
    CHECK(r.issue("B") == Time(5, 2));
    CHECK(r.start("B") == Time(5, 2));
    CHECK(r.issue("C") == Time(5, 2));
    CHECK(r.start("C") == Time(7, 2));
    CHECK(r.issue("D") == Time(1, 3));
}

TEST_CASE("an operation without issue is issued with its stream's previous operation", "[rules][issue]") {
    const Run r = run(stream("S") + kernel("A", 1, 32, "1", "stream = \"S\"\nissue = 0.7") +
                      copy("C", "1", "stream = \"S\"") + kernel("B", 1, 32, "1", "stream = \"S\""));
    CHECK(r.issue("C") == Time(7, 10));
    CHECK(r.issue("B") == Time(7, 10));
    CHECK(r.start("C") == Time(17, 10));
    CHECK(r.start("B") == Time(27, 10));
}

TEST_CASE("the launch order option decides ties between simultaneous issues and is validated", "[rules][order]") {
    const std::string example = test::source_path("cases/thesis/example.toml");
    auto ok = test::run_cli({"simulate", example, "--order", "t2,t3,t4,t1", "--json"});
    REQUIRE(ok.exit_code == 0);
    CHECK(ok.out.find("\"name\": \"t2\"") < ok.out.find("\"name\": \"t1\""));

    const std::string toml = stream("S") + stream("T") + kernel("A", 1, 32, "1", "stream = \"S\"") +
                             kernel("B", 1, 32, "1", "stream = \"S\"") +
                             kernel("L", 1, 32, "1", "stream = \"T\"\nissue = 1");
    const Workload w = test::workload_from(toml);
    CHECK_NOTHROW(launch_ranks(w, {"A", "B", "L"}));
    CHECK_THROWS_WITH(launch_ranks(w, {"B", "A"}), Catch::Contains("which precedes it in stream 'S'"));
    CHECK_THROWS_WITH(launch_ranks(w, {"L", "A"}), Catch::Contains("(issued at 1) before 'A' (issued at 0)"));
    CHECK_THROWS_WITH(launch_ranks(w, {"A", "Q"}), Catch::Contains("unknown operation 'Q'"));

    const std::string dir = test::temp_dir(), file = dir + "/order.toml";
    { std::ofstream(file) << toml; }
    for (const char* bad : {"B,A", "L,A"}) {
        INFO(bad);
        auto r = test::run_cli({"simulate", file, "--order", bad});
        CHECK(r.exit_code == 3);
        CHECK(r.out.empty());
        CHECK(r.err.find("gpuwcrt: --order: launches") != std::string::npos);
    }
}

TEST_CASE("N1/N2 compare stream heads whether kernel or copy - copies are exempt", "[rules]") {
    // docs/decisions/0005-null-stream-heads-and-copies.md. N waits for the copy heading S1 (launched before it); the
    // NULL stream's copy D is not held back by the kernel A launched before it.
    const Run r = run(stream("NULL", "null = true") + stream("S1") + stream("S2") + copy("C", "2", "stream = \"S1\"") +
                      kernel("N", 1, 32, "1", "stream = \"NULL\"\nissue = 0.5"));
    CHECK(r.start("N") == 2);
    const Run d = run(stream("NULL", "null = true") + stream("S1") + kernel("A", 1, 32, "2", "stream = \"S1\"") +
                      copy("D", "1", "stream = \"NULL\"\nissue = 0.5"));
    CHECK(d.start("D") == Time(1, 2));
}

TEST_CASE("W1: an operation with wait joins its queue only once the waited operations completed", "[rules][wait]") {
    // The GPU has room for all three kernels from 0. B waits on A (done at 5) and starts at 5,
    // the instant A completes (step 1 before step 3); without W1 it would start at 0. C, issued
    // at 1 in a third stream, starts at 1: a waiting B has not joined the EE queue, so it holds
    // nobody back (X1 applies to joined kernels only).
    const Run r = run(stream("S") + stream("T") + stream("U") + kernel("A", 1, 32, "5", "stream = \"S\"") +
                      kernel("B", 1, 32, "1", "stream = \"T\"\nwait = [\"A\"]") +
                      kernel("C", 1, 32, "1", "stream = \"U\"\nissue = 1"));
    CHECK(r.issue("B") == 0);
    CHECK(r.start("B") == 5);
    CHECK(r.start("C") == 1);
    // A copy waits the same way (the CE queue), on every name it lists.
    const Run c = run(stream("S") + stream("T") + stream("U") + kernel("A", 1, 32, "2", "stream = \"S\"") +
                      copy("K", "3", "stream = \"T\"") + copy("D", "1", "stream = \"U\"\nwait = [\"A\", \"K\"]"));
    CHECK(c.start("K") == 0);
    CHECK(c.start("D") == 3);
}

TEST_CASE("W1: operations whose waits end together join in launch order", "[rules][wait]") {
    // One SM with room for one 1024-thread block. B and C both wait on A (done at 2); C was
    // launched first (issued at 0, B at 1), so it joins the EE queue first and runs 2-3, then B 3-4.
    const Run r =
        run(one_small_sm + stream("S") + stream("T") + stream("U") + kernel("A", 1, 1024, "2", "stream = \"S\"") +
            kernel("B", 1, 1024, "1", "stream = \"T\"\nissue = 1\nwait = [\"A\"]") +
            kernel("C", 1, 1024, "1", "stream = \"U\"\nwait = [\"A\"]"));
    CHECK(r.start("C") == 2);
    CHECK(r.start("B") == 3);
}
