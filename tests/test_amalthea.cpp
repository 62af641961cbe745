// import-amalthea (model/io/amalthea/, app/amalthea/): the hand-written models in
// tests/data/amalthea/ and cases/thesis/example.amxmi, whose expected values are derived in a
// comment at the top of each file.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bounds/rta/rta_workload.hpp"
#include "model/io/amalthea/import_amalthea.hpp"
#include "model/io/write_toml.hpp"
#include "sim/scenario.hpp"
#include "sim/simulate.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

std::string data(const std::string& file) { return test::source_path("tests/data/amalthea/" + file); }

AmaltheaImport import(const std::string& path, std::optional<Time> tick = std::nullopt,
                      const std::map<std::string, std::int64_t>& grid = {}) {
    AmaltheaImportOptions o;
    o.tick_time = tick;
    o.grid = grid;
    return import_amalthea_file(path, o);
}

const Operation& op(const Workload& w, const std::string& name) {
    const auto i = w.find_op(name);
    INFO("operation " << name);
    REQUIRE(i);
    return w.ops[static_cast<std::size_t>(*i)];
}

void check_kernel(const Workload& w, const std::string& name, std::int64_t blocks, std::int64_t threads, Time lo,
                  Time hi) {
    const Operation& k = op(w, name);
    INFO("kernel " << name);
    CHECK(k.is_kernel());
    CHECK(k.blocks == blocks);
    CHECK(k.threads == threads);
    CHECK(k.time.lo == lo);
    CHECK(k.time.hi == hi);
}

std::string stream_of(const Workload& w, const std::string& name) {
    return w.streams[static_cast<std::size_t>(op(w, name).stream)].name;
}

// An error model as text in a scratch file; returns the CLI run.
test::CliRun import_amalthea_text(const std::string& text,
                                  const std::vector<std::string>& options = {"--tick-time", "1"}) {
    const std::string file = test::write_file(test::temp_dir(), "m.amxmi", text);
    std::vector<std::string> args = {"import-amalthea", file};
    args.insert(args.end(), options.begin(), options.end());
    return test::run_cli(args);
}

const std::string head =
    "<am:Amalthea xmlns:am=\"http://app4mc.eclipse.org/amalthea/2.0.0\" "
    "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n";

// One runnable with GridSize 2, the given activityGraph items, inside a model with `extra`.
std::string one_runnable(const std::string& items, const std::string& extra = "") {
    return head + "<swModel>\n<runnables name=\"k\">\n" +
           "<customProperties key=\"GridSize\"><value xsi:type=\"am:IntegerObject\" "
           "value=\"2\"/></customProperties>\n" +
           "<activityGraph>\n" + items + "</activityGraph>\n</runnables>\n</swModel>\n" + extra + "</am:Amalthea>\n";
}

const std::string constant_ticks =
    "<items xsi:type=\"am:Ticks\"><default xsi:type=\"am:DiscreteValueConstant\" value=\"3\"/></items>\n";

}  // namespace

TEST_CASE("the thesis example as AMALTHEA gives the kernels of example.toml and the §3.5 RTA", "[amalthea]") {
    const Workload w = import(test::source_path("cases/thesis/example.amxmi"), Time(1)).workload;
    const Workload t = load_workload_file(test::source_path("cases/thesis/example.toml"));
    REQUIRE(w.ops.size() == t.ops.size());
    for (std::size_t i = 0; i < t.ops.size(); ++i) {
        const Operation& a = w.ops[i];
        const Operation& b = t.ops[i];
        INFO(b.name);
        CHECK(a.name == b.name);
        CHECK(a.blocks == b.blocks);
        CHECK(a.threads == b.threads);
        CHECK(a.time.lo == b.time.lo);
        CHECK(a.time.hi == b.time.hi);
        CHECK(a.issue.kind == IssueSpec::Kind::at);
        CHECK(a.issue.at.lo == 0);
        CHECK(a.issue.at.hi == 0);
        CHECK(a.stream != w.ops[(i + 1) % t.ops.size()].stream);  // one kernel per stream
        CHECK_FALSE(a.deadline);                                  // T = 15 is not in the software model
    }
    CHECK(w.time_unit.empty());
    // §3.5: "The completion times f = {4, 10, 12, 11} were explained" (file order τ1 τ2 τ3 τ4).
    const RtaOutcome r = rta(w, rta_launch_order(w, launch_ranks(w, {})));
    const std::vector<Time> f = {4, 10, 12, 11};
    for (std::size_t i = 0; i < f.size(); ++i) CHECK(*r.finish_of(static_cast<int>(i)) == f[i]);
    // §4.2 scenario 1, order τ2 τ3 τ4 τ1: "f = {6, 12, 11, 10}".
    const RtaOutcome s = rta(w, rta_launch_order(w, launch_ranks(w, {"t2", "t3", "t4", "t1"})));
    CHECK(*s.finish_of(*w.find_op("t2")) == 6);
    CHECK(*s.finish_of(*w.find_op("t3")) == 12);
    CHECK(*s.finish_of(*w.find_op("t4")) == 11);
    CHECK(*s.finish_of(*w.find_op("t1")) == 10);
}

