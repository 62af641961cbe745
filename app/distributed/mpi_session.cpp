#include "app/distributed/mpi_session.hpp"

#include <mpi.h>

#include <cstdlib>
#include <iostream>
#include <string>

#include "app/distributed/launcher.hpp"
#include "app/exit_codes.hpp"
#include "app/resource_limits.hpp"
#include "solver/exact/distributed/search.hpp"

namespace gpuwcrt::app {
namespace {

// GPUWCRT_EXCHANGE_BYTES: the bytes each process queues for the others before an exchange
// round (docs/theory/distributed.md); false with a message when it is not a positive integer.
bool read_round_bytes(bool report) {
    const char* v = std::getenv("GPUWCRT_EXCHANGE_BYTES");
    if (!v) return true;
    const std::string text = v;
    char* end = nullptr;
    const unsigned long long n = std::strtoull(v, &end, 10);
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || *end != '\0' || n < 1 ||
        n > (1ULL << 30)) {
        if (report)
            std::cerr << "gpuwcrt: GPUWCRT_EXCHANGE_BYTES: must be an integer from 1 to 1073741824 (bytes), got '"
                      << text << "'\n";
        return false;
    }
    exact::distributed::set_round_bytes(static_cast<std::size_t>(n));
    return true;
}

}  // namespace

int run_as_mpi_process(int argc, char** argv, const CommandBody& body) {
    if (!started_by_launcher()) return body(argc, argv, nullptr);
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (provided < MPI_THREAD_SERIALIZED) {
        if (rank == 0)
            std::cerr << "gpuwcrt: this MPI library does not let a worker thread call it (MPI_THREAD_SERIALIZED)\n";
        MPI_Finalize();
        return exit_internal_error;
    }
    launcher_signals();
    const bool readable = read_round_bytes(rank == 0);
    int code = exit_input_error;
    if (rank == 0) {
        // A run that ends without unwinding (a Z3 thread still running) releases the others first.
        on_quick_exit([](int exit_code) {
            exact::distributed::release(exit_code);
            MPI_Finalize();
        });
        if (readable) code = body(argc, argv, nullptr);
        exact::distributed::release(code);
    } else {
        bool served = false;
        const std::function<int()> serve = [&served] {
            served = true;
            return exact::distributed::serve();
        };
        if (readable) code = body(argc, argv, &serve);
        if (!served) code = exact::distributed::serve();  // rank 0 stopped before any search: its code
    }
    MPI_Finalize();
    return code;
}

}  // namespace gpuwcrt::app
