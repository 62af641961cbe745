#include "bounds/rta_workload.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "bounds/rta.hpp"

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

Time rta_release(const Workload& w, int op) {
    const Operation& o = w.ops[op];
    const IssueSpec& is = o.issue;
    int prev = -1;
    for (int i = op - 1; i >= 0 && prev < 0; --i)
        if (w.ops[i].stream == o.stream) prev = i;
    if (prev < 0) return is.kind == IssueSpec::Kind::after_stream_idle ? is.delay : is.at.lo;
    const Time before = rta_release(w, prev);
    switch (is.kind) {
        case IssueSpec::Kind::with_previous: return before;
        case IssueSpec::Kind::after_stream_idle: return before + is.delay;
        case IssueSpec::Kind::at: return std::max(before, is.at.lo);
    }
    return is.at.lo;
}

std::vector<int> rta_launch_order(const Workload& w, const std::vector<long>& rank) {
    std::vector<int> order;
    std::vector<Time> release(w.ops.size());
    for (std::size_t i = 0; i < w.ops.size(); ++i)
        if (w.ops[i].is_kernel()) {
            order.push_back(static_cast<int>(i));
            release[i] = rta_release(w, static_cast<int>(i));
        }
    auto rank_of = [&](int op) { return rank.empty() ? static_cast<long>(op) : rank[op]; };
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return release[a] != release[b] ? release[a] < release[b] : rank_of(a) < rank_of(b);
    });
    return order;
}

RtaOutcome rta(const Workload& w, const std::vector<int>& launch_order) {
    RtaOutcome out;
    out.big = one_big_sm(w);
    out.reasons = rta_scope_reasons(w);
    std::vector<char> seen(w.ops.size(), 0);
    std::vector<RtaKernel> input;
    for (int op : launch_order) {
        if (op < 0 || op >= static_cast<int>(w.ops.size()))
            throw std::invalid_argument("RTA launch order: no operation " + std::to_string(op));
        if (!w.ops[op].is_kernel()) continue;
        if (seen[op]++) throw std::invalid_argument("RTA launch order names '" + w.ops[op].name + "' twice");
        out.order.push_back(op);
        out.release.push_back(rta_release(w, op));
        input.push_back({out.release.back(), w.ops[op].time.hi, out.big.slots_of(w.ops[op])});
    }
    for (std::size_t i = 0; i < w.ops.size(); ++i)
        if (w.ops[i].is_kernel() && !seen[i])
            throw std::invalid_argument("RTA launch order leaves out kernel '" + w.ops[i].name + "'");
    out.finish = rta_algorithm2(input, out.big.g_max);
    if (auto closed = rta_closed_form(input, out.big.g_max)) {
        if (*closed != out.finish)
            throw std::logic_error("RTA closed form (thesis §3.6) disagrees with Algorithm 2");
        out.closed_form = true;
    }
    return out;
}

}  // namespace gpuwcrt
