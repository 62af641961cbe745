#include "solver/rta/tail_bound.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <string>
#include <unordered_set>

namespace gpuwcrt::rta_orders {
namespace {

using Profile = std::vector<std::int64_t>;  // the g_max free instants, earliest first

// Beyond this many slots a profile costs too much to copy per step: the check says unknown.
constexpr std::int64_t max_slots = 1024;
// Explored (unpeeled kernels, profile) pairs kept: a few hundred bytes each, so the table stays
// well within --max-memory's default.
constexpr std::size_t max_seen = 200'000;

Profile profile_of(const State& s, std::int64_t g_max) {
    Profile p;
    p.reserve(static_cast<std::size_t>(g_max));
    p.insert(p.end(), static_cast<std::size_t>(s.g_f), s.t_a);
    for (auto it = s.h.rbegin(); it != s.h.rend(); ++it)
        p.insert(p.end(), static_cast<std::size_t>(it->second), it->first);
    return p;
}

State state_of(const Profile& p) {
    State s;
    s.t_a = p.front();
    s.g_f = 0;
    for (auto it = p.rbegin(); it != p.rend(); ++it) {
        if (*it == s.t_a) ++s.g_f;
        else if (!s.h.empty() && s.h.back().first == *it) ++s.h.back().second;
        else s.h.push_back({*it, 1});
    }
    return s;
}

// k's f when the kernels before it leave profile p (Algorithm 2, State::add_kernel; k released
// no later than the earliest instant, so the release plays no part).
std::int64_t finish_from(const Profile& p, std::int64_t c, std::int64_t slots) {
    State s = state_of(p);
    return s.add_kernel(s.t_a, c, slots);
}

// Kernels still unpeeled at or below this many: every order of them is run forward from the
// start profile instead of peeling further (fewer profiles to build).
constexpr int forward_kernels = 3;

class Tail {
public:
    Tail(Profile start, const std::vector<std::pair<std::int64_t, std::int64_t>>& rest, std::int64_t c_k,
         std::int64_t slots_k, std::int64_t target, long long steps, const Budget& budget)
        : m_(std::move(start)),
          g_(static_cast<std::int64_t>(m_.size())),
          c_k_(c_k),
          slots_k_(slots_k),
          target_(target),
          steps_(steps),
          budget_(budget) {
        // Kernels of equal C and slots are interchangeable here (streams are ignored): counted.
        for (const auto& kernel : rest) {
            auto it = std::find(types_.begin(), types_.end(), kernel);
            if (it == types_.end()) {
                types_.push_back(kernel);
                counts_.push_back(1);
            } else {
                ++counts_[static_cast<std::size_t>(it - types_.begin())];
            }
        }
        for (std::size_t t = 0; t < types_.size(); ++t) longest_first_.push_back(t);
        std::sort(longest_first_.begin(), longest_first_.end(),
                  [&](std::size_t a, std::size_t b) { return types_[a].first > types_[b].first; });
    }

    // The kernel types of the chain found (forward order), after run() said possible.
    const std::vector<std::size_t>& chain() const { return chain_; }

    TailAnswer run() {
        __int128 sum = 0, area = 0;
        std::int64_t c_max = 0;
        for (auto v : m_) sum += v;
        for (std::size_t t = 0; t < types_.size(); ++t) {
            area += static_cast<__int128>(types_[t].first) * types_[t].second * counts_[t];
            c_max = std::max(c_max, types_[t].first);
        }
        if (types_.empty())
            return finish_from(m_, c_k_, slots_k_) >= target_ ? TailAnswer::possible : TailAnswer::impossible;
        // No slot idles (the premise): the final instants sum to exactly `total`.
        const __int128 total = sum + area;
        Profile p(m_.size());
        // m = the earliest final instant; every final instant is <= max(m + C_max, the latest
        // present one) (a slot that got a block got its last one at a start <= m).
        for (__int128 m = total / g_; m >= m_.front(); --m) {
            if (!spend()) return TailAnswer::unknown;
            const __int128 hi = std::max<__int128>(m + c_max, m_.back());
            if (m + (g_ - 1) * hi < total) break;  // a lower m only makes it worse
            p[0] = static_cast<std::int64_t>(m);
            fill(p, static_cast<std::size_t>(g_ - 1), static_cast<std::int64_t>(hi), total - m);
            if (found_ || out_of_budget_) break;
        }
        if (out_of_budget_) return TailAnswer::unknown;
        return found_ ? TailAnswer::possible : TailAnswer::impossible;
    }

private:
    bool spend() {
        if (--steps_ < 0) out_of_budget_ = true;
        if ((steps_ & 4095) == 0 && budget_.expired()) out_of_budget_ = true;
        return !out_of_budget_;
    }

    // Blocks at least d long among the kernels still counted.
    std::int64_t blocks_at_least(std::int64_t d) const {
        std::int64_t n = 0;
        for (std::size_t t : longest_first_) {
            if (types_[t].first < d) break;
            n += types_[t].second * counts_[t];
        }
        return extra_c_ >= d ? n + extra_n_ : n;
    }

