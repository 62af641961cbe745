// import-amalthea on the WATERS 2019 offloading pattern (model/io/amalthea/activation.*): the
// published model in each version it was released in (cases/waters2019/, tests/data/
// amalthea-waters2019/), the hand-written 0.9.0-0.9.4 model tests/data/amalthea/
// offload_0.9.2.amxmi (its derivation in its header comment), CPU-only models, and the
// located errors of what the importer cannot map.
#include <algorithm>
#include <catch2/catch.hpp>

#include "model/io/amalthea/import_amalthea.hpp"
#include "model/io/read_input.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

const std::string waters_098 = "cases/waters2019/ChallengeModel_release_fix.amxmi";

const std::map<std::string, std::int64_t> waters_grids = {
    {"SFM_Function", 2}, {"Localization_Function", 2}, {"Lane_Detection_Function", 2}, {"Detection_Function", 2}};

AmaltheaImport waters_import(const std::string& relative) {
    AmaltheaImportOptions o;
    o.grid = waters_grids;
    return import_amalthea_file(test::source_path(relative), o);
}

const Operation& waters_op(const Workload& w, const std::string& name) {
    const auto i = w.find_op(name);
    INFO("operation " << name);
    REQUIRE(i);
    return w.ops[static_cast<std::size_t>(*i)];
}

const Stream& waters_stream(const Workload& w, const std::string& name) {
    for (const Stream& s : w.streams)
        if (s.name == name) return s;
    FAIL("no stream " << name);
    return w.streams.front();
}

std::string offload_text() { return read_input_file(test::source_path("tests/data/amalthea/offload_0.9.2.amxmi")); }

// `text` with `from` replaced by `to` (once; the test fails when `from` is absent).
std::string offload_with(const std::string& from, const std::string& to) {
    std::string text = offload_text();
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

test::CliRun waters_cli(const std::string& text, const std::vector<std::string>& options = {"--grid", "kern=4"}) {
    const std::string file = test::write_file(test::temp_dir(), "m.amxmi", text);
    std::vector<std::string> args = {"import-amalthea", file};
    args.insert(args.end(), options.begin(), options.end());
    return test::run_cli(args);
}

}  // namespace

TEST_CASE("AMALTHEA 0.9.0-0.9.4 form: a CPU task's trigger releases a periodic GPU stream of copies and a kernel",
          "[amalthea]") {
    AmaltheaImportOptions o;
    o.grid = {{"kern", 4}};
    const AmaltheaImport im = import_amalthea_file(test::source_path("tests/data/amalthea/offload_0.9.2.amxmi"), o);
    const Workload& w = im.workload;
    CHECK(im.model_version == "0.9.2");
    CHECK(w.time_unit == "ms");
    REQUIRE(w.streams.size() == 1);  // Cam is on the CPU
    const Stream& s = w.streams[0];
    CHECK(s.name == "Infer");
    // Released 1 ms + [0, 0.2] ms jitter + [0.5, 2] ms of prep before the trigger.
    CHECK(s.arrival.kind == Arrival::Kind::periodic);
    CHECK(s.arrival.period == 10);
    CHECK(s.arrival.offset == Time(3, 2));
    CHECK(s.arrival.jitter == Time(17, 10));
    REQUIRE(w.ops.size() == 3);
    CHECK(w.ops[0].name == "h2d");
    CHECK_FALSE(w.ops[0].is_kernel());
    CHECK(w.ops[0].time.lo == 1);
    CHECK(w.ops[0].time.hi == 1);
    CHECK(w.ops[0].issue.kind == IssueSpec::Kind::at);
    CHECK(w.ops[1].name == "kern");
    CHECK(w.ops[1].is_kernel());
    CHECK(w.ops[1].blocks == 4);
    CHECK(w.ops[1].threads == 512);
    CHECK(w.ops[1].time.hi == 3);
    CHECK(w.ops[1].issue.kind == IssueSpec::Kind::with_previous);
    CHECK(w.ops[2].name == "d2h");
    CHECK_FALSE(w.ops[2].is_kernel());
    CHECK(w.ops[2].time.hi == Time(502048, 1000000));
    CHECK_FALSE(w.ops[2].deadline);  // no deadline the model does not state
    bool named = false;
    for (const std::string& n : im.notes)
        named = named || n.find("not delayed by other CPU tasks") != std::string::npos;
    CHECK(named);
}

