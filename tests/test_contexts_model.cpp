// GPU contexts in the input (docs/theory/semantics.md §10): the keys, their located errors, the
// default switch cost named in the assumptions, the round trip, and the refusals.
#include <catch2/catch.hpp>

#include "model/contexts/contexts.hpp"
#include "model/io/write_toml.hpp"
#include "support.hpp"

using namespace gpuwcrt;
using test::contains;

namespace {

const std::string contexts_toml_head = R"(time_unit = "us"
[[context]]
name = "A"
timeslice = 1000
[[context]]
name = "B"
timeslice = 2000
)";

const std::string contexts_two_streams = R"([[stream]]
name = "sa"
context = "A"
[[stream]]
name = "sb"
context = "B"
[[kernel]]
name = "KA"
stream = "sa"
blocks = 1
threads = 256
block_time = 3000
[[kernel]]
name = "KB"
stream = "sb"
blocks = 1
threads = 256
block_time = 500
)";

std::string contexts_load_error(const std::string& toml) {
    try {
        test::workload_from(toml);
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("contexts: the keys are read, streams name their context", "[contexts][model]") {
    const Workload w =
        test::workload_from(contexts_toml_head + "[platform]\ncontext_switch = 150\n" + contexts_two_streams);
    REQUIRE(w.contexts.size() == 2);
    CHECK(w.sliced());
    CHECK(w.contexts[1].name == "B");
    CHECK(w.contexts[1].timeslice == 2000);
    CHECK(w.streams[0].context == 0);
    CHECK(w.streams[1].context == 1);
    CHECK(w.platform.context_switch == 150);
    CHECK(w.assumptions.empty());  // given, so no default to name
}

TEST_CASE("contexts: the default switch cost is 0.2 ms in the file's unit and named", "[contexts][model]") {
    const Workload us = test::workload_from(contexts_toml_head + contexts_two_streams);
    CHECK(us.platform.context_switch == 200);
    REQUIRE(us.assumptions.size() == 1);
    CHECK(contains(us.assumptions[0], "context"));
    CHECK(contains(us.assumptions[0], "GCAPS"));
    std::string in_seconds = contexts_toml_head + contexts_two_streams;
    in_seconds.replace(0, std::string("time_unit = \"us\"").size(), "time_unit = \"s\"");
    CHECK(test::workload_from(in_seconds).platform.context_switch == Time(1, 5000));
    // No unit: no default can be stated.
    const std::string no_unit =
        (contexts_toml_head + contexts_two_streams).substr(std::string("time_unit = \"us\"\n").size());
    CHECK(contains(contexts_load_error(no_unit), "test.toml:4:1:"));
    CHECK(contains(contexts_load_error(no_unit), "context_switch"));
}

TEST_CASE("contexts: one declared context is not sliced and needs no switch cost", "[contexts][model]") {
    const Workload w = test::workload_from(R"([[context]]
name = "only"
timeslice = 5
[[stream]]
name = "s"
context = "only"
[[kernel]]
name = "K"
stream = "s"
blocks = 1
threads = 32
block_time = 1
)");
    CHECK(!w.sliced());
    CHECK(w.platform.context_switch == 0);
    CHECK(w.assumptions.empty());
}

TEST_CASE("contexts: errors point at the key at fault", "[contexts][model]") {
    const std::string ok = contexts_toml_head + contexts_two_streams;
    auto with = [&](const std::string& from, const std::string& to) {
        std::string t = ok;
        t.replace(t.find(from), from.size(), to);
        return contexts_load_error(t);
    };
    const std::string unknown = with("context = \"B\"", "context = \"C\"");
    CHECK(contains(unknown, "test.toml:13:11:"));
    CHECK(contains(unknown, "unknown context 'C'"));
    CHECK(contains(unknown, "'A', 'B'"));
    CHECK(contains(with("context = \"B\"\n", ""), "test.toml:11:1:"));  // the stream without one
    CHECK(contains(with("timeslice = 2000", "timeslice = 0"), "test.toml:7:13:"));
    CHECK(contains(with("name = \"B\"", "name = \"A\""), "declared twice"));
    CHECK(contains(contexts_load_error(contexts_toml_head + "[platform]\ncontext_switch = -1\n" + contexts_two_streams),
                   ":9:18:"));
    // A stream's context without [[context]] tables.
    const std::string stray = contexts_load_error(
        "[[stream]]\nname = \"s\"\ncontext = \"A\"\n[[kernel]]\nname = \"K\"\n"
        "stream = \"s\"\nblocks = 1\nthreads = 32\nblock_time = 1\n");
    CHECK(contains(stray, "test.toml:3:11:"));
    // An operation with no stream would be in no context.
    CHECK(contains(contexts_load_error(ok + "[[kernel]]\nname = \"K3\"\nblocks = 1\nthreads = 32\nblock_time = 1\n"),
                   "test.toml:26:1:"));
}

TEST_CASE("contexts: a wait across contexts is refused, a NULL stream per context allowed", "[contexts][model]") {
    const std::string waits = contexts_toml_head + contexts_two_streams + "wait = [\"KA\"]\n";
    const std::string e = contexts_load_error(waits);
    CHECK(contains(e, "test.toml:20:1:"));
    CHECK(contains(e, "across GPU contexts"));
    std::string nulls = contexts_toml_head + contexts_two_streams;
    for (const char* st : {"name = \"sa\"\n", "name = \"sb\"\n"}) nulls.insert(nulls.find(st), "null = true\n");
    CHECK_NOTHROW(test::workload_from(nulls));
}

TEST_CASE("contexts: write_toml round-trips contexts, streams' contexts and the switch cost", "[contexts][model]") {
    for (const std::string& extra : {std::string(), std::string("[platform]\ncontext_switch = 0\n")}) {
        const Workload w = test::workload_from(contexts_toml_head + extra + contexts_two_streams);
        const Workload back = load_workload_text(workload_to_toml(w), "back.toml");
        REQUIRE(back.contexts.size() == 2);
        for (std::size_t c = 0; c < 2; ++c) {
            CHECK(back.contexts[c].name == w.contexts[c].name);
            CHECK(back.contexts[c].timeslice == w.contexts[c].timeslice);
        }
        CHECK(back.streams[1].context == 1);
        CHECK(back.platform.context_switch == w.platform.context_switch);
        CHECK(back.assumptions == w.assumptions);
    }
}

TEST_CASE("contexts: every analysis but the simulator and the all-time engine refuses two contexts, exit 3",
          "[contexts][cli]") {
    const std::string path = test::source_path("cases/contexts/round-robin.toml");
    for (const std::vector<std::string>& args : {std::vector<std::string>{"wcrt", "--engine", "exact", path},
                                                 {"wcrt", "--engine", "smt", path},
                                                 {"certify", "--engine", "exact", path, "--bound", "KA=20"},
                                                 {"rta", path},
                                                 {"rta-check", path}}) {
        INFO(args[0]);
        const test::CliRun r = test::run_cli(args);
        CHECK(r.exit_code == 3);
        CHECK(r.out.empty());
        CHECK(contains(r.err, "round-robin.toml:16:1:"));
        CHECK(contains(r.err, "gpuwcrt simulate"));
    }
    const test::CliRun sim = test::run_cli({"simulate", path});
    CHECK(sim.exit_code == 0);
    // The default engine is the one that ranges over the slices: it answers, never refuses.
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"wcrt", path}, {"certify", path, "--bound", "KA=20"}}) {
        INFO(args[0]);
        const test::CliRun r = test::run_cli(args);
        CHECK(r.exit_code != 3);
        CHECK(contains(r.out, "busy window under time slices"));
    }
}
