// The keys of docs/theory/semantics.md §9 in a workload TOML: period, min_interarrival, offset, jitter
// and wait. Every mistake is an input error at the key or name at fault; a valid file reads and
// writes back unchanged.
#include <catch2/catch.hpp>

#include "model/io/write_toml.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

// Line 3 holds `s_keys`, line 6 `r_keys`, line 13 `a_keys` (A's last line) and line 20
// `b_keys`, each one line (empty or not); a key of two lines shifts the rest by one.
std::string frames_file(const std::string& s_keys, const std::string& r_keys, const std::string& a_keys,
                        const std::string& b_keys = "") {
    return "[[stream]]\nname = \"S\"\n" + s_keys + "\n[[stream]]\nname = \"R\"\n" + r_keys +
           "\n[[kernel]]\nname = \"A\"\nstream = \"S\"\nblocks = 1\nthreads = 32\nblock_time = 1\n" + a_keys +
           "\n[[kernel]]\nname = \"B\"\nstream = \"R\"\nblocks = 1\nthreads = 32\nblock_time = 1\n" + b_keys;
}

struct FramesError {
    const char* kind;
    std::string toml;
    int line, column;
    const char* phrase;
};

const std::vector<FramesError> frames_errors = {
    {"period and min_interarrival", frames_file("period = 5\nmin_interarrival = 5", "", ""), 4, 20,
     "either 'period' (a periodic stream) or 'min_interarrival' (a sporadic one), not both"},
    {"zero period", frames_file("period = 0", "", ""), 3, 10, "'period' must be > 0 (got 0)"},
    {"negative min_interarrival", frames_file("min_interarrival = \"-1/2\"", "", ""), 3, 20,
     "'min_interarrival' must be > 0 (got -0.5)"},
    {"negative offset", frames_file("period = 5\noffset = -1", "", ""), 4, 10, "'offset' must be >= 0 (got -1)"},
    {"negative jitter", frames_file("period = 5\njitter = -0.5", "", ""), 4, 10, "'jitter' must be >= 0 (got -0.5)"},
    {"offset without a period", frames_file("offset = 1", "", ""), 3, 10, "'offset' needs 'period' or"},
    {"jitter without a period", frames_file("jitter = 1", "", ""), 3, 10, "'jitter' needs 'period' or"},
    {"bad period literal", frames_file("period = \"1/0\"", "", ""), 3, 10, "'1/0' divides by zero"},
    {"unknown key in a stream", frames_file("periods = 5", "", ""), 3, 1, "unknown key 'periods' in [[stream]]"},
    {"wait not an array", frames_file("", "", "wait = \"B\""), 13, 8, "'wait' must be an array"},
    {"wait on an unknown name", frames_file("", "", "wait = [\"B\", \"Q\"]"), 13, 14,
     "'A' waits on unknown operation 'Q'"},
    {"wait on itself", frames_file("", "", "wait = [\"A\"]"), 13, 9, "'A' waits on itself"},
    {"wait on a name twice", frames_file("", "", "wait = [\"B\", \"B\"]"), 13, 14, "'A' names 'B' twice in 'wait'"},
    {"wait on a bad name", frames_file("", "", "wait = [\"\"]"), 13, 9, "wait: name '' is empty"},
    {"wait of a periodic stream on a sporadic one",
     frames_file("period = 5", "min_interarrival = 10", "wait = [\"B\"]"), 13, 9,
     "'A' (stream 'S', period 5) cannot wait on 'B' (stream 'R', sporadic)"},
    {"wait on a stream that runs once", frames_file("period = 5", "", "wait = [\"B\"]"), 13, 9,
     "cannot wait on 'B' (stream 'R', which runs once)"},
    {"wait between sporadic streams", frames_file("min_interarrival = 5", "min_interarrival = 5", "wait = [\"B\"]"), 13,
     9, "sporadic frames are released independently"},
    {"wait with a NULL stream", frames_file("null = true", "", "wait = [\"B\"]"), 13, 9,
     "`wait` in a workload with a NULL stream ('S') is not supported"},
    {"wait cycle", frames_file("", "", "wait = [\"B\"]", "wait = [\"A\"]"), 20, 9,
     "`wait` closes a cycle, so none of these operations could ever start"},
    {"name with # beside a periodic stream",
     frames_file("period = 5", "", "") + "\n" + "[[copy]]\nname = \"C#1\"\nduration = 1\n", 21, 1,
     "contains '#', which a workload with periodic"},
    {"frame issued past the next frame's first",
     frames_file("period = 5", "", "") + "\n[[copy]]\nname = \"C\"\nstream = \"S\"\nduration = 1\nissue = 6\n", 21, 1,
     "'C' is issued 6 after its frame's release, more than one period (5) after the frame's first operation 'A'"},
    {"[scenario] with a periodic stream", frames_file("period = 5", "", "") + "\n[scenario]\norder = [\"A\"]\n", 21, 1,
     "[scenario] in a workload with periodic or sporadic streams is not supported"},
    {"[[expect]] frames without frames", frames_file("", "", "") + "\n[[expect]]\nframes = 2\n", 22, 10,
     "'frames' needs a periodic or sporadic stream"},
    {"[[expect]] wcrt with frames", frames_file("period = 5", "", "") + "\n[[expect]]\nwcrt = { \"A#0\" = 1 }\n", 22, 8,
     "no analysis covers frames yet"},
    {"[[expect]] names an op of a periodic stream without its frame",
     frames_file("period = 5", "", "") + "\n[[expect]]\nfinish = { A = 1 }\n", 22, 12,
     "expectation names unknown operation 'A'"},
};

}  // namespace