    // Slots that must end with a block from the counted kernels for #{q >= y} (at index i of
    // q, the first of its value) against the start profile: "last blocks" (docs, "Bounds").
    bool enough_long_blocks(const Profile& q, std::size_t i, std::int64_t earliest) const {
        const std::int64_t y = q[i];
        const auto below = std::lower_bound(m_.begin(), m_.end(), y) - m_.begin();  // start instants < y
        const std::int64_t need = static_cast<std::int64_t>(below) - static_cast<std::int64_t>(i);
        return need <= 0 || blocks_at_least(y - earliest) >= need;
    }

    // Necessary conditions for q to be the profile after the counted kernels, from the start
    // profile (docs/theory/rta/rta-soundness.md, "Tail check"): pointwise no earlier (Lemma 2), and for
    // every instant y, the slots raised to y or beyond by them end with distinct blocks at
    // least y − min q long (they started by the last start, which is <= min q).
    bool may_be_reached(const Profile& q) const {
        if (extra_n_ == 0 && std::all_of(counts_.begin(), counts_.end(), [](int n) { return n == 0; })) return q == m_;
        for (std::size_t i = 0; i < q.size(); ++i)
            if (q[i] < m_[i]) return false;
        // The same count as enough_long_blocks, in one pass (the hot path): instants y rise, so
        // the start instants below y and the blocks at least y − min q long move one way.
        by_length_.clear();           // (C, blocks at least C long), longest first; the kernel being
        std::int64_t cumulative = 0;  // peeled (extra) merged in at its length
        bool extra_done = extra_n_ == 0;
        for (std::size_t t : longest_first_) {
            if (!extra_done && extra_c_ > types_[t].first) {
                cumulative += extra_n_;
                by_length_.push_back({extra_c_, cumulative});
                extra_done = true;
            }
            cumulative += types_[t].second * counts_[t];
            by_length_.push_back({types_[t].first, cumulative});
        }
        if (!extra_done) {
            cumulative += extra_n_;
            by_length_.push_back({extra_c_, cumulative});
        }
        std::size_t below = 0, at = by_length_.size();  // by_length_[at − 1]: shortest C >= d
        for (std::size_t i = 0; i < q.size(); ++i) {
            if (i > 0 && q[i] == q[i - 1]) continue;
            while (below < m_.size() && m_[below] < q[i]) ++below;
            const std::int64_t need = static_cast<std::int64_t>(below) - static_cast<std::int64_t>(i);
            if (need <= 0) continue;
            const std::int64_t d = q[i] - q.front();
            while (at > 0 && by_length_[at - 1].first < d) --at;
            if ((at == 0 ? 0 : by_length_[at - 1].second) < need) return false;
        }
        return true;
    }

    // Every profile q' from which `slots` blocks of length c (one kernel) give q. Backward,
    // one block at a time: the block ended at some e in q and started at e − c, the minimum of
    // the profile before it, so e − c <= every other instant of q; e − c is the new minimum.
    void unapply(const Profile& q, std::int64_t c, std::int64_t slots, std::vector<Profile>& out) {
        std::vector<Profile> cur{q}, next;
        for (std::int64_t step = 0; step < slots && !cur.empty(); ++step) {
            next.clear();
            for (const Profile& p : cur) {
                for (std::size_t i = 0; i < p.size(); ++i) {
                    if (i + 1 < p.size() && p[i + 1] == p[i]) continue;  // the last of each value
                    const std::int64_t others_min = i > 0          ? p[0]
                                                    : p.size() > 1 ? p[1]
                                                                   : std::numeric_limits<std::int64_t>::max();
                    const std::int64_t v = p[i] - c;
                    if (v > others_min) break;  // later values end even later
                    if (v < m_[0]) continue;
                    if (!spend()) return;
                    Profile n;
                    n.reserve(p.size());
                    n.push_back(v);
                    n.insert(n.end(), p.begin(), p.begin() + static_cast<long>(i));
                    n.insert(n.end(), p.begin() + static_cast<long>(i) + 1, p.end());
                    // The kernel's first slots − step − 1 blocks and the kernels still counted
                    // lead from the start profile to n: (T3) and (T4) prune it.
                    extra_c_ = c;
                    extra_n_ = slots - step - 1;
                    const bool ok = may_be_reached(n);
                    extra_n_ = 0;
                    if (ok) next.push_back(std::move(n));
                }
            }
            std::sort(next.begin(), next.end());
            next.erase(std::unique(next.begin(), next.end()), next.end());
            std::swap(cur, next);
        }
        out = std::move(cur);
    }

