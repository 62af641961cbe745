#include "bounds/rta/rta_workload.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "bounds/rta/rta.hpp"
#include "model/integer_time.hpp"
#include "model/time_less.hpp"

namespace gpuwcrt {

std::optional<Time> RtaOutcome::finish_of(int op) const {
    for (std::size_t i = 0; i < order.size(); ++i)
        if (order[i] == op) return finish[i];
    return std::nullopt;
}

std::optional<Time> RtaOutcome::response_of(int op) const {
    for (std::size_t i = 0; i < order.size(); ++i)
        if (order[i] == op) return finish[i] - release[i];
    return std::nullopt;
}

std::vector<Time> rta_releases(const Workload& w) {
    std::vector<Time> out(w.ops.size());
    std::vector<int> last(w.streams.size(), -1);  // previous operation of each stream so far
    for (std::size_t op = 0; op < w.ops.size(); ++op) {
        const IssueSpec& is = w.ops[op].issue;
        int& prev = last[w.ops[op].stream];
        if (prev < 0) out[op] = is.kind == IssueSpec::Kind::after_stream_idle ? is.delay : is.at.lo;
        else if (is.kind == IssueSpec::Kind::with_previous) out[op] = out[prev];
        else if (is.kind == IssueSpec::Kind::after_stream_idle) out[op] = out[prev] + is.delay;
        else out[op] = std::max(out[prev], is.at.lo);
        prev = static_cast<int>(op);
    }
    return out;
}

std::vector<int> rta_launch_order(const Workload& w, const std::vector<long>& rank) {
    std::vector<int> order;
    const std::vector<Time> release = rta_releases(w);
    for (std::size_t i = 0; i < w.ops.size(); ++i)
        if (w.ops[i].is_kernel()) order.push_back(static_cast<int>(i));
    auto rank_of = [&](int op) { return rank.empty() ? static_cast<long>(op) : rank[op]; };
    // Sorted on integers (each release times the common denominator): comparing rationals
    // dominated the whole command at 10^6 kernels.
    const std::vector<BigInt> key = scale_times(release).ticks;
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return key[a] != key[b] ? key[a] < key[b] : rank_of(a) < rank_of(b); });
    return order;
}

RtaOutcome rta(const Workload& w, const std::vector<int>& launch_order) {
    RtaOutcome out;
    out.big = one_big_sm(w);
    out.reasons = rta_scope_reasons(w);
    const std::vector<Time> releases = rta_releases(w);
    std::vector<char> seen(w.ops.size(), 0);
    std::vector<RtaKernel> input;
    for (int op : launch_order) {
        if (op < 0 || op >= static_cast<int>(w.ops.size()))
            throw std::invalid_argument("RTA launch order: no operation " + std::to_string(op));
        if (!w.ops[op].is_kernel()) continue;
        if (seen[op]++) throw std::invalid_argument("RTA launch order names '" + w.ops[op].name + "' twice");
        out.order.push_back(op);
        out.release.push_back(releases[op]);
        input.push_back({out.release.back(), w.ops[op].time.hi, out.big.slots_of(w.ops[op])});
    }
    for (std::size_t i = 0; i < w.ops.size(); ++i)
        if (w.ops[i].is_kernel() && !seen[i])
            throw std::invalid_argument("RTA launch order leaves out kernel '" + w.ops[i].name + "'");
    out.finish = rta_algorithm2(input, out.big.g_max);
    if (auto closed = rta_closed_form(input, out.big.g_max)) {
        if (!std::equal(closed->begin(), closed->end(), out.finish.begin(), out.finish.end(), time_equal))
            throw std::logic_error("RTA closed form (thesis §3.6) disagrees with Algorithm 2");
        out.closed_form = true;
    }
    return out;
}

}  // namespace gpuwcrt
