#include <iostream>

#include "app/commands.hpp"
#include "app/exit_codes.hpp"
#include "app/resource_limits.hpp"
#include "model/source_location.hpp"

int main(int argc, char** argv) {
    using namespace gpuwcrt::app;
    CLI::App cli{
        "gpuwcrt — schedulability verification of GPU kernels on NVIDIA Jetson TX2-class GPUs.\n"
        "Simulates the TX2 block-scheduling rules exactly, computes the thesis RTA, and certifies or\n"
        "refutes worst-case response times over all launch orders with Z3. Times are exact rationals.\n"
        "Exit codes: 0 ok/certified, 1 refuted, 2 unknown, 3 input error, 4 internal error.",
        "gpuwcrt"};
    cli.require_subcommand(1);
    Action action;
    add_simulate_command(cli, action);
    add_warp_command(cli, action); add_warp_sweep_command(cli, action);
    add_wcrt_command(cli, action);
    add_certify_command(cli, action);
    add_rta_command(cli, action);
    add_import_examiner_command(cli, action);
    add_compare_trace_command(cli, action);
    add_resource_limit_options(cli);
    try {
        cli.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        int code = cli.exit(e);
        return code == 0 ? exit_ok : exit_input_error;
    }
    try {
        return run_within_limits(action);
    } catch (const gpuwcrt::InputError& e) {
        std::cerr << e.what() << '\n';
        return exit_input_error;
    } catch (const std::exception& e) {
        std::cerr << "gpuwcrt: internal error: " << e.what() << '\n';
        return exit_internal_error;
    }
}