TEST_CASE("AMALTHEA 0.9: GPU frequency, mapping, extended Ticks, periodic task with jitter", "[amalthea]") {
    const AmaltheaImport im = import(data("periodic_gpu_0.9.amxmi"));
    const Workload& w = im.workload;
    CHECK(im.model_version == "0.9.5");
    CHECK(w.time_unit == "ms");
    REQUIRE(w.streams.size() == 1);  // Plan is on the CPU
    CHECK(w.streams[0].name == "Detect");
    // The task's own PeriodicStimulus: one periodic stream, frame k released in [1, 1.5] + 10k.
    const Arrival& a = w.streams[0].arrival;
    CHECK(a.kind == Arrival::Kind::periodic);
    CHECK(a.period == 10);
    CHECK(a.offset == 1);
    CHECK(a.jitter == Time(1, 2));
    REQUIRE(w.ops.size() == 2);
    check_kernel(w, "pre", 4, 256, 1, 1);
    CHECK(op(w, "pre").shared_mem == 2048);
    CHECK(op(w, "pre").registers == 32);
    CHECK_FALSE(op(w, "pre").deadline);
    CHECK(op(w, "pre").issue.kind == IssueSpec::Kind::at);  // at the frame's release
    CHECK(op(w, "pre").issue.at.hi == 0);
    check_kernel(w, "infer", 6, 512, 4, 4);
    CHECK(op(w, "infer").issue.kind == IssueSpec::Kind::with_previous);
    CHECK_FALSE(op(w, "infer").deadline);  // the model states no requirement: no deadline is invented
    CHECK(op(w, "infer").position == 1);
}

TEST_CASE("AMALTHEA 2.x: every bounded Ticks form is an interval, --tick-time in ms", "[amalthea]") {
    const AmaltheaImport im = import(data("bounded_2.1.amxmi"), Time(1, 1000));
    const Workload& w = im.workload;
    CHECK(im.model_version == "2.1.0");
    CHECK(w.time_unit == "ms");
    check_kernel(w, "bounds", 2, 512, 1, 3);
    check_kernel(w, "stats", 3, 512, Time(1, 2), Time(3, 2));
    check_kernel(w, "uniform", 1, 1024, 2, 2);
    check_kernel(w, "weibull", 8, 512, Time(1, 10), Time(2, 5));
    check_kernel(w, "beta", 4, 512, Time(1, 4), Time(3, 4));
    check_kernel(w, "two", 2, 512, Time(3, 20), Time(1, 4));
    CHECK(stream_of(w, "bounds") == "Chain");
    CHECK(stream_of(w, "stats") == "Chain");
    CHECK(op(w, "stats").issue.kind == IssueSpec::Kind::with_previous);
    CHECK_FALSE(op(w, "stats").deadline);
    CHECK_FALSE(op(w, "bounds").deadline);
    for (const char* own : {"uniform", "weibull", "beta", "two"}) {
        CHECK(stream_of(w, own) == own);
        CHECK(op(w, own).issue.at.hi == 0);
        CHECK_FALSE(op(w, own).deadline);
    }
}

