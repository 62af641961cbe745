#include <iostream>
#include <map>
#include <memory>

#include "app/commands.hpp"
#include "app/output_file.hpp"
#include "app/parse_error_message.hpp"
#include "app/phase_progress.hpp"
#include "model/io/amalthea/import_amalthea.hpp"
#include "model/io/write_toml.hpp"

namespace gpuwcrt::app {
namespace {

struct ImportAmaltheaOptions {
    std::string file;
    std::string output = "-";
    std::optional<std::string> tick_time;  // kept only when given: "" is an error
    std::int64_t threads = 512;
    std::vector<std::string> grid, block_size;  // RUNNABLE=N, as given
    std::vector<std::string> priority;          // TASK=N, as given
    bool frames = false;
    bool one_process = false;
    bool gpu_only = false;
};

// "NAME=N" -> {NAME, N}, N an integer from min to max; each runnable (or task) named once.
void add_per_name(const char* flag, const std::vector<std::string>& given, std::int64_t min, std::int64_t max,
                  const std::string& what, std::map<std::string, std::int64_t>& out) {
    for (const std::string& g : given) {
        const auto eq = g.rfind('=');
        const std::string name = eq == std::string::npos ? "" : g.substr(0, eq);
        const std::string digits = eq == std::string::npos ? "" : g.substr(eq + 1);
        const bool integer =
            !digits.empty() && digits.size() <= 18 && digits.find_first_not_of("0123456789") == std::string::npos;
        const std::int64_t n = integer ? std::stoll(digits) : 0;
        if (name.empty() || !integer || n < min || n > max)
            throw option_error(flag, "expects " + what + "=N with N an integer from " + std::to_string(min) + " to " +
                                         std::to_string(max) + ", got " + quoted_value(g));
        if (!out.emplace(name, n).second)
            throw option_error(flag, "names " + what + " " + quoted_value(name) + " twice");
    }
}

// A NAME=N option given once per name.
void add_repeated(CLI::App* sub, const char* flag, std::vector<std::string>& into, const char* help) {
    sub->add_option(flag, into, help)->allow_extra_args(false)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

AmaltheaImportOptions import_options(const ImportAmaltheaOptions& o) {
    AmaltheaImportOptions io;
    if (o.tick_time) {
        io.tick_time = parse_time(*o.tick_time);
        if (!io.tick_time || *io.tick_time <= 0)
            throw option_error("--tick-time", "must be a positive exact number (e.g. 1, 0.5 or 1/3), got " +
                                                  quoted_value(*o.tick_time));
    }
    if (o.threads < 1 || o.threads > 1024)
        throw option_error("--threads", "must be from 1 to 1024 (threads per block), got " + std::to_string(o.threads));
    if (o.frames)
        throw option_error("--frames",
                           "is no longer an import option: every periodic task is imported as a periodic "
                           "stream, and `simulate --frames N` chooses how many frames to simulate");
    io.threads = o.threads;
    io.one_process = o.one_process;
    io.cpu_side = !o.gpu_only;
    add_per_name("--grid", o.grid, 1, std::int64_t{1} << 40, "RUNNABLE", io.grid);
    add_per_name("--block-size", o.block_size, 1, 1024, "RUNNABLE", io.block_size);
    add_per_name("--priority", o.priority, 0, std::int64_t{1} << 31, "TASK", io.priority);
    return io;
}

int run_import(const ImportAmaltheaOptions& o) {
    Progress progress("import-amalthea");
    progress.set_phase("importing " + o.file);
    check_output_paths({{"--output", o.output}}, {o.file});
    AmaltheaImport im = import_amalthea_file(o.file, import_options(o));
    TomlWriteOptions wo;
    wo.title = base_name(o.file);
    wo.source =
        "AMALTHEA " + im.model_version + " model " + base_name(o.file) + ", imported by gpuwcrt import-amalthea";
    wo.comments.push_back("One kernel per runnable with Ticks: blocks = GridSize (else --grid), threads = BlockSize");
    wo.comments.push_back(
        "(else --block-size, else --threads), block_time = Ticks x tick duration / the waves the grid");
    wo.comments.push_back("runs in alone, so that the kernel alone takes its Ticks; one copy per runnable");
    wo.comments.push_back("of label accesses: label bytes / the GPU's dataRate. One stream per task (its runnable");
    wo.comments.push_back("calls in order, issued together at each release; no deadline) or per runnable no");
    wo.comments.push_back("task calls (issue 0). A task released by a periodic CPU task's trigger is periodic");
    wo.comments.push_back("at that period, its release window the CPU work before the trigger. A time-sliced");
    wo.comments.push_back("GPU scheduler gives each GPU task its own context with its time slice. Each");
    wo.comments.push_back("[[requirement]] is one of the model's ProcessRequirements (upper limits on a task's");
    wo.comments.push_back("response time); the assumptions say where each came from and what is not checked.");
    for (const std::string& warning : im.warnings) std::cerr << "warning: " << warning << "\n";
    // Data, not comments: wcrt and certify repeat them in the certificate.
    im.workload.assumptions = im.notes;
    write_output_file(o.output, workload_to_toml(im.workload, wo), "workload TOML");
    return 0;
}

}  // namespace

void add_import_amalthea_command(CLI::App& cli, Action& action) {
    auto o = std::make_shared<ImportAmaltheaOptions>();
    CLI::App* sub = cli.add_subcommand(
        "import-amalthea",
        "Convert an AMALTHEA model (.amxmi of APP4MC 0.9.x with callGraph, or 1.x/2.x with activityGraph)\n"
        "into a gpuwcrt TOML workload: runnables -> kernels (those of tasks mapped to a GPU when the model\n"
        "has a mapping, else all), Ticks -> block time, custom property GridSize (or --grid) -> blocks,\n"
        "label-access runnables -> copies, a task's runnable calls -> one stream, a PeriodicStimulus (or\n"
        "the trigger of a periodic CPU task) -> a periodic stream with its release window.");
    sub->add_option("model", o->file, "AMALTHEA model (.amxmi; '-' reads standard input)")->required();
    sub->add_option("-o,--output", o->output,
                    "write the TOML here (atomically) instead of standard output (default: standard output)");
    sub->add_option_function<std::string>(
        "--tick-time", [o](const std::string& v) { o->tick_time = v; },
        "duration of one tick (exact, e.g. 1 or 1/1300) when the model gives no GPU frequency: in\n"
        "milliseconds when the model has periodic stimuli, else in the workload's own unit (default:\n"
        "none; the GPU's FrequencyDomain fixes it when the model has one, and then this option is an error)");
    sub->add_option("--threads", o->threads,
                    "threads per block of a runnable without the custom property BlockSize (default: 512,\n"
                    "the thesis' g_max = 8 blocks on a TX2)");
    add_repeated(sub, "--grid", o->grid,
                 "RUNNABLE=N: the grid (blocks) of a kernel whose runnable has no custom property GridSize;\n"
                 "repeat for each such kernel (default: none; the import names every kernel that lacks one)");
    add_repeated(sub, "--block-size", o->block_size,
                 "RUNNABLE=N: threads per block (1 to 1024) of a kernel whose runnable has no custom property\n"
                 "BlockSize; repeatable (default: --threads)");
    add_repeated(sub, "--priority", o->priority,
                 "TASK=N: the priority (larger runs first) of a CPU task whose taskAllocation gives none;\n"
                 "repeatable (default: none; the import names the task that lacks one)");
    sub->add_flag("--gpu-only", o->gpu_only,
                  "leave out the tasks the mapping places on CPUs; the GPU tasks they offload are then released\n"
                  "as if those tasks were never delayed by other CPU tasks (default: off, the CPU side is\n"
                  "imported as [[cpu]] and [[cpu_task]]s; the written file's assumptions say so)");
    sub->add_flag("--one-process", o->one_process,
                  "import the GPU tasks as streams of one process (one CUDA context) sharing the SMs, instead\n"
                  "of one time-sliced context per task as the model's GPU scheduler says (default: off; the\n"
                  "written file's assumptions say so)");
    sub->add_option_function<std::string>(
           "--frames", [o](const std::string&) { o->frames = true; },
           "no longer an import option (periodic tasks are periodic streams; simulate chooses the frames)")
        ->group("");
    sub->callback([o, &action] { action = [o] { return run_import(*o); }; });
}

}  // namespace gpuwcrt::app