TEST_CASE("WATERS 2019 as published: four GPU tasks at their CPU tasks' periods, the same in every version",
          "[amalthea]") {
    const AmaltheaImport im = waters_import(waters_098);
    const Workload& w = im.workload;
    CHECK(im.model_version == "0.9.8");
    REQUIRE(w.streams.size() == 4);
    REQUIRE(w.ops.size() == 12);
    // SFM: PRE_SFM_gpu_POST every 33 ms on Denver cores at 2 GHz; SFM_Preprocessing takes
    // [5151424, 6355142] ticks = [2.575712, 3.177571] ms before the trigger.
    const Stream& sfm = waters_stream(w, "SFM");
    CHECK(sfm.arrival.period == 33);
    CHECK(sfm.arrival.offset == Time(5151424, 2000000));
    CHECK(sfm.arrival.jitter == Time(6355142 - 5151424, 2000000));
    // GPU_def Ticks [10575000, 11850000] at 1.5 GHz = [7.05, 7.9] ms; grid 2 from the option.
    const Operation& k = waters_op(w, "SFM_Function");
    CHECK(k.blocks == 2);
    CHECK(k.time.lo == Time(141, 20));
    CHECK(k.time.hi == Time(79, 10));
    // 2 MB + 256 B over 20 GB/s = 2000256 B / (2 * 10^7 B/ms); 24 kB back = 0.0012 ms.
    CHECK(waters_op(w, "SFM_host_to_device").time.hi == Time(2000256, 20000000));
    CHECK(waters_op(w, "SFM_device_to_host").time.hi == Time(24000, 20000000));
    CHECK_FALSE(waters_op(w, "SFM_device_to_host").deadline);  // the model's limits are on the CPU tasks
    // Lane detection on an A57 core (Core5, 2 GHz): preprocessing [6573410, 7951921] ticks.
    const Stream& lane = waters_stream(w, "Lane_detection");
    CHECK(lane.arrival.period == 66);
    CHECK(lane.arrival.offset == Time(6573410, 2000000));
    CHECK(waters_op(w, "Lane_Detection_Function").time.hi == Time(82, 3));
    CHECK(waters_stream(w, "Detection").arrival.period == 200);
    CHECK(waters_op(w, "Detection_Function").time.lo == 108);
    CHECK(waters_stream(w, "Localization").arrival.period == 400);
    CHECK(waters_op(w, "Localization_Function").time.hi == 124);
    for (const char* later : {"tests/data/amalthea-waters2019/waters2019_0.9.9.amxmi",
                              "tests/data/amalthea-waters2019/waters2019_1.0.0.amxmi",
                              "tests/data/amalthea-waters2019/waters2019_2.0.0.amxmi"}) {
        INFO(later);
        const Workload v = waters_import(later).workload;
        REQUIRE(v.ops.size() == w.ops.size());
        for (std::size_t i = 0; i < w.ops.size(); ++i) {
            CHECK(v.ops[i].name == w.ops[i].name);
            CHECK(v.ops[i].kind == w.ops[i].kind);
            CHECK(v.ops[i].blocks == w.ops[i].blocks);
            CHECK(v.ops[i].time.lo == w.ops[i].time.lo);
            CHECK(v.ops[i].time.hi == w.ops[i].time.hi);
            CHECK(v.ops[i].deadline == w.ops[i].deadline);
        }
        for (std::size_t s = 0; s < w.streams.size(); ++s) {
            CHECK(v.streams[s].arrival.offset == w.streams[s].arrival.offset);
            CHECK(v.streams[s].arrival.jitter == w.streams[s].arrival.jitter);
            CHECK(v.streams[s].arrival.period == w.streams[s].arrival.period);
        }
    }
}

