// Runs of the CPU tasks and the GPU frames together (sim/cpu/joint_run.hpp) and the refutations
// of requirements they give (solver/cpu/joint_refutation.hpp): against a hand derivation, against
// the CPU simulator when the GPU is never contended, against the GPU simulator when the releases
// are fixed.
#include <catch2/catch.hpp>

#include <random>

#include "model/frames/unroll.hpp"
#include "model/io/read_input.hpp"
#include "sim/cpu/joint_run.hpp"
#include "sim/cpu/simulate_cpu.hpp"
#include "sim/simulate.hpp"
#include "solver/cpu/cpu_side.hpp"
#include "solver/cpu/joint_refutation.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

// cases/cpu/offload_refuted.toml: its header derives every number below.
std::string joint_toml() { return read_input_file(test::source_path("cases/cpu/offload_refuted.toml")); }

}  // namespace

TEST_CASE("joint run: a requirement refuted by the CPU and the GPU together, derived by hand", "[cpu_side]") {
    const Workload w = test::workload_from(joint_toml());
    const JointRun run = joint_run(w, JointScenario{}, 45);
    REQUIRE(run.consistent);
    CHECK(run.rounds == 2);
    REQUIRE(run.jobs[0].size() == 3);  // released at 0, 20, 40
    const JointJob& j = run.jobs[0][0];
    CHECK(j.gpu_release == Time(4));
    CHECK(j.gpu_end == Time(14));
    CHECK(j.end == Time(15));
    CHECK(run.jobs[0][1].end == Time(35));
    const auto witnesses = joint_run_witnesses(w, Budget{}, std::vector<bool>(w.cpu.requirements.size(), true));
    REQUIRE(witnesses[0]);
    CHECK(witnesses[0]->response == 15);
    CHECK(witnesses[0]->cpu_part == 5);
    CHECK(witnesses[0]->gpu_part == 10);
    auto answers = requirement_answers(w, cpu_side_fixed_point(w, all_time_frame_bounds, Budget{}));
    CHECK(answers[0].verdict == Verdict::unknown);  // the CPU alone refutes nothing
    CHECK(answers[0].lower == Time(5));
    absorb_joint_runs(w, witnesses, answers);
    CHECK(answers[0].verdict == Verdict::refuted);
    CHECK(answers[0].lower == Time(15));
    CHECK(answers[0].upper == Time(15));
    CHECK(answers[0].lower_by == Provenance::cpu_joint_run);
    // A witness that the run does not reproduce is a bug, never a refutation.
    JointRunWitness wrong = *witnesses[0];
    wrong.response = 14;
    CHECK_THROWS_AS(replay_joint_witness(w, 0, wrong), ReplayMismatch);
    // The certificate names the run; the JSON carries it.
    const std::string path = test::source_path("cases/cpu/offload_refuted.toml");
    const test::CliRun cli = test::run_cli({"certify", path});
    INFO(cli.out << cli.err);
    CHECK(test::contains(cli.out, "refuted (job 0 released at 0"));
    CHECK(test::contains(cli.out, "responds in 15 = CPU 5 + GPU 10"));
    CHECK(cli.exit_code == 1);
    const test::CliRun json = test::run_cli({"certify", "--json", path});
    const auto [code, messages] = test::validate_json_text("certify", json.out);
    INFO(messages);
    CHECK((code == 0 || code == 77));
    for (const char* part : {"\"response\": \"15\"", "\"cpu_part\": \"5\"", "\"gpu_part\": \"10\""})
        CHECK(test::contains(json.out, part));
}

namespace {

// Seeded task sets on two cores, each task offloading to its own stream one block of `gpu`
// that fits beside every other (the GPU is never contended), or not offloading; the first offloads.
std::string joint_random_toml(std::mt19937& rng, const std::string& gpu) {
    std::string streams, tasks =
                             "[[cpu]]\nname = \"C0\"\nscheduler = \"fixed_priority_preemptive\"\n\n"
                             "[[cpu]]\nname = \"C1\"\nscheduler = \"fixed_priority_preemptive\"\n\n";
    const int n = 2 + static_cast<int>(rng() % 3);
    for (int i = 0; i < n; ++i) {
        const std::string name = "T" + std::to_string(i);
        const int period = 6 + static_cast<int>(rng() % 10);
        tasks += "[[cpu_task]]\nname = \"" + name + "\"\ncpu = \"C" + std::to_string(rng() % 2) +
                 "\"\npriority = " + std::to_string(rng() % 3) + "\nperiod = " + std::to_string(period) +
                 "\noffset = " + std::to_string(rng() % 3) + "\nexecution = " + std::to_string(1 + rng() % 2) + "\n";
        if (i == 0 || rng() % 3 != 0) {
            streams += "[[stream]]\nname = \"S" + std::to_string(i) + "\"\n\n[[kernel]]\nname = \"K" +
                       std::to_string(i) + "\"\nstream = \"S" + std::to_string(i) +
                       "\"\nblocks = 1\nthreads = 32\nblock_time = " + gpu + "\n\n";
            tasks += "gpu = \"S" + std::to_string(i) + "\"\nafter_gpu = 1\n";
        }
        tasks += "\n";
    }
    return streams + tasks;
}

}  // namespace

