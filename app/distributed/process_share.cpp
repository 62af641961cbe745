#include "app/distributed/process_share.hpp"

#include "solver/exact/distributed/comm.hpp"

namespace gpuwcrt::app {
namespace {

bool every_process = false;

using exact::distributed::spread;

}  // namespace

void run_on_every_process() { every_process = true; }
bool runs_on_every_process() { return every_process; }

int share_rank() { return spread() ? exact::distributed::process_rank() : 0; }
int share_count() { return spread() ? exact::distributed::process_count() : 1; }

std::vector<std::string> gather_shares(const std::string& bytes) {
    if (!spread()) return {bytes};
    return exact::distributed::gather(bytes, 0);
}

}  // namespace gpuwcrt::app
