// The model's requirements imported (model/io/amalthea/requirements.*): the nine of the WATERS
// 2019 model in its published versions, a requirement on a GPU task, what is not checked, and
// the warnings about limits that contradict the model.
#include <catch2/catch.hpp>

#include "model/io/amalthea/import_amalthea.hpp"
#include "model/io/read_input.hpp"
#include "model/io/write_toml.hpp"
#include "model/cpu/requirement_target.hpp"
#include "solver/cpu/cpu_side.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

AmaltheaImport requirement_waters_import(const std::string& relative) {
    AmaltheaImportOptions o;
    o.grid = {
        {"SFM_Function", 2}, {"Localization_Function", 2}, {"Lane_Detection_Function", 2}, {"Detection_Function", 2}};
    return import_amalthea_file(test::source_path(relative), o);
}

bool requirement_noted(const std::vector<std::string>& notes, const std::string& phrase) {
    for (const std::string& n : notes)
        if (test::contains(n, phrase)) return true;
    return false;
}

}  // namespace

// The constraintsModel of 0.9.8 (and, unchanged, of 2.0.0): nine ProcessRequirements, each an
// upper limit on a task's response time. Every task they name runs on a CPU, and the import
// brings each with its CPU side: every requirement is on its task, none dropped. Deadline_Task_Detection is on the 66
// ms lane-detection task with 200 ms, Deadline_Task_Lane_Detection on the 200 ms detection task with 66 ms: the period
// warning fires on the first, the name warning on both.
TEST_CASE("AMALTHEA requirements: the nine of WATERS 2019, the swapped pair warned", "[amalthea]") {
    const std::vector<std::tuple<std::string, std::string, Time>> expected{
        {"Deadline_Task_DASM", "DASM", 5},
        {"Deadline_Task_CAN", "CANbus_polling", 10},
        {"Deadline_Task_Planner", "Planner", 12},
        {"Deadline_Task_EKF", "EKF", 15},
        {"Deadline_Task_LIDAR", "Lidar_Grabber", 33},
        {"Deadline_Task_SFM", "PRE_SFM_gpu_POST", 33},
        {"Deadline_Task_Detection", "PRE_Lane_detection_gpu_POST", 200},
        {"Deadline_Task_Lane_Detection", "PRE_Detection_gpu_POST", 66},
        {"Deadline_Task_Localization", "PRE_Localization_gpu_POST", 400}};
    for (const char* file : {"cases/waters2019/ChallengeModel_release_fix.amxmi",
                             "tests/data/amalthea-waters2019/waters2019_2.0.0.amxmi"}) {
        INFO(file);
        const AmaltheaImport im = requirement_waters_import(file);
        const Workload& w = im.workload;
        REQUIRE(w.cpu.requirements.size() == expected.size());
        for (std::size_t i = 0; i < expected.size(); ++i) {
            const Requirement& q = w.cpu.requirements[i];
            CHECK(q.name == std::get<0>(expected[i]));
            CHECK(q.target == Requirement::Target::cpu_task);
            CHECK(requirement_target(w, q) == std::get<1>(expected[i]));
            CHECK(q.response_time == std::get<2>(expected[i]));
        }
        for (const Operation& op : w.ops) CHECK_FALSE(op.deadline);
        CHECK(requirement_noted(im.notes, "no deadline on the GPU streams"));
        CHECK(im.warnings.empty());  // every task imported: certify checks them, and warns
        const std::vector<std::string> named = requirement_warnings(w);
        REQUIRE(named.size() == 3);
        CHECK(test::contains(named[0],
                             "'Deadline_Task_Detection' allows 200, more than task "
                             "'PRE_Lane_detection_gpu_POST''s period 66"));
        CHECK(test::contains(named[1],
                             "'Deadline_Task_Detection' is on 'PRE_Lane_detection_gpu_POST' but its "
                             "name names 'Detection'"));
        CHECK(test::contains(named[2],
                             "'Deadline_Task_Lane_Detection' is on 'PRE_Detection_gpu_POST' but its "
                             "name names 'Lane_detection'"));
        // Written and read back, the requirements stay on their tasks.
        const Workload back = test::workload_from(workload_to_toml(w));
        REQUIRE(back.cpu.requirements.size() == expected.size());
        CHECK(back.cpu.requirements[7].target == Requirement::Target::cpu_task);
        CHECK(requirement_target(back, back.cpu.requirements[7]) == "PRE_Detection_gpu_POST");
    }
}

