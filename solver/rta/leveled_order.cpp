#include "solver/rta/leveled_order.hpp"

#include <algorithm>
#include <map>

#include "solver/rta/state.hpp"

namespace gpuwcrt::rta_orders {
namespace {

// Subset totals tried per block length: up to two rounds of slots and k's own (beyond that
// the raised slots wrap around and the level is gone), and no more than this many.
constexpr std::int64_t max_total = 4096;
// Orders evaluated in all (each costs one Algorithm 2 pass over the members).
constexpr int max_candidates = 2048;

// Kernels of one stream (and release) go back into the places their stream holds in `order`,
// in stream order: releases stay sorted and every stream keeps its order.
void keep_stream_order(const RtaOrderProblem& p, std::vector<int>& order) {
    std::map<std::pair<int, std::int64_t>, std::vector<std::size_t>> places;
    for (std::size_t i = 0; i < order.size(); ++i) places[{p.stream[order[i]], p.release[order[i]]}].push_back(i);
    for (const auto& [stream, at] : places) {
        std::vector<int> kernels;
        for (std::size_t i : at) kernels.push_back(order[i]);
        std::sort(kernels.begin(), kernels.end(), [&](int a, int b) { return p.position[a] < p.position[b]; });
        for (std::size_t x = 0; x < at.size(); ++x) order[at[x]] = kernels[x];
    }
}

std::int64_t finish_after(const RtaOrderProblem& p, int k, const std::vector<int>& order) {
    State s = State::empty(p.g_max);
    for (int j : order) s.add_kernel(p.release[j], p.c[j], p.slots[j]);
    return s.add_kernel(p.release[k], p.c[k], p.slots[k]);
}

}  // namespace

std::optional<LocalResult> leveled_order(const RtaOrderProblem& p, int k, const std::vector<int>& members,
                                         const Budget& budget) {
    // Kernels are analysed by release, so only the latest release group is rearranged at its
    // end; every group is put longest C first (ties: the given order).
    std::vector<int> base = members;
    std::stable_sort(base.begin(), base.end(), [&](int a, int b) {
        return p.release[a] != p.release[b] ? p.release[a] < p.release[b] : p.c[a] > p.c[b];
    });
    std::optional<LocalResult> best;
    auto consider = [&](std::vector<int> order) {
        keep_stream_order(p, order);
        if (!p.keeps_order(order)) return;  // kept as a guard: every order tried must be one
        const std::int64_t f = finish_after(p, k, order);
        if (!best || f > best->finish) best = LocalResult{f, std::move(order)};
    };
    consider(base);
    if (base.empty()) return best;
    const std::int64_t last_release = p.release[base.back()];
    std::map<std::int64_t, std::vector<int>> by_c;  // the latest group's kernels per block length
    for (int j : base)
        if (p.release[j] == last_release) by_c[p.c[j]].push_back(j);
    const std::int64_t limit = std::min<std::int64_t>(max_total, 2 * p.g_max + p.slots[k]);
    int candidates = 0;
    for (const auto& [c, kernels] : by_c) {
        // 0/1 subset sums of the slots, with the kernel that first reached each total (so a
        // total's subset is rebuilt from kernels taken in decreasing index).
        std::vector<int> from(static_cast<std::size_t>(limit) + 1, -1);
        std::vector<char> reached(static_cast<std::size_t>(limit) + 1, 0);
        reached[0] = 1;
        for (std::size_t x = 0; x < kernels.size(); ++x) {
            const std::int64_t s = p.slots[kernels[x]];
            for (std::int64_t total = limit; total >= s; --total)
                if (!reached[total] && reached[total - s]) {
                    reached[total] = 1;
                    from[total] = static_cast<int>(x);
                }
        }
        for (std::int64_t total = 1; total <= limit && candidates < max_candidates; ++total) {
            if (!reached[total]) continue;
            if (budget.expired()) return best;
            std::vector<char> raise(p.kernels(), 0);
            for (std::int64_t t = total; t > 0; t -= p.slots[kernels[static_cast<std::size_t>(from[t])]])
                raise[kernels[static_cast<std::size_t>(from[t])]] = 1;
            std::vector<int> order, tail;
            for (int j : base) (raise[j] ? tail : order).push_back(j);
            order.insert(order.end(), tail.begin(), tail.end());
            ++candidates;
            consider(std::move(order));
        }
    }
    return best;
}

}  // namespace gpuwcrt::rta_orders
