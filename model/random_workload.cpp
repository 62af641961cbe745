#include "model/random_workload.hpp"

#include <random>

#include "model/validate.hpp"

namespace gpuwcrt {
namespace {

// Explicit arithmetic instead of std::uniform_int_distribution, whose output is not specified
// by the standard: the same seed must give the same workload with every library.
std::int64_t pick(std::mt19937_64& rng, std::int64_t lo, std::int64_t hi) {
    return lo + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(hi - lo + 1));
}

}  // namespace

Workload random_workload(const RandomWorkloadSpec& spec, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    Workload w;
    w.source = std::string("random-").append(std::to_string(seed));
    for (int s = 0; s < spec.streams && s < spec.kernels; ++s) {
        Stream st;
        st.name = std::string("s").append(std::to_string(s + 1));
        w.streams.push_back(st);
    }
    std::vector<Time> last_issue(w.streams.size(), 0);
    std::vector<int> count(w.streams.size(), 0);
    Time total = 0, max_c = 0;
    for (int k = 0; k < spec.kernels; ++k) {
        Operation op;
        op.name = std::string("K").append(std::to_string(k + 1));
        op.stream = k % static_cast<int>(w.streams.size());
        op.position = count[op.stream]++;
        op.blocks = pick(rng, 1, spec.max_blocks);
        op.threads = spec.threads[pick(rng, 0, static_cast<std::int64_t>(spec.threads.size()) - 1)];
        op.shared_mem = 1024 * spec.shared_kib[pick(rng, 0, static_cast<std::int64_t>(spec.shared_kib.size()) - 1)];
        const Time c(pick(rng, 1, spec.max_block_time), spec.block_time_denominator);
        op.time = {c, c};
        Time issue = spec.staggered_issue ? Time(pick(rng, 0, 4), 2) : Time(0);
        if (issue < last_issue[op.stream]) issue = last_issue[op.stream];
        last_issue[op.stream] = issue;
        op.issue.at = {issue, issue};
        total += c * op.blocks;
        if (c > max_c) max_c = c;
        w.ops.push_back(op);
    }
    if (spec.deadlines)
        for (auto& op : w.ops) op.deadline = std::max(max_c, Time(total / 4));
    validate_workload(w);
    return w;
}

}  // namespace gpuwcrt