    // Is there a chain of kernel peels from q (the profile after the counted kernels) back to
    // the start profile? True also when the budget ran out (the caller then says unknown).
    bool reach(const Profile& q) {
        if (std::all_of(counts_.begin(), counts_.end(), [](int n) { return n == 0; })) return q == m_;
        if (!spend()) return true;
        if (int left = std::accumulate(counts_.begin(), counts_.end(), 0); left <= forward_kernels) {
            std::vector<std::size_t> order;
            for (std::size_t t = 0; t < types_.size(); ++t)
                order.insert(order.end(), static_cast<std::size_t>(counts_[t]), t);
            do {
                if (!spend()) return true;
                State st = state_of(m_);
                for (std::size_t t : order) st.add_kernel(st.t_a, types_[t].first, types_[t].second);
                if (profile_of(st, g_) == q) {
                    chain_ = order;
                    return true;
                }
            } while (std::next_permutation(order.begin(), order.end()));
            return false;
        }
        std::string key(reinterpret_cast<const char*>(counts_.data()), counts_.size() * sizeof(int));
        key.append(reinterpret_cast<const char*>(q.data()), q.size() * sizeof(std::int64_t));
        if (seen_.contains(key)) return false;                      // explored: it failed
        if (seen_.size() < max_seen) seen_.insert(std::move(key));  // else only costs re-exploring
        std::vector<Profile> before;
        // Shortest C first: peeled first means last in the order, where list scheduling's
        // latest-ending orders put the short kernels (LPT); it finds chains sooner.
        for (auto it = longest_first_.rbegin(); it != longest_first_.rend(); ++it) {
            const std::size_t t = *it;
            if (counts_[t] == 0) continue;
            --counts_[t];
            unapply(q, types_[t].first, types_[t].second, before);
            bool hit = out_of_budget_;
            for (const Profile& b : before)
                if (hit || (may_be_reached(b) && reach(b))) {
                    hit = true;
                    break;
                }
            ++counts_[t];
            if (hit && !out_of_budget_) chain_.push_back(t);  // deeper peels are earlier kernels
            if (hit || out_of_budget_) return true;
        }
        return false;
    }

    // The final profiles with earliest instant p[0]: positions 1..i still free, filled from the
    // latest down with values <= hi summing to rem; each complete one that gives k an f >=
    // target and passes may_be_reached is peeled back (reach).
    void fill(Profile& p, std::size_t i, std::int64_t hi, __int128 rem) {
        if (found_ || out_of_budget_) return;
        const std::int64_t m = p[0];
        if (i == 0) {
            if (rem != 0) return;
            if (!spend()) return;
            if (finish_from(p, c_k_, slots_k_) >= target_ && may_be_reached(p) && reach(p)) found_ = true;
            return;
        }
        const __int128 others = static_cast<__int128>(i - 1);
        const __int128 top = std::min<__int128>(hi, rem - others * m);
        const __int128 bottom =
            std::max<__int128>({m, m_[i], (rem + static_cast<__int128>(i) - 1) / static_cast<__int128>(i)});
        for (__int128 v = top; v >= bottom; --v) {
            if (!spend()) return;
            p[i] = static_cast<std::int64_t>(v);
            // The count of instants >= p[i + 1] is final once p[i] is below it; a lower p[i]
            // changes nothing there, so a failure ends the loop.
            if (i + 1 < p.size() && p[i] < p[i + 1] && !enough_long_blocks(p, i + 1, m)) break;
            // The best k can get with every position below at most p[i]: monotone in p[i].
            Profile best = p;
            for (std::size_t j = 1; j < i; ++j) best[j] = p[i];
            if (finish_from(best, c_k_, slots_k_) < target_) break;
            fill(p, i - 1, p[i], rem - v);
            if (found_ || out_of_budget_) return;
        }
    }

    Profile m_;
    std::int64_t g_;
    std::int64_t c_k_, slots_k_, target_;
    long long steps_;
    // Blocks of a kernel being peeled that are still before the profile at hand (unapply).
    std::int64_t extra_c_ = 0, extra_n_ = 0;
    const Budget& budget_;
    std::vector<std::pair<std::int64_t, std::int64_t>> types_;
    std::vector<int> counts_;
    std::vector<std::size_t> chain_;
    std::vector<std::size_t> longest_first_;                                // type indices, longest C first
    mutable std::vector<std::pair<std::int64_t, std::int64_t>> by_length_;  // may_be_reached's buffer
    std::unordered_set<std::string> seen_;
    bool found_ = false, out_of_budget_ = false;
};

}  // namespace

TailResult tail_reaches(const State& from, std::int64_t g_max,
                        const std::vector<std::pair<std::int64_t, std::int64_t>>& rest, std::int64_t c_k,
                        std::int64_t slots_k, std::int64_t target, long long steps, const Budget& budget) {
    TailResult r;
    if (g_max > max_slots) return r;
    Tail tail(profile_of(from, g_max), rest, c_k, slots_k, target, steps, budget);
    r.answer = tail.run();
    if (r.answer != TailAnswer::possible) return r;
    // Types back to kernels: each type's kernels in the order `rest` lists them.
    std::vector<std::pair<std::int64_t, std::int64_t>> types;
    for (const auto& kernel : rest)
        if (std::find(types.begin(), types.end(), kernel) == types.end()) types.push_back(kernel);
    std::vector<char> used(rest.size(), 0);
    for (std::size_t t : tail.chain())
        for (std::size_t i = 0; i < rest.size(); ++i)
            if (!used[i] && rest[i] == types[t]) {
                used[i] = 1;
                r.order.push_back(static_cast<int>(i));
                break;
            }
    return r;
}

}  // namespace gpuwcrt::rta_orders