TEST_CASE("an imported workload written as TOML loads back equal", "[amalthea]") {
    const Workload w = import(data("offload_0.9.2.amxmi"), std::nullopt, {{"kern", 4}}).workload;
    const Workload back = test::workload_from(workload_to_toml(w));
    REQUIRE(back.ops.size() == w.ops.size());
    CHECK(back.time_unit == "ms");
    REQUIRE(back.streams.size() == 1);
    CHECK(back.streams[0].arrival.period == w.streams[0].arrival.period);
    CHECK(back.streams[0].arrival.offset == w.streams[0].arrival.offset);
    CHECK(back.streams[0].arrival.jitter == w.streams[0].arrival.jitter);
    for (std::size_t i = 0; i < w.ops.size(); ++i) {
        INFO(w.ops[i].name);
        CHECK(back.ops[i].name == w.ops[i].name);
        CHECK(back.ops[i].kind == w.ops[i].kind);
        CHECK(back.ops[i].time.hi == w.ops[i].time.hi);
        CHECK(back.ops[i].issue.kind == w.ops[i].issue.kind);
        CHECK(back.ops[i].issue.at.hi == w.ops[i].issue.at.hi);
        CHECK(back.ops[i].deadline == w.ops[i].deadline);
    }
}

TEST_CASE("gpuwcrt import-amalthea writes a workload rta reads, never over its input", "[amalthea][cli]") {
    const std::string dir = test::temp_dir();
    const std::string out = dir + "/thesis.toml";
    const auto r = test::run_cli(
        {"import-amalthea", test::source_path("cases/thesis/example.amxmi"), "--tick-time", "1", "-o", out});
    REQUIRE(r.exit_code == 0);
    const auto sim = test::run_cli({"rta", out, "--json"});
    REQUIRE(sim.exit_code == 0);
    std::vector<std::string> finish;  // §3.5: f = {4, 10, 12, 11}
    const nlohmann::json j = nlohmann::json::parse(sim.out);
    for (const auto& o : j["operations"]) finish.push_back(o["finish"]);
    CHECK(finish == std::vector<std::string>{"4", "10", "12", "11"});
    const std::string copy = test::write_file(dir, "m.amxmi", "<x/>");
    const auto same = test::run_cli({"import-amalthea", copy, "--tick-time", "1", "-o", copy});
    CHECK(same.exit_code == 3);
    std::ifstream in(copy);
    CHECK(std::string(std::istreambuf_iterator<char>(in), {}) == "<x/>");
}

TEST_CASE("import-amalthea input errors carry file:line:column and exit 3", "[amalthea][cli]") {
    struct Case {
        std::string file;
        std::vector<std::string> options;
        std::string where, message;
    };
    const std::vector<Case> cases = {
        {"err_missing_gridsize.amxmi", {"--tick-time", "1"}, ":5:5: ", "without a grid (the custom property GridSize"},
        {"err_unknown_ticks.amxmi", {"--tick-time", "1"}, ":9:11: ", "'DiscreteValueHistogram' cannot be read"},
        {"err_no_tick_time.amxmi", {}, ":4:1: ", "give --tick-time T"},
        {"err_malformed.amxmi", {"--tick-time", "1"}, ":8:5: ", "malformed XML"},
    };
    for (const Case& c : cases) {
        INFO(c.file);
        const auto r = test::run_cli([&] {
            std::vector<std::string> a = {"import-amalthea", data(c.file)};
            a.insert(a.end(), c.options.begin(), c.options.end());
            return a;
        }());
        CHECK(r.exit_code == 3);
        CHECK(r.out.empty());
        CHECK(r.err.find(data(c.file) + c.where) == 0);
        CHECK(r.err.find(c.message) != std::string::npos);
    }
}

