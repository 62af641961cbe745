#include <iostream>
#include <memory>

#include "app/cli_options.hpp"
#include "app/commands.hpp"
#include "app/output_file.hpp"
#include "app/phase_progress.hpp"
#include "app/parse_error_message.hpp"
#include "model/io/examiner_config.hpp"
#include "model/io/write_toml.hpp"
#include "sim/scenario.hpp"

namespace gpuwcrt::app {
namespace {

struct ImportOptions {
    std::string file;
    std::string output = "-";
    std::optional<std::string> bandwidth;  // kept only when given: "" is an error, not "none"
    std::optional<std::string> launch_order;
};

int run_import(const ImportOptions& o) {
    Progress progress("import-examiner");
    progress.set_phase("importing " + o.file);
    check_output_paths({{"--output", o.output}}, {o.file});
    ExaminerImportOptions io;
    if (o.bandwidth) {
        io.copy_bandwidth = parse_time(*o.bandwidth);
        if (!io.copy_bandwidth || *io.copy_bandwidth <= 0)
            throw option_error("--copy-bandwidth",
                               "must be a positive number of bytes per second, got " + quoted_value(*o.bandwidth));
    }
    ExaminerImport im = import_examiner_file(o.file, io);
    im.workload.time_unit = "s";  // the examiner's release times and spin durations are seconds
    if (o.launch_order) {
        FixedScenario f;
        f.order = split_names(*o.launch_order, "--launch-order");
        for (const std::string& n : f.order)
            if (!im.workload.find_op(n))
                throw option_error("--launch-order", quoted_value(n) + " is not an operation of the imported workload");
        im.workload.scenario = f;
        // Rejects an order that breaks stream order or issue times; the user wrote --launch-order.
        try {
            launch_ranks(im.workload, f.order);
        } catch (const InputError& e) {
            throw option_error("--launch-order", e.message());
        }
    }
    TomlWriteOptions wo;
    wo.title = im.scenario_name;
    wo.source = "cuda_scheduling_examiner config " + base_name(o.file) + ", imported by gpuwcrt import-examiner";
    wo.comments.push_back("One stream per benchmark (the NULL stream for timer_spin_default_stream.so); block time =");
    wo.comments.push_back("the spin duration; issue = release_time. Operations issued at the same instant launch in");
    wo.comments.push_back(
        "file order in `simulate` unless --order says otherwise (docs/theory/semantics.md §5): the config does not fix "
        "it.");
    // Data, not comments: wcrt and certify repeat them in the certificate.
    im.workload.assumptions = im.notes;
    write_output_file(o.output, workload_to_toml(im.workload, wo), "workload TOML");
    return 0;
}

}  // namespace

void add_import_examiner_command(CLI::App& cli, Action& action) {
    auto o = std::make_shared<ImportOptions>();
    CLI::App* sub =
        cli.add_subcommand("import-examiner",
                           "Convert a cuda_scheduling_examiner JSON config (timer_spin, timer_spin_default_stream,\n"
                           "sharedmem_timer_spin and multikernel benchmarks) into a gpuwcrt TOML workload.");
    sub->add_option("config", o->file, "examiner config JSON ('-' reads standard input)")->required();
    sub->add_option("-o,--output", o->output, "write the TOML here (atomically) instead of standard output");
    sub->add_option_function<std::string>(
        "--copy-bandwidth", [o](const std::string& v) { o->bandwidth = v; },
        "host<->device copy bandwidth in bytes per second (exact, e.g. 2e9), needed when a\n"
        "multikernel.so kernel has copy_in_count/copy_out_count (32-bit integers each)");
    add_names_option(sub, "--launch-order", o->launch_order,
                     "write a [scenario] launch order for operations issued at the same instant, as\n"
                     "comma-separated names (e.g. the order a measurement observed: \"Kernel 2, Kernel 3\")");
    sub->callback([o, &action] { action = [o] { return run_import(*o); }; });
}

}  // namespace gpuwcrt::app
