#include <memory>

#include "app/commands.hpp"
#include "app/output_file.hpp"
#include "app/parse_error_message.hpp"
#include "app/phase_progress.hpp"
#include "model/io/amalthea/import_amalthea.hpp"
#include "model/io/write_toml.hpp"

namespace gpuwcrt::app {
namespace {

constexpr std::int64_t max_frames = 10'000;  // periods per task: a hyperperiod of a real model

struct ImportAmaltheaOptions {
    std::string file;
    std::string output = "-";
    std::optional<std::string> tick_time;  // kept only when given: "" is an error
    std::int64_t threads = 512;
    std::int64_t frames = 1;
};

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
    if (o.frames < 1 || o.frames > max_frames)
        throw option_error("--frames",
                           "must be from 1 to " + std::to_string(max_frames) + ", got " + std::to_string(o.frames));
    io.threads = o.threads;
    io.frames = o.frames;
    return io;
}

int run_import(const ImportAmaltheaOptions& o) {
    Progress progress("import-amalthea");
    progress.set_phase("importing " + o.file);
    check_output_paths({{"--output", o.output}}, {o.file});
    const AmaltheaImport im = import_amalthea_file(o.file, import_options(o));
    TomlWriteOptions wo;
    wo.title = base_name(o.file);
    wo.source =
        "AMALTHEA " + im.model_version + " model " + base_name(o.file) + ", imported by gpuwcrt import-amalthea";
    wo.comments.push_back(
        "One kernel per runnable: blocks = GridSize, threads = BlockSize (else --threads), block_time");
    wo.comments.push_back("= Ticks x tick duration. One stream per task (its runnable calls in order, issued together");
    wo.comments.push_back("at each release, deadline = period on the last) or per runnable no task calls (issue 0).");
    for (const std::string& n : im.notes) wo.comments.push_back(n);
    write_output_file(o.output, workload_to_toml(im.workload, wo), "workload TOML");
    return 0;
}

}  // namespace

void add_import_amalthea_command(CLI::App& cli, Action& action) {
    auto o = std::make_shared<ImportAmaltheaOptions>();
    CLI::App* sub = cli.add_subcommand(
        "import-amalthea",
        "Convert an AMALTHEA model (.amxmi of APP4MC 0.9 with callGraph, or 1.x/2.x with activityGraph)\n"
        "into a gpuwcrt TOML workload: runnables -> kernels (those of tasks mapped to a GPU when the model\n"
        "has a mapping, else all), Ticks -> block time, custom property GridSize -> blocks, a task's\n"
        "runnable calls -> one stream, a PeriodicStimulus -> issue times (release jitter -> issue windows).");
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
    sub->add_option("--frames", o->frames,
                    "periods of each periodic task to write as jobs, 1 to 10000 (default: 1); tasks without a\n"
                    "stimulus are activated once, at 0");
    sub->callback([o, &action] { action = [o] { return run_import(*o); }; });
}

}  // namespace gpuwcrt::app
