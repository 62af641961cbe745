#include <iostream>

#include <z3.h>

#include "app/commands.hpp"
#include "app/exit_codes.hpp"
#include "app/integer_options.hpp"
#include "app/parse_error_message.hpp"
#include "app/resource_limits.hpp"
#include "common/budget.hpp"
#include "model/source_location.hpp"
#include "report/context/version.hpp"
#include "report/provenance.hpp"
#include "app/distributed/launcher.hpp"
#include "app/distributed/process_share.hpp"
#ifdef GPUWCRT_HAVE_MPI
#include "app/distributed/mpi_session.hpp"
#endif

namespace {

// Sends std::cout and std::cerr nowhere while it lives: a process of a run across MPI processes
// other than rank 0 parses the command line silently (rank 0 reports its errors).
class Silenced {
public:
    explicit Silenced(bool on) : on_(on) {
        if (!on_) return;
        out_ = std::cout.rdbuf(nullptr);
        err_ = std::cerr.rdbuf(nullptr);
    }
    ~Silenced() {
        if (!on_) return;
        std::cout.rdbuf(out_);
        std::cout.clear();
        std::cerr.rdbuf(err_);
        std::cerr.clear();
    }

private:
    bool on_;
    std::streambuf* out_ = nullptr;
    std::streambuf* err_ = nullptr;
};

// `instead`: run in place of the command's action, under the same limits (app/distributed/).
int run_command(int argc, char** argv, const std::function<int()>* instead) {
    using namespace gpuwcrt::app;
    CLI::App cli{
        "gpuwcrt — schedulability verification of GPU kernels on NVIDIA Jetson TX2-class GPUs.\n"
        "Simulates the TX2 block-scheduling rules exactly, computes the thesis RTA, and certifies or\n"
        "refutes worst-case response times over all launch orders with Z3. Times are exact rationals.\n"
        "Exit codes: 0 ok/certified, 1 refuted, 2 unknown, 3 input error, 4 internal error.",
        "gpuwcrt"};
    cli.require_subcommand(1);
    cli.set_version_flag("--version", std::string("gpuwcrt ") + gpuwcrt::tool_version + "\nZ3 " + Z3_get_full_version(),
                         "Print the gpuwcrt and Z3 versions and exit");
    Action action;
    add_simulate_command(cli, action);
    add_warp_command(cli, action);
    add_warp_sweep_command(cli, action);
    add_wcrt_command(cli, action);
    add_certify_command(cli, action);
    add_rta_command(cli, action);
    add_rta_check_command(cli, action);
    add_rta_falsify_command(cli, action);
    add_import_examiner_command(cli, action);
    add_import_amalthea_command(cli, action);
    add_compare_trace_command(cli, action);
    add_resource_limit_options(cli);
    require_decimal_integers(cli);  // after every option is added, --max-memory included
    {
        const Silenced quiet(instead != nullptr);
        try {
            cli.parse(argc, argv);
        } catch (const CLI::Success& e) {
            return cli.exit(e) == 0 ? exit_ok : exit_input_error;  // --help, --version
        } catch (const CLI::ParseError& e) {
            std::cerr << parse_error_message(cli, e) << '\n';
            return exit_input_error;
        }
    }
    if (instead && runs_on_every_process()) {  // this process's share first, silently (rank 0 prints)
        action = [own = action, instead] {
            {
                const Silenced quiet(true);
                own();
            }
            return (*instead)();
        };
    } else if (instead) {
        action = *instead;
    }
    try {
        return run_within_limits(action);
    } catch (const gpuwcrt::InputError& e) {
        std::cerr << e.what() << '\n';
        return exit_input_error;
    } catch (const gpuwcrt::BoundsContradict& e) {
        std::cerr << "gpuwcrt: internal error: " << gpuwcrt::contradiction_text(e) << '\n';
        return exit_internal_error;
    } catch (const std::exception& e) {
        std::cerr << "gpuwcrt: internal error: " << e.what() << '\n';
        return exit_internal_error;
    }
}

}  // namespace

int main(int argc, char** argv) {
    gpuwcrt::mark_run_start();  // --timeout covers the whole process, reading the input included
#ifdef GPUWCRT_HAVE_MPI
    // Under mpirun: this process's part of a run across processes (docs/theory/distributed.md).
    return gpuwcrt::app::run_as_mpi_process(argc, argv, run_command);
#else
    // mpirun of a build without MPI would run the whole command in every process.
    if (gpuwcrt::app::started_by_launcher() && gpuwcrt::app::launched_processes() > 1) {
        if (gpuwcrt::app::launched_rank() == 0)
            std::cerr << "gpuwcrt: started by an MPI launcher with " << gpuwcrt::app::launched_processes()
                      << " processes, but this build has no MPI: the search across processes is compiled when\n"
                         "CMake finds Open MPI (apt-get install libopenmpi-dev openmpi-bin, then build again;\n"
                         "docs/theory/distributed.md), or run gpuwcrt without mpirun\n";
        return gpuwcrt::app::exit_input_error;
    }
    return run_command(argc, argv, nullptr);
#endif
}
