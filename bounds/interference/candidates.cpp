#include "bounds/interference/candidates.hpp"

#include <algorithm>
#include <bit>
#include <numeric>

namespace gpuwcrt::interference {

void Spread::add(const ChainOp& k) {
    for (int r = 0; r < resource_kinds; ++r) {
        most[r] = std::max(most[r], k.need[r]);
        unit[r] = std::gcd(unit[r], k.need[r]);
        fill[r] = std::max(fill[r], k.blocks * k.need[r]);  // within limits::max_total
    }
    longest = std::max(longest, k.hi);
}

void Spread::add(const Spread& other) {
    for (int r = 0; r < resource_kinds; ++r) {
        most[r] = std::max(most[r], other.most[r]);
        unit[r] = std::gcd(unit[r], other.unit[r]);
        fill[r] = std::max(fill[r], other.fill[r]);
    }
    longest = std::max(longest, other.longest);
}

Spread spread_of(const std::vector<ChainOp>& ops, std::span<const int> kernels) {
    Spread s;
    for (const int k : kernels) s.add(ops[k]);
    return s;
}

CandidateIndex::CandidateIndex(const std::vector<ChainOp>& ops, const std::vector<std::vector<int>>& stream_ops)
    : ops_(ops),
      next_(ops.size(), -1),
      latest_(ops.size()),
      kernels_(stream_ops.size()),
      kernel_join_lo_(stream_ops.size()),
      kernel_latest_(stream_ops.size()),
      kernel_slot_(ops.size(), -1),
      high_(stream_ops.size(), 0),
      spreads_(stream_ops.size()) {
    for (std::size_t s = 0; s < stream_ops.size(); ++s) {
        const std::vector<int>& stream = stream_ops[s];
        for (std::size_t n = 0; n + 1 < stream.size(); ++n) next_[stream[n]] = stream[n + 1];
        for (std::size_t n = stream.size(); n-- > 0;) {
            const int i = stream[n];
            latest_[i] = next_[i] < 0 ? ops[i].done_hi : std::min(ops[i].done_hi, latest_[next_[i]]);
        }
        for (const int i : stream) {
            high_[s] = ops[i].high;
            if (!ops[i].kernel) continue;
            kernel_slot_[i] = static_cast<int>(kernels_[s].size());
            kernels_[s].push_back(i);
            kernel_join_lo_[s].push_back(ops[i].join_lo);
            kernel_latest_[s].push_back(latest_[i]);
        }
        const std::vector<int>& ks = kernels_[s];
        std::vector<std::vector<Spread>>& table = spreads_[s];
        if (!ks.empty()) table.emplace_back();
        for (const int k : ks) table[0].push_back(spread_of(ops, {&k, 1}));
        for (std::size_t len = 2; len <= ks.size(); len *= 2) {
            const std::vector<Spread>& below = table.back();
            std::vector<Spread> level(ks.size() - len + 1);
            for (std::size_t p = 0; p < level.size(); ++p) {
                level[p] = below[p];
                level[p].add(below[p + len / 2]);
            }
            table.push_back(std::move(level));
        }
    }
}

Spread CandidateIndex::spread(int stream, std::span<const int> kernels) const {
    if (kernels.empty()) return {};
    const auto from = static_cast<std::size_t>(kernels.data() - kernels_[stream].data());
    const auto level = static_cast<std::size_t>(std::bit_width(kernels.size()) - 1);
    const std::vector<Spread>& row = spreads_[stream][level];
    Spread s = row[from];
    s.add(row[from + kernels.size() - (std::size_t(1) << level)]);
    return s;
}

void CandidateIndex::lowered(int op) {
    for (int i = op; i >= 0; i = ops_[i].pred) {
        const std::int64_t v = next_[i] < 0 ? ops_[i].done_hi : std::min(ops_[i].done_hi, latest_[next_[i]]);
        if (v >= latest_[i]) return;  // the operations before it keep theirs
        latest_[i] = v;
        if (kernel_slot_[i] >= 0) kernel_latest_[ops_[i].stream][kernel_slot_[i]] = v;
    }
}

std::span<const int> CandidateIndex::kernels(int stream, std::int64_t active_after, std::int64_t joined_by) const {
    const std::vector<std::int64_t>& latest = kernel_latest_[stream];
    const std::vector<std::int64_t>& join_lo = kernel_join_lo_[stream];
    // Both nondecreasing along the stream (see the header).
    const auto from = std::upper_bound(latest.begin(), latest.end(), active_after) - latest.begin();
    const auto to = std::upper_bound(join_lo.begin(), join_lo.end(), joined_by) - join_lo.begin();
    if (from >= to) return {};
    return std::span<const int>(kernels_[stream])
        .subspan(static_cast<std::size_t>(from), static_cast<std::size_t>(to - from));
}

void CandidateIndex::kernels_scanned(int stream, std::int64_t active_after, std::int64_t joined_by,
                                     std::vector<int>& out) const {
    for (const int k : kernels_[stream])
        if (ops_[k].join_lo <= joined_by && ops_[k].done_hi > active_after) out.push_back(k);
}

}  // namespace gpuwcrt::interference