TEST_CASE("import-amalthea refuses what it cannot map instead of dropping it", "[amalthea][cli]") {
    struct Case {
        std::string text;
        std::vector<std::string> options;
        std::string message;
    };
    const std::string gpu_hw =
        "<hwModel><definitions xsi:type=\"am:ProcessingUnitDefinition\" name=\"P\" puType=\"GPU\"/>"
        "<structures name=\"S\"><modules xsi:type=\"am:ProcessingUnit\" name=\"G\" "
        "definition=\"P?type=ProcessingUnitDefinition\" frequencyDomain=\"F?type=FrequencyDomain\"/></structures>"
        "<domains xsi:type=\"am:FrequencyDomain\" name=\"F\"><defaultValue value=\"1\" unit=\"GHz\"/></domains>"
        "</hwModel>\n";
    const std::vector<Case> cases = {
        {one_runnable(constant_ticks + "<items xsi:type=\"am:LabelAccess\" access=\"read\"/>\n"),
         {"--tick-time", "1"},
         "has both Ticks and LabelAccess items"},
        {one_runnable("<items xsi:type=\"am:ModeSwitch\"/>\n"), {"--tick-time", "1"}, "unsupported item 'ModeSwitch'"},
        {one_runnable("<items xsi:type=\"am:Ticks\"><default xsi:type=\"am:DiscreteValueConstant\" value=\"0\"/>"
                      "</items>\n"),
         {"--tick-time", "1"},
         "ticks must be an integer from 1"},
        {one_runnable("<items xsi:type=\"am:Ticks\"><default xsi:type=\"am:DiscreteValueBoundaries\" "
                      "lowerBound=\"5\" upperBound=\"4\"/></items>\n"),
         {"--tick-time", "1"},
         "lowerBound 5 is above upperBound 4"},
        {one_runnable(constant_ticks, gpu_hw), {"--tick-time", "1"}, "--tick-time: the model fixes the tick duration"},
        {one_runnable(""), {"--tick-time", "1"}, "has no Ticks item"},
        {head +
             "<swModel><runnables name=\"a,b\"><customProperties key=\"GridSize\"><value "
             "xsi:type=\"am:IntegerObject\" value=\"2\"/></customProperties><activityGraph>" +
             constant_ticks + "</activityGraph></runnables></swModel></am:Amalthea>",
         {"--tick-time", "1"},
         "contains ','"},
        {head +
             "<swModel><runnables name=\"k\"><customProperties key=\"GridSize\"><value "
             "xsi:type=\"am:LongObject\" value=\"9223372036854775808\"/></customProperties><activityGraph>" +
             constant_ticks + "</activityGraph></runnables></swModel></am:Amalthea>",
         {"--tick-time", "1"},
         "'GridSize' = 9223372036854775808 must be an integer from 1 to 1099511627776"},
        {"<am:Amalthea xmlns:am=\"http://app4mc.eclipse.org/amalthea/0.8.2\"><swModel/></am:Amalthea>",
         {"--tick-time", "1"},
         "older than 0.9"},
        {"<am:Amalthea xmlns:am=\"http://app4mc.eclipse.org/amalthea/99.0.0\"><swModel/></am:Amalthea>",
         {"--tick-time", "1"},
         "AMALTHEA 99.0.0 is a model version gpuwcrt does not read: it reads 0.9.x, 1.x and 2.x"},
        {head + "<swModel><runnables name=\"k\"><activityGraph>" + constant_ticks +
             "</activityGraph></runnables></swModel></am:Amalthea>",
         {"--tick-time", "1"},
         "the model is software only: it has no hardware model (<hwModel>) and no runnable has the custom "
         "property GridSize"},
        {one_runnable("<items xsi:type=\"am:ExecutionNeed\"><default key=\"Instructions\"/></items>\n"),
         {"--tick-time", "1"},
         "migrate the model to AMALTHEA 0.9.3 or later with APP4MC's model migration"},
        {"<Amalthea/>", {"--tick-time", "1"}, "does not declare the AMALTHEA namespace"},
        {"<model/>", {"--tick-time", "1"}, "not an AMALTHEA model"},
        {one_runnable(constant_ticks), {"--tick-time", "0"}, "--tick-time: must be a positive exact number"},
        {one_runnable(constant_ticks),
         {"--tick-time", "1", "--frames", "2"},
         "--frames: is no longer an import option"},
        {one_runnable(constant_ticks), {"--tick-time", "1", "--grid", "k=0"}, "--grid: expects RUNNABLE=N"},
        {one_runnable(constant_ticks), {"--tick-time", "1", "--grid", "k"}, "--grid: expects RUNNABLE=N"},
        {one_runnable(constant_ticks), {"--tick-time", "1", "--grid", "k=2x"}, "--grid: expects RUNNABLE=N"},
        {one_runnable(constant_ticks), {"--tick-time", "1", "--grid", "k=3"}, "has the custom property GridSize = 2"},
        {one_runnable(constant_ticks), {"--tick-time", "1", "--grid", "nope=3"}, "'nope' is no kernel"},
        {one_runnable(constant_ticks), {"--tick-time", "1", "--block-size", "k=1025"}, "--block-size: expects"},
        {one_runnable(constant_ticks), {"--tick-time", "1", "--block-size", "k=4", "--block-size", "k=8"}, "twice"},
        {one_runnable(constant_ticks), {"--tick-time", "1", "--threads", "2000"}, "--threads: must be from 1 to 1024"},
    };
    for (const Case& c : cases) {
        INFO(c.text);
        const auto r = import_amalthea_text(c.text, c.options);
        CHECK(r.exit_code == 3);
        CHECK(r.out.empty());
        CHECK(r.err.find(c.message) != std::string::npos);
    }
}