TEST_CASE("WATERS 2019 without grids names every kernel that lacks one and how to give it", "[amalthea][cli]") {
    const std::string model = test::source_path(waters_098);
    const auto r = test::run_cli({"import-amalthea", model});
    CHECK(r.exit_code == 3);
    CHECK(r.out.empty());
    CHECK(r.err.find(model + ":342:5: 4 kernel(s) without a grid") == 0);
    CHECK(r.err.find("'SFM_Function', 'Localization_Function', 'Lane_Detection_Function', 'Detection_Function'") !=
          std::string::npos);
    CHECK(r.err.find("--grid SFM_Function=N --grid Localization_Function=N --grid Lane_Detection_Function=N "
                     "--grid Detection_Function=N") != std::string::npos);
    std::vector<std::string> args = {"import-amalthea", model, "--grid", "SFM_host_to_device=2"};
    for (const auto& [kernel, grid] : waters_grids) {
        args.push_back("--grid");
        args.push_back(kernel + "=" + std::to_string(grid));
    }
    const auto copy = test::run_cli(args);
    CHECK(copy.exit_code == 3);
    CHECK(copy.err.find("'SFM_host_to_device' is no kernel") != std::string::npos);
}

TEST_CASE("a CPU-only model is told it has no GPU work before anything else", "[amalthea][cli]") {
    const std::string model = test::source_path("tests/data/amalthea/cpu_only.amxmi");
    const auto r = test::run_cli({"import-amalthea", model});
    CHECK(r.exit_code == 3);
    CHECK(r.err.find(model + ":18:3: the model has no GPU work") == 0);
    CHECK(r.err.find("--tick-time") == std::string::npos);
}

TEST_CASE("offloading the importer cannot bound is a located input error", "[amalthea][cli]") {
    const std::string trigger =
        "<calls xsi:type=\"am:InterProcessTrigger\" stimulus=\"go?type=InterProcessStimulus\"/>";
    const std::string wait = "<calls xsi:type=\"am:WaitEvent\"><eventMask events=\"done?type=OsEvent\"/></calls>";
    struct Case {
        std::string text, where, message;
    };
    const std::vector<Case> cases = {
        {offload_with(trigger, ""), ":111:5: ", "no task fires it"},
        {offload_with(trigger, trigger + trigger), ":30:93: ", "a second InterProcessTrigger of 'go'"},
        {offload_with(trigger, wait + trigger), ":30:11: ", "a WaitEvent before the InterProcessTrigger"},
        {offload_with("<dataRate value=\"1\" unit=\"GBPerSecond\"/>", ""), ":64:5: ", "no duration"},
        {offload_with("<dataRate value=\"1\" unit=\"GBPerSecond\"/>", "<dataRate value=\"1\" unit=\"GB\"/>"),
         ":94:11: ", "data rate unit 'GB'"},
        {offload_with("unit=\"KiB\"", "unit=\"KB\""), ":85:29: ", "data size unit 'KB'"},
        {offload_with("<labels name=\"img_dev\"><size value=\"1\" unit=\"MB\"/></labels>",
                      "<labels name=\"img_dev\"/>"),
         ":82:5: ", "label 'img_dev' has no <size>"},
        {offload_with("stimuli=\"cam_10ms?type=PeriodicStimulus\" ", ""),
         ":26:5: ", "is not activated by a PeriodicStimulus"},
        {offload_with("<taskAllocation task=\"Cam?type=Task\" scheduler=\"CpuSched?type=TaskScheduler\"/>", ""),
         ":26:5: ", "allocates it to no processing unit"},
        {offload_with("<calls xsi:type=\"am:TaskRunnableCall\" runnable=\"kern?type=Runnable\"/>",
                      "<calls xsi:type=\"am:TaskRunnableCall\" runnable=\"kern?type=Runnable\"/>" + wait),
         ":45:80: ", "a WaitEvent in task 'Infer' on the GPU"},
    };
    for (const Case& c : cases) {
        INFO(c.message);
        const auto r = waters_cli(c.text);
        CHECK(r.exit_code == 3);
        CHECK(r.out.empty());
        CHECK(r.err.find("m.amxmi" + c.where) != std::string::npos);
        CHECK(r.err.find(c.message) != std::string::npos);
    }
}