TEST_CASE("frames and wait: every mistake is an input error at the key at fault", "[frames][input-errors]") {
    for (const FramesError& e : frames_errors) {
        INFO(e.kind << "\n" << e.toml);
        try {
            (void)test::workload_from(e.toml);
            FAIL("accepted");
        } catch (const InputError& err) {
            INFO(err.what());
            CHECK(err.where().file == "test.toml");
            CHECK(err.where().line == e.line);
            CHECK(err.where().column == e.column);
            CHECK(test::contains(err.message(), e.phrase));
        }
    }
}

TEST_CASE("a wait cycle is reported with the operations on it", "[frames][input-errors]") {
    // C follows A in stream S, B waits on C and A waits on B: none of them can ever start.
    const std::string toml = frames_file("", "", "wait = [\"B\"]", "wait = [\"C\"]") +
                             "\n[[copy]]\nname = \"C\"\nstream = \"S\"\nduration = 1\n";
    try {
        (void)test::workload_from(toml);
        FAIL("accepted");
    } catch (const InputError& err) {
        CHECK(test::contains(err.message(), "'A' waits on 'B'"));
        CHECK(test::contains(err.message(), "'B' waits on 'C'"));
        CHECK(test::contains(err.message(), "'C' follows 'A' in stream 'S'"));
    }
    // Without A's wait there is no cycle: B runs after C, which runs after A.
    CHECK_NOTHROW(test::workload_from(frames_file("", "", "", "wait = [\"C\"]") +
                                      "\n[[copy]]\nname = \"C\"\nstream = \"S\"\nduration = 1\n"));
}

TEST_CASE("frames keys read as written and survive write and reload", "[frames][write_toml]") {
    const std::string toml =
        frames_file("period = \"5/2\"\noffset = 1\njitter = 0.25", "period = 2.5", "wait = [\"B\"]") +
        "\n[[stream]]\nname = \"Q\"\nmin_interarrival = 7\n"
        "\n[[copy]]\nname = \"C\"\nstream = \"Q\"\nduration = 1\nafter_stream_idle = 1\n";
    const Workload w = test::workload_from(toml);
    const Arrival& s = w.streams[0].arrival;
    CHECK(s.kind == Arrival::Kind::periodic);
    CHECK(s.period == Time(5, 2));
    CHECK(s.offset == 1);
    CHECK(s.jitter == Time(1, 4));
    CHECK(w.streams[1].arrival.kind == Arrival::Kind::periodic);
    CHECK(w.streams[1].arrival.offset == 0);
    CHECK(w.streams[2].arrival.kind == Arrival::Kind::sporadic);
    CHECK(w.streams[2].arrival.period == 7);
    REQUIRE(w.ops[0].wait == std::vector<int>{1});
    CHECK(w.repeats());
    CHECK(w.has_wait());

    const Workload back = load_workload_text(workload_to_toml(w), "written.toml");
    REQUIRE(back.streams.size() == w.streams.size());
    for (std::size_t i = 0; i < w.streams.size(); ++i) {
        CHECK(back.streams[i].arrival.kind == w.streams[i].arrival.kind);
        CHECK(back.streams[i].arrival.period == w.streams[i].arrival.period);
        CHECK(back.streams[i].arrival.offset == w.streams[i].arrival.offset);
        CHECK(back.streams[i].arrival.jitter == w.streams[i].arrival.jitter);
    }
    REQUIRE(back.ops.size() == w.ops.size());
    for (std::size_t i = 0; i < w.ops.size(); ++i) CHECK(back.ops[i].wait == w.ops[i].wait);
}

TEST_CASE("wait across rates reads: the most recent frame issued, not frame k", "[frames]") {
    const Workload w = test::workload_from(frames_file("period = 5", "period = 10", "wait = [\"B\"]"));
    CHECK(w.ops[0].wait == std::vector<int>{1});
    CHECK(waits_across_rates(w.streams[0].arrival, w.streams[1].arrival));
    CHECK_FALSE(frames_pair(w.streams[0].arrival, w.streams[1].arrival));
}

TEST_CASE("wait may name an operation further down the file, in streams that run once", "[frames]") {
    const Workload w = test::workload_from(frames_file("", "", "wait = [\"B\"]"));
    CHECK_FALSE(w.repeats());
    CHECK(w.ops[0].wait == std::vector<int>{1});
}

TEST_CASE("a bad frames key through the command line: exit 3, located, nothing on stdout", "[frames][cli]") {
    const std::string dir = test::temp_dir();
    const std::string file = test::write_file(dir, "w.toml", frames_file("period = 0", "", ""));
    const auto r = test::run_cli({"simulate", file});
    CHECK(r.exit_code == 3);
    CHECK(r.out.empty());
    CHECK(r.err.rfind(file + ":3:10: 'period' must be > 0", 0) == 0);
}
