#include "solver/rta_orders/search.hpp"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "solver/rta_orders/state.hpp"

namespace gpuwcrt::rta_orders {
namespace {

using Clock = std::chrono::steady_clock;
using Mask = std::vector<std::uint64_t>;

struct MaskHash {
    std::size_t operator()(const Mask& m) const {
        std::size_t h = 1469598103934665603ull;
        for (auto w : m) h = (h ^ w) * 1099511628211ull;
        return h;
    }
};

struct KeyHash {
    std::size_t operator()(const std::vector<std::int64_t>& k) const {
        std::size_t h = 1469598103934665603ull;
        for (auto w : k) h = (h ^ static_cast<std::uint64_t>(w)) * 1099511628211ull;
        return h;
    }
};

// Explored states per set of analysed kernels; capped so that memory stays bounded (a state
// not stored only costs a re-exploration, never a wrong answer).
constexpr std::size_t max_stored_states = 1'000'000;
constexpr std::size_t compared_states = 16;

class KernelSearch {
public:
    KernelSearch(const RtaOrderProblem& p, int k, std::optional<Clock::time_point> deadline, long long& nodes)
        : p_(p), k_(k), deadline_(deadline), nodes_(nodes), before_(p.kernels(), -1), free_(p.kernels(), 1) {
        for (int j = 0; j < p.kernels(); ++j)
            if (j != k && p.may_precede(j, k)) {
                member_.push_back(j);
                c_max_ = std::max(c_max_, p.c[j]);
            }
        // The stream predecessor of equal release of each member (members are in stream order).
        for (std::size_t x = 0; x < member_.size(); ++x)
            for (std::size_t y = x + 1; y < member_.size(); ++y)
                if (p.stream_before(member_[x], member_[y])) {
                    before_[member_[y]] = member_[x];
                    free_[member_[x]] = free_[member_[y]] = 0;
                }
        placed_.assign(p.kernels(), 0);
        mask_.assign((p.kernels() + 63) / 64, 0);
    }

    // False when the deadline ended it first.
    bool run() {
        State s = State::empty(p_.g_max);
        return dfs(s, static_cast<int>(member_.size()));
    }
    std::int64_t best() const { return best_; }
    std::optional<std::int64_t> root_bound() const { return root_bound_; }
    const std::vector<int>& best_prefix() const { return best_prefix_; }

private:
    bool is_free(int j) const { return free_[j]; }

    // k's f cannot exceed this from state s with the members of `area_left` still to analyse
    // (docs/rta-soundness.md, "Bounds"). Once every pending release has passed no slot idles,
    // so the free instants then sum to S = Σ max(free, latest release) + the area still to come.
    std::int64_t upper_bound(const State& s, std::int64_t latest_release, __int128 area_left) const {
        const __int128 sum = s.free_sum_from(latest_release) + area_left;
        // Graham: when k's last block starts at t every slot is busy until t or later.
        __int128 t = (sum + static_cast<__int128>(p_.slots[k_] - 1) * p_.c[k_]) / p_.g_max;
        // Spread: no slot frees later than the last start + the longest C, so the g_k-th earliest
        // free instant m (k's last block starts by it) satisfies G·m <= S + (g_k − 1)·C_max.
        if (p_.slots[k_] <= p_.g_max)
            t = std::min(t, (sum + static_cast<__int128>(p_.slots[k_] - 1) * c_max_) / p_.g_max);
        return static_cast<std::int64_t>(std::max<__int128>(t, latest_release)) + p_.c[k_];
    }

    bool dominated(const State& s) {
        // The same state after the same set (another order of it): its subtree was explored.
        // With equal releases this is the only dominance there is (every state of one set then
        // has the same sum of free instants, so none is pointwise later than another).
        std::vector<std::int64_t> key(mask_.begin(), mask_.end());
        key.push_back(s.t_a);
        key.push_back(s.g_f);
        for (const auto& [at, n] : s.h) key.insert(key.end(), {at, n});
        if (same_.contains(key)) return true;
        if (same_.size() < max_stored_states) same_.insert(std::move(key));
        auto& seen = explored_[mask_];
        // Only the latest few states of this set are compared: a long list cost more per node
        // than the re-explorations it saved (measured on the bench family at 16 kernels).
        const std::size_t from = seen.size() > compared_states ? seen.size() - compared_states : 0;
        for (std::size_t i = seen.size(); i-- > from;)
            if (seen[i].later_or_equal(s)) return true;
        if (stored_ < max_stored_states) {
            seen.push_back(s);
            ++stored_;
        }
        return false;
    }

