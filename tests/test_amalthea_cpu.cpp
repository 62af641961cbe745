// import-amalthea's CPU side (model/io/amalthea/cpu_side.*): the WATERS 2019 model's tasks on
// CPU cores, their affinities, priorities, periods and executions, in every published version
// and in MobSTr's remapped models, and what the importer refuses.
#include <catch2/catch.hpp>

#include <sstream>

#include "model/io/amalthea/import_amalthea.hpp"
#include "model/io/cpu/write_cpu.hpp"
#include "model/io/read_input.hpp"
#include "model/io/write_toml.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

AmaltheaImport cpu_waters_import(const std::string& relative, const std::map<std::string, std::int64_t>& grids) {
    AmaltheaImportOptions o;
    o.grid = grids;
    return import_amalthea_file(test::source_path(relative), o);
}

const std::map<std::string, std::int64_t> cpu_waters_grids = {
    {"SFM_Function", 2}, {"Localization_Function", 2}, {"Lane_Detection_Function", 2}, {"Detection_Function", 2}};

const CpuTask& cpu_task_named(const Workload& w, const std::string& name) {
    for (const CpuTask& t : w.cpu.tasks)
        if (t.name == name) return t;
    FAIL("no cpu task " << name);
    return w.cpu.tasks.front();
}

std::vector<std::string> cpu_names_of(const Workload& w, const CpuTask& t) {
    std::vector<std::string> out;
    for (const int c : t.cpus) out.push_back(w.cpu.cpus[c].name);
    return out;
}

std::string cpu_side_text(const Workload& w) {
    std::ostringstream out;
    write_cpu_side(out, w);
    return out.str();
}

bool cpu_note_has(const AmaltheaImport& im, const std::string& phrase) {
    for (const std::string& n : im.notes)
        if (n.find(phrase) != std::string::npos) return true;
    return false;
}

// Ticks at 2 GHz in ms: ticks / 2 000 000.
Time at_2ghz(std::int64_t ticks) { return Time(ticks, 2000000); }

}  // namespace