TEST_CASE("joint run: the CPU simulator's run when every frame takes the same time", "[cpu_side]") {
    std::mt19937 rng(20261202);
    for (int seed = 0; seed < 40; ++seed) {
        const Workload w = test::workload_from(joint_random_toml(rng, "\"1/4\""));
        const Time horizon = 60;
        const JointRun run = joint_run(w, JointScenario{}, horizon);
        INFO("task set " << seed);
        REQUIRE(run.valid_until == horizon);
        for (std::size_t c = 0; c < w.cpu.cpus.size(); ++c) {
            std::vector<std::size_t> ids;
            std::vector<CpuSimTask> tasks;
            for (std::size_t i = 0; i < w.cpu.tasks.size(); ++i)
                if (w.cpu.tasks[i].cpus == std::vector<int>{static_cast<int>(c)}) {
                    ids.push_back(i);
                    const CpuTask& t = w.cpu.tasks[i];
                    tasks.push_back({t.priority, t.arrival.period, t.arrival.offset, static_cast<int>(i)});
                }
            const auto times = [&](std::size_t local, std::int64_t) {
                const CpuTask& t = w.cpu.tasks[ids[local]];
                return CpuJobTimes{t.execution.hi, t.gpu ? Time(1, 4) : Time(0), t.after_gpu.hi};
            };
            const CpuSimResult cpu = simulate_cpu(tasks, times, horizon);
            for (std::size_t local = 0; local < ids.size(); ++local) {
                REQUIRE(cpu.jobs[local].size() == run.jobs[ids[local]].size());
                for (std::size_t k = 0; k < cpu.jobs[local].size(); ++k)
                    CHECK(cpu.jobs[local][k].end == run.jobs[ids[local]][k].end);
            }
        }
    }
}

// Offload alone on its core at the highest priority executes exactly 1: frame k of G is released
// at 1 + 10k whatever the GPU does. Busy (period 7, four blocks of [1, 3]) contends for the SMs.
// The joint run's frames are then those of the GPU simulator on the unrolled releases.
TEST_CASE("joint run: the GPU simulator's frames when the releases are fixed", "[cpu_side]") {
    std::mt19937 rng(7);
    for (int seed = 0; seed < 20; ++seed) {
        const int blocks = 1 + static_cast<int>(rng() % 6), busy = 1 + static_cast<int>(rng() % 3);
        const std::string toml =
            "time_unit = \"ms\"\n\n[[stream]]\nname = \"G\"\n\n[[stream]]\nname = \"Busy\"\nperiod = 7\n\n"
            "[[kernel]]\nname = \"K\"\nstream = \"G\"\nblocks = " +
            std::to_string(blocks) +
            "\nthreads = 1024\nblock_time = 2\n\n[[kernel]]\nname = \"B\"\nstream = \"Busy\"\nblocks = 4\n"
            "threads = 1024\nblock_time = " +
            std::to_string(busy) +
            "\n\n[[cpu]]\nname = \"C\"\nscheduler = \"fixed_priority_preemptive\"\n\n[[cpu_task]]\nname = "
            "\"Offload\"\ncpu = \"C\"\npriority = 1\nperiod = 10\nexecution = 1\ngpu = \"G\"\nafter_gpu = 1\n";
        const Workload w = test::workload_from(toml);
        INFO(toml);
        const Time horizon = Time(605, 10);
        const JointRun run = joint_run(w, JointScenario{}, horizon);
        REQUIRE(run.valid_until == horizon);
        const Unrolled u = unroll(w, Horizon::up_to(horizon, {}));
        const Schedule s = simulate(u.workload);
        for (std::size_t i = 0; i < u.origin.size(); ++i) {
            const int stream = w.ops[u.origin[i].op].stream;
            const auto& frames = run.frames[stream];
            REQUIRE(static_cast<std::size_t>(u.origin[i].frame) < frames.size());
            CHECK(frames[u.origin[i].frame].release == u.origin[i].release.lo);
            CHECK(frames[u.origin[i].frame].end == s.ops[i].finish);
        }
    }
}

// Frames that contend for the SMs (two blocks of 1 024 threads each, two SMs), so that a frame's
// time depends on the others' releases and the runs need several rounds to agree.
TEST_CASE("joint run: a run cut short of agreement is the agreed run up to where it parts", "[cpu_side]") {
    std::mt19937 rng(20261203);
    int cut = 0;
    for (int seed = 0; seed < 30; ++seed) {
        std::string toml = joint_random_toml(rng, "[1, 3]");
        for (std::size_t at = toml.find("threads = 32"); at != std::string::npos; at = toml.find("threads = 32", at))
            toml.replace(at, 12, "threads = 1024");
        for (std::size_t at = toml.find("blocks = 1\n"); at != std::string::npos; at = toml.find("blocks = 1\n", at))
            toml.replace(at, 11, "blocks = 3\n");
        const Workload w = test::workload_from(toml);
        INFO("task set " << seed << "\n" << toml);
        const Time horizon = 40;
        const JointRun agreed = joint_run(w, JointScenario{}, horizon, 200);
        REQUIRE(agreed.valid_until == horizon);
        for (int rounds = 1; rounds < agreed.rounds; ++rounds) {
            const JointRun part = joint_run(w, JointScenario{}, horizon, rounds);
            REQUIRE(part.valid_until < horizon);
            cut += part.valid_until > 0 ? 1 : 0;
            for (std::size_t i = 0; i < part.jobs.size(); ++i)
                for (std::size_t k = 0; k < part.jobs[i].size(); ++k)
                    if (part.jobs[i][k].end && *part.jobs[i][k].end < part.valid_until) {
                        REQUIRE(k < agreed.jobs[i].size());
                        CHECK(part.jobs[i][k].end == agreed.jobs[i][k].end);
                        CHECK(part.jobs[i][k].gpu_end == agreed.jobs[i][k].gpu_end);
                    }
        }
    }
    CHECK(cut >= 10);  // the property is checked on prefixes that hold jobs, not only on empty ones
}