    bool dfs(const State& s, int left) {
        if ((++nodes_ & 1023) == 0 && deadline_ && Clock::now() >= *deadline_) return false;
        if (left == 0) {
            State end = s;
            const std::int64_t f = end.add_kernel(p_.release[k_], p_.c[k_], p_.slots[k_]);
            if (f > best_) {
                best_ = f;
                best_prefix_ = prefix_;
            }
            return true;
        }
        // Kernels are analysed by release: only the earliest pending release is eligible.
        std::int64_t next_release = std::numeric_limits<std::int64_t>::max(), latest = p_.release[k_];
        __int128 area_left = 0;
        for (int j : member_)
            if (!placed_[j]) {
                next_release = std::min(next_release, p_.release[j]);
                latest = std::max(latest, p_.release[j]);
                area_left += static_cast<__int128>(p_.slots[j]) * p_.c[j];
            }
        const std::int64_t bound = upper_bound(s, latest, area_left);
        if (left == static_cast<int>(member_.size())) root_bound_ = bound;
        if (bound <= best_) return true;
        if (left < static_cast<int>(member_.size()) && dominated(s)) return true;
        std::vector<int> options;
        for (int j : member_) {
            if (placed_[j] || p_.release[j] != next_release) continue;
            if (before_[j] >= 0 && !placed_[before_[j]]) continue;
            // Two free kernels with equal release, C and slots give the same states either way.
            if (is_free(j) && std::any_of(options.begin(), options.end(), [&](int o) {
                    return is_free(o) && p_.c[o] == p_.c[j] && p_.slots[o] == p_.slots[j];
                }))
                continue;
            options.push_back(j);
        }
        // Longest C first, then most slots: list scheduling's balanced end (LPT), which tends to
        // leave the slots busy longest, so a good order is found first and the bound prunes.
        std::stable_sort(options.begin(), options.end(), [&](int a, int b) {
            return p_.c[a] != p_.c[b] ? p_.c[a] > p_.c[b] : p_.slots[a] > p_.slots[b];
        });
        for (int j : options) {
            State next = s;
            next.add_kernel(p_.release[j], p_.c[j], p_.slots[j]);
            placed_[j] = 1;
            mask_[j / 64] |= 1ull << (j % 64);
            prefix_.push_back(j);
            const bool go_on = dfs(next, left - 1);
            prefix_.pop_back();
            mask_[j / 64] &= ~(1ull << (j % 64));
            placed_[j] = 0;
            if (!go_on) return false;
        }
        return true;
    }

    const RtaOrderProblem& p_;
    int k_;
    std::optional<Clock::time_point> deadline_;
    long long& nodes_;
    std::vector<int> before_;  // latest stream predecessor of equal release among the members, or -1
    std::vector<char> free_;   // in no stream relation with another member
    std::vector<int> member_, prefix_, best_prefix_;
    std::vector<char> placed_;
    Mask mask_;
    std::int64_t best_ = std::numeric_limits<std::int64_t>::min();
    std::unordered_map<Mask, std::vector<State>, MaskHash> explored_;
    std::unordered_set<std::vector<std::int64_t>, KeyHash> same_;
    std::size_t stored_ = 0;
    std::optional<std::int64_t> root_bound_;  // set once the root is reached
    std::int64_t c_max_ = 0;  // longest C among the members
};

}  // namespace

std::vector<int> complete_order(const RtaOrderProblem& p, std::vector<int> prefix) {
    std::vector<char> placed(p.kernels(), 0);
    for (int j : prefix) placed[j] = 1;
    std::vector<int> rest;
    for (int j = 0; j < p.kernels(); ++j)
        if (!placed[j]) rest.push_back(j);
    // Release first; ties keep the kernel (= file) order, which respects every stream.
    std::stable_sort(rest.begin(), rest.end(), [&](int a, int b) { return p.release[a] < p.release[b]; });
    prefix.insert(prefix.end(), rest.begin(), rest.end());
    return prefix;
}

SearchResult search_max_finish(const RtaOrderProblem& p, std::optional<Clock::time_point> deadline,
                               std::optional<int> only) {
    SearchResult r;
    r.finish.resize(p.kernels());
    r.order.resize(p.kernels());
    r.found.resize(p.kernels());
    r.bound.resize(p.kernels());
    // Free: no other kernel of its stream has its release (then no order constrains it).
    std::vector<char> free(p.kernels(), 1);
    std::map<std::pair<int, std::int64_t>, int> per_stream_release;
    for (int j = 0; j < p.kernels(); ++j) ++per_stream_release[{p.stream[j], p.release[j]}];
    for (int j = 0; j < p.kernels(); ++j) free[j] = per_stream_release[{p.stream[j], p.release[j]}] == 1;
    // A free kernel's answer serves every free kernel of equal release, C and slots (swap them).
    std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t>, int> solved;
    std::vector<int> todo;
    for (int k = 0; k < p.kernels(); ++k)
        if (!only || k == *only) todo.push_back(k);
    r.complete = true;
    for (std::size_t i = 0; i < todo.size(); ++i) {
        const int k = todo[i];
        const auto type = std::make_tuple(p.release[k], p.c[k], p.slots[k]);
        if (auto it = solved.find(type); free[k] && it != solved.end()) {
            const int s = it->second;
            r.finish[k] = r.finish[s];
            r.found[k] = r.found[s];
            r.bound[k] = r.bound[s];
            r.order[k] = r.order[s];
            for (int& j : r.order[k])
                j = j == k ? s : j == s ? k : j;
            continue;
        }
        std::optional<Clock::time_point> slice = deadline;
        if (deadline) slice = Clock::now() + (*deadline - Clock::now()) / static_cast<long>(todo.size() - i);
        KernelSearch search(p, k, slice, r.nodes);
        const long long nodes_before = r.nodes;
        const bool done = search.run();
        if (std::getenv("GPUWCRT_DEBUG"))
            std::cerr << "rta search k=" << k << " best " << search.best() << " root bound " << search.root_bound().value_or(-1)
                      << " nodes " << r.nodes - nodes_before << (done ? "" : " (stopped)") << "\n";
        const bool any_order = search.best() != std::numeric_limits<std::int64_t>::min();
        if (any_order) {
            std::vector<int> prefix = search.best_prefix();
            prefix.push_back(k);
            r.order[k] = complete_order(p, prefix);
        }
        if (done) r.finish[k] = search.best();
        else {
            r.complete = false;
            if (any_order) r.found[k] = search.best();
            r.bound[k] = search.root_bound();
        }
        if (free[k]) solved[type] = k;
    }
    return r;
}

}  // namespace gpuwcrt::rta_orders