// Each task on the core its taskAllocation's affinity names, priority 1 as the model says, its
// runnables' Ticks on that core's own definition (Denver for Core0-1, A57 for Core2-5) at 2 GHz:
// DASM_Function Denver [2099996, 2599996], CAN_Function Denver [799744, 1199744] (the values
// bench/waters2019/cpu-side once transcribed by hand: [1.049998, 1.299998], [0.399872,
// 0.599872]), OS_Ops_Function 100000000 = 50 ms, Planner_Function A57 [19243822, 26483822],
// EKF_Function A57 [7959340, 9519340], Lidar_Function Denver [19588000, 21736000]; the offloading
// tasks split at their trigger, e.g. Lane_Detection_Preprocessing A57 [6573410, 7951921] before
// and Lane_Detection_Postprocessing [6999284, 8513680] after; PRE_SFM_gpu_POST on Core0 and
// Core1 (Denver both), SFM_Preprocessing [5151424, 6355142].
TEST_CASE("AMALTHEA CPU side: the WATERS 2019 tasks, cores, priorities and executions", "[amalthea]") {
    const AmaltheaImport im = cpu_waters_import("cases/waters2019/ChallengeModel_release_fix.amxmi", cpu_waters_grids);
    const Workload& w = im.workload;
    REQUIRE(w.cpu.cpus.size() == 5);
    CHECK(w.cpu.cpus[0].name == "Core0");
    CHECK(w.cpu.cpus[4].name == "Core5");
    REQUIRE(w.cpu.tasks.size() == 10);
    for (const CpuTask& t : w.cpu.tasks) CHECK(t.priority == 1);
    const auto check = [&](const std::string& name, std::vector<std::string> cores, int period, Time lo, Time hi) {
        INFO(name);
        const CpuTask& t = cpu_task_named(w, name);
        CHECK(cpu_names_of(w, t) == cores);
        CHECK(t.arrival.period == period);
        CHECK(t.execution.lo == lo);
        CHECK(t.execution.hi == hi);
    };
    check("DASM", {"Core0"}, 5, at_2ghz(2099996), at_2ghz(2599996));
    check("CANbus_polling", {"Core0"}, 10, at_2ghz(799744), at_2ghz(1199744));
    check("OS_Overhead", {"Core0"}, 100, 50, 50);
    check("Planner", {"Core3"}, 15, at_2ghz(19243822), at_2ghz(26483822));
    check("EKF", {"Core4"}, 15, at_2ghz(7959340), at_2ghz(9519340));
    check("Lidar_Grabber", {"Core1"}, 33, at_2ghz(19588000), at_2ghz(21736000));
    check("PRE_Lane_detection_gpu_POST", {"Core5"}, 66, at_2ghz(6573410), at_2ghz(7951921));
    check("PRE_SFM_gpu_POST", {"Core0", "Core1"}, 33, at_2ghz(5151424), at_2ghz(6355142));
    check("PRE_Localization_gpu_POST", {"Core0", "Core1"}, 400, at_2ghz(6031488), at_2ghz(16431488));
    const CpuTask& lane = cpu_task_named(w, "PRE_Lane_detection_gpu_POST");
    REQUIRE(lane.gpu);
    CHECK(w.streams[*lane.gpu].name == "Lane_detection");
    CHECK(lane.after_gpu.lo == at_2ghz(6999284));
    CHECK(lane.after_gpu.hi == at_2ghz(8513680));
    CHECK_FALSE(cpu_task_named(w, "DASM").gpu);
    // The driven stream's window is its task's pre-GPU part; the fixed point widens it.
    CHECK(w.streams[*lane.gpu].arrival.offset == at_2ghz(6573410));
    CHECK(w.streams[*lane.gpu].arrival.jitter == at_2ghz(7951921 - 6573410));
    CHECK(cpu_note_has(im, "the model contradicts itself: task 'CANbus_polling'"));
    CHECK_FALSE(cpu_note_has(im, "not delayed"));
    // Written as TOML it reads back the same.
    const std::string text = workload_to_toml(w);
    CHECK(workload_to_toml(load_workload_text(text, "again.toml")) == text);
}

TEST_CASE("AMALTHEA CPU side: every published version imports the same CPU side", "[amalthea]") {
    const std::string first = cpu_side_text(
        cpu_waters_import("cases/waters2019/ChallengeModel_release_fix.amxmi", cpu_waters_grids).workload);
    for (const char* later : {"tests/data/amalthea-waters2019/waters2019_0.9.9.amxmi",
                              "tests/data/amalthea-waters2019/waters2019_1.0.0.amxmi",
                              "tests/data/amalthea-waters2019/waters2019_2.0.0.amxmi"}) {
        INFO(later);
        CHECK(cpu_side_text(cpu_waters_import(later, cpu_waters_grids).workload) == first);
    }
}