namespace {

std::string offload_with_constraints(const std::string& constraints) {
    std::string text = read_input_file(test::source_path("tests/data/amalthea/offload_0.9.2.amxmi"));
    text.replace(text.find("</am:Amalthea>"), 14,
                 "<constraintsModel>\n" + constraints + "</constraintsModel>\n</am:Amalthea>");
    return text;
}

std::string process_requirement(const std::string& name, const std::string& task, const std::string& type,
                                const std::string& ms) {
    return "<requirements xsi:type=\"am:ProcessRequirement\" name=\"" + name + "\" process=\"" + task +
           "?type=Task\"><limit xsi:type=\"am:TimeRequirementLimit\" limitType=\"" + type +
           "\" metric=\"ResponseTime\"><limitValue value=\"" + ms + "\" unit=\"ms\"/></limit></requirements>\n";
}

}  // namespace

// Infer is the GPU task (its stream), Cam the CPU task the import leaves out (period 10 ms).
TEST_CASE("AMALTHEA requirements: on the GPU task's frames, left out, or not checked and said", "[amalthea]") {
    const std::string model = offload_with_constraints(
        process_requirement("R_Infer", "Infer", "UpperLimit", "8") +
        process_requirement("R_Cam_low", "Cam", "LowerLimit", "1") +
        process_requirement("R_Cam", "Cam", "UpperLimit", "20") +
        "<timingConstraints xsi:type=\"am:EventChainLatencyConstraint\" name=\"E2E\" type=\"Age\"/>\n");
    AmaltheaImportOptions o;
    o.grid = {{"kern", 4}};
    const AmaltheaImport im = import_amalthea_text(model, "m.amxmi", o);
    const Workload& w = im.workload;
    REQUIRE(w.cpu.requirements.size() == 2);
    CHECK(w.cpu.requirements[0].target == Requirement::Target::stream);
    CHECK(w.streams[w.cpu.requirements[0].index].name == "Infer");
    CHECK(w.cpu.requirements[0].response_time == 8);
    CHECK(w.cpu.requirements[1].target == Requirement::Target::not_analysed);
    CHECK(requirement_noted(im.notes, "not checked: ProcessRequirement 'R_Cam_low'"));
    CHECK(requirement_noted(im.notes, "not checked: EventChainLatencyConstraint 'E2E'"));
    CHECK(requirement_noted(im.warnings, "'R_Cam' allows 20 ms, more than task 'Cam''s period 10 ms"));
    CHECK_FALSE(requirement_noted(im.notes, "no deadline on the GPU streams"));
    // certify lists the left-out one as unknown, the GPU task's against its frame bound.
    const std::string dir = test::temp_dir();
    const test::CliRun imported = test::run_cli(
        {"import-amalthea", test::write_file(dir, "m.amxmi", model), "--grid", "kern=4", "-o", dir + "/m.toml"});
    REQUIRE(imported.exit_code == 0);
    CHECK(test::contains(imported.err, "warning: requirement 'R_Cam'"));
    const test::CliRun cert = test::run_cli({"certify", dir + "/m.toml"});
    INFO(cert.out << cert.err);
    CHECK(test::contains(cert.out, "task not analysed"));
    CHECK(test::contains(cert.out, "R_Infer"));
    // A requirement on a task the model does not have is an error at the requirement.
    const std::string broken = offload_with_constraints(process_requirement("R_X", "Nobody", "UpperLimit", "5"));
    CHECK_THROWS_WITH(import_amalthea_text(broken, "m.amxmi", o),
                      Catch::Contains("m.amxmi:") && Catch::Contains("task 'Nobody', which the model does not have"));
}