namespace {

const GpuContext& waters_context(const Workload& w, const std::string& stream) {
    const Stream& s = waters_stream(w, stream);
    REQUIRE(static_cast<std::size_t>(s.context) < w.contexts.size());
    return w.contexts[static_cast<std::size_t>(s.context)];
}

bool waters_assumes(const AmaltheaImport& im, const std::string& part) {
    return std::any_of(im.notes.begin(), im.notes.end(),
                       [&](const std::string& n) { return n.find(part) != std::string::npos; });
}

}  // namespace

TEST_CASE("WATERS 2019: GPU_Sched's time slices give one context per GPU task, in every version", "[amalthea]") {
    // GPU_Sched (UserSpecificSchedulingAlgorithm, slices 1000 to 50000 us); the allocations give
    // TimeSlice_SFM = 7200 us and 50000 us to the others.
    for (const std::string& version :
         std::vector<std::string>{waters_098, "tests/data/amalthea-waters2019/waters2019_0.9.9.amxmi",
                                  "tests/data/amalthea-waters2019/waters2019_1.0.0.amxmi",
                                  "tests/data/amalthea-waters2019/waters2019_2.0.0.amxmi"}) {
        INFO(version);
        const AmaltheaImport im = waters_import(version);
        const Workload& w = im.workload;
        REQUIRE(w.contexts.size() == 4);
        CHECK(w.sliced());
        CHECK(waters_context(w, "SFM").timeslice == Time(36, 5));
        CHECK(waters_context(w, "SFM").name == "SFM");
        for (const char* other : {"Localization", "Lane_detection", "Detection"})
            CHECK(waters_context(w, other).timeslice == 50);
        CHECK(w.platform.context_switch == Time(1, 5));  // the default, stated
        CHECK(waters_assumes(im, "GPU scheduler 'GPU_Sched'"));
        CHECK(waters_assumes(im, "0.2"));
    }
    AmaltheaImportOptions one;
    one.grid = waters_grids;
    one.one_process = true;
    const AmaltheaImport im = import_amalthea_file(test::source_path(waters_098), one);
    CHECK(im.workload.contexts.empty());
    CHECK(waters_assumes(im, "--one-process"));
}

TEST_CASE("WATERS 2019: a time slice outside the scheduler's bounds, or another GPU scheduler, is refused",
          "[amalthea][cli]") {
    const std::string text = test::slurp(test::source_path(waters_098));
    auto changed = [&](const std::string& from, const std::string& to, std::string t = "") {
        if (t.empty()) t = text;
        const auto at = t.find(from);
        REQUIRE(at != std::string::npos);
        t.replace(at, from.size(), to);
        return t;
    };
    std::vector<std::string> grids;
    for (const auto& [kernel, grid] : waters_grids) {
        grids.push_back("--grid");
        grids.push_back(kernel + "=" + std::to_string(grid));
    }
    struct Case {
        std::string text, where, message;
    };
    const std::vector<Case> cases = {
        {changed("value=\"7200µs\"", "value=\"500µs\""), ":835:",
         "the time slice of task 'SFM', 0.5 ms, is outside the GPU scheduler's [minimumTimeslice, "
         "maximumTimeslice] = [1, 50] ms"},
        {changed("value=\"7200µs\"", "value=\"50001 us\""), ":835:", "is outside"},
        {changed("key=\"TimeSlice_SFM\"", "key=\"Slice\""), ":834:", "gives no time slice"},
        {changed("key=\"minimumTimeslice\"", "key=\"minimum\"",
                 changed("am:UserSpecificSchedulingAlgorithm", "am:EarliestDeadlineFirst")),
         ":704:", "with the algorithm 'EarliestDeadlineFirst', which gpuwcrt does not read as a GPU scheduler"},
    };
    for (const Case& c : cases) {
        INFO(c.message);
        const auto r = waters_cli(c.text, grids);
        CHECK(r.exit_code == 3);
        CHECK(r.out.empty());
        CHECK(r.err.find("m.amxmi" + c.where) != std::string::npos);
        CHECK(r.err.find(c.message) != std::string::npos);
    }
    // --one-process is the user's way around a scheduler gpuwcrt does not read, and it is stated.
    grids.push_back("--one-process");
    const auto r = waters_cli(cases.back().text, grids);
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("--one-process: the GPU tasks are streams of one process") != std::string::npos);
}