// MobSTr's remapping: Lane detection runs on Denver Core1 and Localization on A57 Core3, each
// within the task that triggers it (same priority, same core): PRE_Lane_detection_gpu_POST
// executes Lane_Detection_Preprocessing [6151472, 7051367], then Lane_Detection_Function's Denver
// Ticks [76875648, 84475648], then Lane_Detection_Postprocessing [5999632, 8199496]. Priorities are
// the allocations' values; OS_Overhead's 2.0.0 allocation has none (1.0.0's has 0), which the
// import asks for rather than choose.
TEST_CASE("AMALTHEA CPU side: the remapped 2.0.0 models run Lane detection and Localization on CPUs", "[amalthea]") {
    const auto mapped = [](const char* model, bool with_priority) {
        AmaltheaImportOptions o;
        o.grid = {{"SFM_Function", 2}, {"Detection_Function", 2}};
        if (with_priority) o.priority = {{"OS_Overhead", 0}};
        return import_amalthea_file(test::source_path(model), o);
    };
    for (const char* model : {"tests/data/amalthea-waters2019/waters2019_2.0.0_mapped.amxmi",
                              "tests/data/amalthea-waters2019/waters2019_2.0.0_mapped+safety.amxmi"}) {
        INFO(model);
        CHECK_THROWS_WITH(mapped(model, false), Catch::Contains("--priority OS_Overhead=N"));
        const AmaltheaImport im = mapped(model, true);
        const Workload& w = im.workload;
        REQUIRE(w.streams.size() == 2);
        const CpuTask& lane = cpu_task_named(w, "PRE_Lane_detection_gpu_POST");
        CHECK_FALSE(lane.gpu);
        CHECK(cpu_names_of(w, lane).size() == 1);
        CHECK(lane.execution.hi == at_2ghz(7051367 + 84475648 + 8199496));
        CHECK(cpu_note_has(im, "task 'Lane_detection'"));
        CHECK(cpu_note_has(im, "task 'Localization'"));
        CHECK(cpu_note_has(im, "priority of task 'OS_Overhead' given by --priority: 0"));
        CHECK(cpu_task_named(w, "OS_Overhead").priority == 0);
        for (const CpuTask& t : w.cpu.tasks) {
            CHECK(t.name != "Lane_detection");
            CHECK(t.name != "Localization");
        }
    }
    const Workload w = mapped("tests/data/amalthea-waters2019/waters2019_2.0.0_mapped.amxmi", true).workload;
    const CpuTask& lane = cpu_task_named(w, "PRE_Lane_detection_gpu_POST");
    CHECK(cpu_names_of(w, lane) == std::vector<std::string>{"Core1"});
    CHECK(lane.priority == 2);
    CHECK(lane.execution.lo == at_2ghz(6151472 + 76875648 + 5999632));
    CHECK(cpu_task_named(w, "Planner").priority == 9);
}

TEST_CASE("AMALTHEA CPU side: another CPU scheduler leaves the CPU side out, said, as --gpu-only does",
          "[amalthea][cli]") {
    std::string text = read_input_file(test::source_path("cases/waters2019/ChallengeModel_release_fix.amxmi"));
    const std::string fpp = "<schedulingAlgorithm xsi:type=\"am:FixedPriorityPreemptive\" />";
    const auto at = text.rfind(fpp);
    REQUIRE(at != std::string::npos);
    text.replace(at, fpp.size(), "<schedulingAlgorithm xsi:type=\"am:EarliestDeadlineFirst\" />");
    const std::string file = test::write_file(test::temp_dir(), "edf.amxmi", text);
    std::vector<std::string> args = {"import-amalthea", file};
    for (const auto& [kernel, grid] : cpu_waters_grids)
        args.insert(args.end(), {"--grid", kernel + "=" + std::to_string(grid)});
    const auto edf = test::run_cli(args);
    CHECK(edf.exit_code == 0);
    CHECK(edf.out.find("[[cpu_task]]") == std::string::npos);
    CHECK(edf.out.find("with the algorithm 'EarliestDeadlineFirst'") != std::string::npos);
    CHECK(edf.out.find("not delayed by other CPU tasks") != std::string::npos);
    args[1] = test::source_path("cases/waters2019/ChallengeModel_release_fix.amxmi");
    CHECK(test::run_cli(args).out.find("[[cpu_task]]") != std::string::npos);
    args.push_back("--gpu-only");
    const auto gpu_only = test::run_cli(args);
    CHECK(gpu_only.exit_code == 0);
    CHECK(gpu_only.out.find("[[cpu_task]]") == std::string::npos);
    CHECK(gpu_only.out.find("--gpu-only") != std::string::npos);
    CHECK(gpu_only.out.find("not delayed by other CPU tasks") != std::string::npos);
}
