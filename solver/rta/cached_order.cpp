#include "solver/rta/cached_order.hpp"

#include <algorithm>
#include <utility>

namespace gpuwcrt::rta_orders {

CachedOrder::CachedOrder(const RtaOrderProblem& p, std::vector<int> order) : p_(p) { reset(std::move(order)); }

void CachedOrder::reset(std::vector<int> order) {
    order_ = std::move(order);
    states_.resize(order_.size() + 1);
    states_[0] = State::empty(p_.g_max);
    recompute_from(0);
}

void CachedOrder::recompute_from(int i) {
    for (int x = i; x < size(); ++x) {
        states_[x + 1] = states_[x];  // copy-assignment reuses h's capacity
        const int j = order_[x];
        states_[x + 1].add_kernel(p_.release[j], p_.c[j], p_.slots[j]);
    }
}

bool CachedOrder::allowed(const Move& m) const {
    if (m.from == m.to) return false;
    const int lo = std::min(m.from, m.to), hi = std::max(m.from, m.to);
    // Releases are sorted along the order: a kernel may only pass kernels of its own release,
    // i.e. the two ends of the moved range have equal release.
    if (p_.release[order_[lo]] != p_.release[order_[hi]]) return false;
    // Streams: a kernel moving later must not pass a stream successor, one moving earlier
    // must not pass a stream predecessor.
    const bool moves_later = m.kind == Move::swap || m.from < m.to;
    const bool moves_earlier = m.kind == Move::swap || m.from > m.to;
    if (moves_later) {
        const int x = order_[lo];
        for (int i = lo + 1; i <= hi; ++i)
            if (p_.stream_before(x, order_[i])) return false;
    }
    if (moves_earlier) {
        const int y = order_[hi];
        for (int i = lo; i < hi; ++i)
            if (p_.stream_before(order_[i], y)) return false;
    }
    return true;
}

int CachedOrder::kernel_after(const Move& m, int i) const {
    if (m.kind == Move::swap) return i == m.from ? order_[m.to] : i == m.to ? order_[m.from] : order_[i];
    if (i == m.to) return order_[m.from];
    if (m.from < m.to && i >= m.from && i < m.to) return order_[i + 1];
    if (m.from > m.to && i > m.to && i <= m.from) return order_[i - 1];
    return order_[i];
}

void CachedOrder::evaluate(const Move& m, State& out) const {
    const int first = m.first_changed();
    out = states_[first];
    for (int i = first; i < size(); ++i) {
        const int j = kernel_after(m, i);
        out.add_kernel(p_.release[j], p_.c[j], p_.slots[j]);
    }
}

void CachedOrder::apply(const Move& m) {
    if (m.kind == Move::swap) {
        std::swap(order_[m.from], order_[m.to]);
    } else if (m.from < m.to) {
        std::rotate(order_.begin() + m.from, order_.begin() + m.from + 1, order_.begin() + m.to + 1);
    } else {
        std::rotate(order_.begin() + m.to, order_.begin() + m.from, order_.begin() + m.from + 1);
    }
    recompute_from(m.first_changed());
}

}  // namespace gpuwcrt::rta_orders