TEST_CASE("import-amalthea: tasks, stimuli and mappings it cannot model are input errors", "[amalthea][cli]") {
    const std::string runnable =
        "<runnables name=\"k\"><customProperties key=\"GridSize\"><value xsi:type=\"am:IntegerObject\" "
        "value=\"2\"/></customProperties><activityGraph>" +
        constant_ticks + "</activityGraph></runnables>\n";
    auto task = [&](const std::string& attributes, const std::string& items) {
        return "<tasks name=\"T\" " + attributes + "><activityGraph>" + items + "</activityGraph></tasks>\n";
    };
    const std::string call = "<items xsi:type=\"am:RunnableCall\" runnable=\"k?type=Runnable\"/>";
    auto model = [&](const std::string& sw, const std::string& rest = "") {
        return head + "<swModel>\n" + sw + runnable + "</swModel>\n" + rest + "</am:Amalthea>\n";
    };
    const std::vector<std::pair<std::string, std::string>> cases = {
        {model(task("", "<items xsi:type=\"am:Group\" ordered=\"false\">" + call + call + "</items>")),
         "an unordered Group"},
        {model(task("", call + "<items xsi:type=\"am:WaitEvent\"/>")), "a WaitEvent in task 'T' on the GPU"},
        {model(task("", "<items xsi:type=\"am:ModeSwitch\"/>")), "unsupported item 'ModeSwitch' in a task's graph"},
        {model(
             task("", call + "<items xsi:type=\"am:InterProcessTrigger\" stimulus=\"S?type=InterProcessStimulus\"/>")),
         "an InterProcessTrigger in task 'T', which is imported as GPU work"},
        {model(task("", "<items xsi:type=\"am:RunnableCall\" runnable=\"nope?type=Runnable\"/>")),
         "which is no runnable of this model"},
        {model(task("stimuli=\"S?type=SporadicStimulus\"", call),
               "<stimuliModel><stimuli xsi:type=\"am:SporadicStimulus\" name=\"S\"/></stimuliModel>\n"),
         "stimulus of type 'SporadicStimulus' is not supported"},
        {model(task("stimuli=\"S?type=PeriodicStimulus\"", call),
               "<stimuliModel><stimuli xsi:type=\"am:PeriodicStimulus\" name=\"S\"><recurrence value=\"1\" "
               "unit=\"min\"/></stimuli></stimuliModel>\n"),
         "time unit 'min' is not one of"},
        {model(task("", call),
               "<mappingModel><taskAllocation task=\"T?type=Task\" scheduler=\"X?type=TaskScheduler\"/>"
               "</mappingModel>\n"),
         "the mapping places no task on a GPU"},
        {model(runnable), "two runnables are named 'k'"},
    };
    for (const auto& [text, message] : cases) {
        INFO(text);
        const auto r = import_amalthea_text(text);
        CHECK(r.exit_code == 3);
        CHECK(r.err.find(message) != std::string::npos);
        CHECK(r.err.find("m.amxmi:") != std::string::npos);
    }
}

