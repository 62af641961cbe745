#include "solver/exact/distributed/comm.hpp"

#include <mpi.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <thread>

namespace gpuwcrt::exact::distributed {
namespace {

// Polls `request` until it completes, sleeping between polls: 20 µs at first (an exchange
// between busy processes completes within microseconds), up to 2 ms (a process waiting for the
// others' work).
void wait_gently(MPI_Request& request) {
    auto pause = std::chrono::microseconds(20);
    for (;;) {
        int done = 0;
        MPI_Test(&request, &done, MPI_STATUS_IGNORE);
        if (done) return;
        std::this_thread::sleep_for(pause);
        pause = std::min<std::chrono::microseconds>(pause * 2, std::chrono::milliseconds(2));
    }
}

int checked_int(std::size_t n) {
    if (n > static_cast<std::size_t>(std::numeric_limits<int>::max()))
        throw std::length_error("exact engine across processes: a message of more than 2^31 bytes");
    return static_cast<int>(n);
}

std::vector<int> displacements(const std::vector<int>& counts) {
    std::vector<int> at(counts.size(), 0);
    for (std::size_t i = 1; i < counts.size(); ++i) at[i] = at[i - 1] + counts[i - 1];
    return at;
}

int node_processes = 0;  // processes_on_node, once asked

}  // namespace

bool mpi_running() {
    int initialised = 0, finalised = 0;
    MPI_Initialized(&initialised);
    MPI_Finalized(&finalised);
    return initialised && !finalised;
}

int process_rank() {
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

int process_count() {
    int n = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    return n;
}

bool spread() { return mpi_running() && process_count() > 1; }

int processes_on_node() {
    if (node_processes > 0) return node_processes;
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &node_processes);
    MPI_Comm_free(&node);
    return node_processes;
}

void broadcast(std::string& bytes, int root) {
    std::vector<std::int64_t> size{static_cast<std::int64_t>(bytes.size())};
    broadcast(size, root);
    bytes.resize(static_cast<std::size_t>(size[0]));
    MPI_Request r;
    MPI_Ibcast(bytes.data(), checked_int(bytes.size()), MPI_BYTE, root, MPI_COMM_WORLD, &r);
    wait_gently(r);
}

void broadcast(std::vector<std::int64_t>& values, int root) {
    MPI_Request r;
    MPI_Ibcast(values.data(), checked_int(values.size()), MPI_INT64_T, root, MPI_COMM_WORLD, &r);
    wait_gently(r);
}

void max_over_processes(std::vector<std::int64_t>& values) {
    MPI_Request r;
    MPI_Iallreduce(MPI_IN_PLACE, values.data(), checked_int(values.size()), MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD, &r);
    wait_gently(r);
}

void sum_over_processes(std::vector<std::int64_t>& values) {
    MPI_Request r;
    MPI_Iallreduce(MPI_IN_PLACE, values.data(), checked_int(values.size()), MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD, &r);
    wait_gently(r);
}

std::vector<std::string> gather(const std::string& bytes, int root) {
    const int n = process_count(), me = process_rank();
    int size = checked_int(bytes.size());
    std::vector<int> sizes(static_cast<std::size_t>(n), 0);
    MPI_Request r;
    MPI_Igather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, root, MPI_COMM_WORLD, &r);
    wait_gently(r);
    const std::vector<int> at = displacements(sizes);
    std::string all(me == root ? static_cast<std::size_t>(std::accumulate(sizes.begin(), sizes.end(), 0L)) : 0, '\0');
    MPI_Igatherv(bytes.data(), size, MPI_BYTE, all.data(), sizes.data(), at.data(), MPI_BYTE, root, MPI_COMM_WORLD, &r);
    wait_gently(r);
    std::vector<std::string> out;
    if (me != root) return out;
    for (int p = 0; p < n; ++p) out.push_back(all.substr(static_cast<std::size_t>(at[p]), sizes[p]));
    return out;
}

std::vector<int> exchange_counts(const std::vector<int>& counts) {
    std::vector<int> in(counts.size(), 0);
    MPI_Request r;
    MPI_Ialltoall(counts.data(), 1, MPI_INT, in.data(), 1, MPI_INT, MPI_COMM_WORLD, &r);
    wait_gently(r);
    return in;
}

void exchange_bytes(const std::string& out, const std::vector<int>& send, std::string& in,
                    const std::vector<int>& receive) {
    const std::vector<int> send_at = displacements(send), receive_at = displacements(receive);
    MPI_Request r;
    MPI_Ialltoallv(out.data(), send.data(), send_at.data(), MPI_BYTE, in.data(), receive.data(), receive_at.data(),
                   MPI_BYTE, MPI_COMM_WORLD, &r);
    wait_gently(r);
}

void abort_run(const std::string& message, int code) {
    std::cerr << message << std::endl;
    MPI_Abort(MPI_COMM_WORLD, code);
    std::abort();  // MPI_Abort does not return
}

}  // namespace gpuwcrt::exact::distributed