TEST_CASE("a runnable called twice is two kernels, a TimeConstant jitter a fixed delay, - reads stdin",
          "[amalthea][cli]") {
    // Task T (activityGraph) calls k twice; its PeriodicStimulus has offset 2 ms, recurrence
    // 5 ms and a TimeConstant jitter of 250 us: a stream of period 5 whose frame k is released
    // at 2.25 + 5k ms (offset 9/4, no jitter left), both calls issued at the release, the
    // second named "k (2)" (names are unique); no deadline, which the model does not state. k has 3 ticks of
    // 1/1000 ms each: block time 3/1000 ms.
    const std::string model =
        head +
        "<swModel>\n<tasks name=\"T\" stimuli=\"S?type=PeriodicStimulus\"><activityGraph>"
        "<items xsi:type=\"am:RunnableCall\" runnable=\"k?type=Runnable\"/>"
        "<items xsi:type=\"am:RunnableCall\" runnable=\"k?type=Runnable\"/></activityGraph></tasks>\n"
        "<runnables name=\"k\"><customProperties key=\"GridSize\"><value xsi:type=\"am:IntegerObject\" value=\"2\"/>"
        "</customProperties><activityGraph>" +
        constant_ticks +
        "</activityGraph></runnables>\n</swModel>\n"
        "<stimuliModel><stimuli xsi:type=\"am:PeriodicStimulus\" name=\"S\"><offset value=\"2\" unit=\"ms\"/>"
        "<recurrence value=\"5\" unit=\"ms\"/><jitter xsi:type=\"am:TimeConstant\"><value value=\"250\" unit=\"us\"/>"
        "</jitter></stimuli></stimuliModel>\n</am:Amalthea>\n";
    const Workload w = import_amalthea_text(model, "m.amxmi",
                                            [] {
                                                AmaltheaImportOptions o;
                                                o.tick_time = Time(1, 1000);
                                                return o;
                                            }())
                           .workload;
    REQUIRE(w.ops.size() == 2);
    CHECK(w.ops[0].name == "k");
    CHECK(w.ops[1].name == "k (2)");
    REQUIRE(w.streams.size() == 1);
    CHECK(w.streams[0].arrival.offset == Time(9, 4));
    CHECK(w.streams[0].arrival.jitter == 0);
    CHECK(w.streams[0].arrival.period == 5);
    CHECK(w.ops[0].issue.at.hi == 0);
    CHECK(w.ops[1].issue.kind == IssueSpec::Kind::with_previous);
    CHECK_FALSE(w.ops[1].deadline);
    CHECK(w.ops[0].time.hi == Time(3, 1000));
    const auto r = test::run_cli({"import-amalthea", "-", "--tick-time", "1/1000"}, model);
    REQUIRE(r.exit_code == 0);
    const Workload back = test::workload_from(r.out);
    REQUIRE(back.ops.size() == 2);
    CHECK(back.ops[1].name == "k (2)");
    CHECK(back.streams[0].arrival.offset == Time(9, 4));
}

TEST_CASE("a kernel alone takes its Ticks whatever grid and block size it is given", "[amalthea]") {
    // k has 12 ticks of 1: measured alone, it takes 12. On the TX2 (2 SMs of 2048 threads, at
    // most 32 blocks each) a grid of g blocks of b threads runs in ceil(g / (2 * min(32, 2048 /
    // b))) waves; whatever g and b, the simulated kernel alone must take 12, not 12 per wave.
    const std::string model = head +
                              "<swModel>\n<runnables name=\"k\"><activityGraph>"
                              "<items xsi:type=\"am:Ticks\"><default xsi:type=\"am:DiscreteValueConstant\" "
                              "value=\"12\"/></items></activityGraph></runnables>\n</swModel>\n</am:Amalthea>\n";
    struct Shape {
        std::int64_t grid, block_size, waves;
    };
    const std::vector<Shape> shapes = {{1, 512, 1}, {8, 512, 1}, {9, 512, 2},  {40, 512, 5}, {40, 1024, 10},
                                       {64, 32, 1}, {65, 32, 2}, {100, 64, 2}, {7, 1024, 2}, {5, 1000, 2}};
    for (const Shape& s : shapes) {
        INFO("grid " << s.grid << ", block size " << s.block_size);
        AmaltheaImportOptions o;
        o.tick_time = Time(1);
        o.grid = {{"k", s.grid}};
        o.block_size = {{"k", s.block_size}};
        const AmaltheaImport im = import_amalthea_text(model, "m.amxmi", o);
        const Workload& w = im.workload;
        REQUIRE(w.ops.size() == 1);
        CHECK(w.ops[0].time.hi == Time(12) / s.waves);
        const Schedule alone = simulate(w);
        CHECK(alone.response(0) == 12);
        const bool waves_named = std::any_of(im.notes.begin(), im.notes.end(), [](const std::string& n) {
            return n.find("waves alone on the GPU") != std::string::npos;
        });
        CHECK(waves_named == (s.waves > 1));
    }
}
