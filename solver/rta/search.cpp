#include "solver/rta/search.hpp"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <map>
#include <unordered_map>

#include "solver/rta/explored_table.hpp"
#include "solver/rta/leveled_order.hpp"
#include "solver/rta/local_search.hpp"
#include "solver/rta/state.hpp"
#include "solver/rta/tail_bound.hpp"

namespace gpuwcrt::rta_orders {
namespace {

using Mask = std::vector<std::uint64_t>;

struct MaskHash {
    std::size_t operator()(const Mask& m) const {
        std::size_t h = 1469598103934665603ull;
        for (auto w : m) h = (h ^ w) * 1099511628211ull;
        return h;
    }
};

// Explored states per set of analysed kernels; capped so that memory stays bounded (a state
// not stored only costs a re-exploration, never a wrong answer).
constexpr std::size_t max_stored_states = 1'000'000;
// Explored (set, state) keys (explored_table.hpp): about 60-200 bytes each, so 0.6 to 2 million
// keys; the whole search then stays well within --max-memory's default.
constexpr std::size_t memo_budget_bytes = std::size_t{128} << 20;
constexpr std::size_t compared_states = 16;
// Steps of the root's tail check (solver/rta/tail_bound.hpp), which also stops at half
// of the kernel's time: a cap for searches without a deadline, well above what the bench
// family's hardest kernels need.
constexpr long long tail_steps = 60'000'000;
// The branch and bound's first, short run, before the tail check.
constexpr std::chrono::milliseconds quick_branch_and_bound{100};

class KernelSearch {
public:
    KernelSearch(const RtaOrderProblem& p, int k, const Budget& budget, long long& nodes)
        : p_(p), k_(k), budget_(budget), nodes_(nodes), before_(p.kernels(), -1), free_(p.kernels(), 1) {
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
        by_c_ = member_;
        std::stable_sort(by_c_.begin(), by_c_.end(), [&](int a, int b) { return p.c[a] > p.c[b]; });
        for (int j : member_) one_release_ = one_release_ && p.release[j] == p.release[k];
        mask_.assign((p.kernels() + 63) / 64, 0);
    }

    // False when the deadline ended it first.
    bool run() {
        states_.assign(member_.size() + 2, State::empty(p_.g_max));
        rest_.resize(member_.size() + 1);
        options_.resize(member_.size() + 1);
        // A short branch and bound first: small workloads are decided by it at once, where the
        // tail check could spend most of the kernel's time and end unknown.
        const Budget budget = budget_;
        budget_ = budget.capped(quick_branch_and_bound);
        const bool quick = dfs(0);
        budget_ = budget;
        if (quick) return true;
        // The interrupted run left memo entries for subtrees it did not finish: forget them.
        same_ = ExploredTable(memo_budget_bytes);
        explored_.clear();
        stored_ = 0;
        tail_at_root();
        return dfs(0);
    }
    std::int64_t best() const { return best_; }
    // Starts from an order found before (a prefix of k's members giving f = best): the bound
    // prunes from the first node on.
    void seed(std::int64_t best, std::vector<int> prefix) {
        best_ = best;
        best_prefix_ = std::move(prefix);
    }
    std::optional<std::int64_t> root_bound() const { return root_bound_; }
    std::size_t memo_keys() const { return same_.size(); }
    // The bound before any member is placed (the value no order can exceed).
    std::int64_t bound_at_root() const {
        std::int64_t latest = p_.release[k_], rest_release = std::numeric_limits<std::int64_t>::min();
        std::vector<std::pair<std::int64_t, std::int64_t>> rest;
        for (int j : by_c_) {
            latest = std::max(latest, p_.release[j]);
            rest_release = std::max(rest_release, p_.release[j]);
            rest.push_back({p_.c[j], p_.slots[j]});
        }
        return upper_bound(State::empty(p_.g_max), latest, rest_release, rest);
    }
    // The members by release, ties in kernel (= file) order, which keeps every stream's order:
    // a consistent order to start a local search from.
    std::vector<int> first_order() const {
        std::vector<int> order = member_;
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return p_.release[a] < p_.release[b]; });
        return order;
    }
    const std::vector<int>& best_prefix() const { return best_prefix_; }

private:
    bool is_free(int j) const { return free_[j]; }

    // The tail check (docs/theory/rta/rta-soundness.md, "Bounds", "Tail check") at the root, when k and
    // every member are released together (its premise: no release pending). It either proves
    // best + 1 unreachable (the root bound becomes best: decided) or finds an order reaching
    // it, which becomes the incumbent once Algorithm 2 confirms it and it keeps stream order;
    // then it asks again. Each call is costly, so only here: at deeper nodes, with smaller
    // budgets, it decides no more kernels of the bench family.
    void tail_at_root() {
        const std::int64_t r = p_.release[k_];
        for (int j : member_)
            if (p_.release[j] != r) return;
        const State root{r, p_.g_max, {}};
        std::vector<std::pair<std::int64_t, std::int64_t>> rest;
        for (int j : by_c_) rest.push_back({p_.c[j], p_.slots[j]});
        const std::int64_t bound = bound_at_root();
        for (int ask = 0; ask < 4 && best_ != std::numeric_limits<std::int64_t>::min() && best_ < bound; ++ask) {
            // Seven eighths of the time left to this kernel; the branch and bound keeps the rest:
            // it rarely decides what the check could not, and smaller shares for the check leave
            // more kernels of the bench family undecided.
            const TailResult t =
                tail_reaches(root, p_.g_max, rest, p_.c[k_], p_.slots[k_], best_ + 1, tail_steps, budget_.slice(7, 8));
            if (t.answer == TailAnswer::impossible) tail_cap_ = best_;
            if (t.answer != TailAnswer::possible) return;
            std::vector<int> order;
            for (int i : t.order) order.push_back(by_c_[static_cast<std::size_t>(i)]);
            if (!p_.keeps_order(order)) return;  // the check ignores streams
            State s = State::empty(p_.g_max);
            for (int j : order) s.add_kernel(p_.release[j], p_.c[j], p_.slots[j]);
            const std::int64_t f = s.add_kernel(p_.release[k_], p_.c[k_], p_.slots[k_]);
            if (f <= best_) return;
            best_ = f;
            best_prefix_ = std::move(order);
        }
    }

    // k's f cannot exceed this from state s with the members of `rest` (C, slots; longest C
    // first) still to analyse (docs/theory/rta/rta-soundness.md, "Bounds"). Once every pending release has
    // passed no slot idles, so the final free instants sum to at most S = Σ max(free, latest
    // release) + the area still to come.
    std::int64_t upper_bound(const State& s, std::int64_t latest_release, std::int64_t rest_release,
                             const std::vector<std::pair<std::int64_t, std::int64_t>>& rest) const {
        __int128 area_left = 0;
        for (const auto& [c, n] : rest) area_left += static_cast<__int128>(c) * n;
        const __int128 sum = free_sum_from(s, latest_release) + area_left;
        // Graham: when k's last block starts at t every slot is busy until t or later.
        __int128 t = (sum + static_cast<__int128>(p_.slots[k_] - 1) * p_.c[k_]) / p_.g_max;
        // k's last block starts by x, the g_k-th earliest final free instant, when g_k <= G.
        // Spread: no slot frees later than the last start + the longest C, so
        // G·x <= S + (g_k − 1)·C_max; and the sharper "last blocks" bound.
        if (p_.slots[k_] <= p_.g_max) {
            t = std::min(t, (sum + static_cast<__int128>(p_.slots[k_] - 1) * c_max_) / p_.g_max);
            t = std::min(t, last_blocks_bound(s, sum, rest_release, rest));
        }
        const std::int64_t bound = static_cast<std::int64_t>(std::max<__int128>(t, latest_release)) + p_.c[k_];
        // At the root, what the tail check proved (tail_at_root).
        return rest.size() == member_.size() ? std::min(bound, tail_cap_) : bound;
    }

    // A bound on x, the g-th earliest final free instant (g = k's slots <= G), by "last blocks"
    // (docs/theory/rta/rta-soundness.md, "Bounds"): let s be the start of the last block still to come
    // (s >= every start, s >= t_a and the latest pending release, every final free instant
    // >= s). A slot whose final free instant is >= x but whose present one is < x ends with a
    // block still to come, of length >= x − s. So with u(x) present instants >= x, at least
    // G − g + 1 − u(x) blocks to come are that long: x − s <= d(x), the (G − g + 1 − u(x))-th
    // longest C to come; and the g − 1 earliest final instants are >= s, the others >= x:
    // G·x − (g − 1)·(x − s) <= S. u, hence d, is constant between present instants.
    __int128 last_blocks_bound(const State& s, __int128 sum, std::int64_t rest_release,
                               const std::vector<std::pair<std::int64_t, std::int64_t>>& rest) const {
        const std::int64_t G = p_.g_max, g = p_.slots[k_];
        const __int128 s_min = std::max(s.t_a, rest_release);
        // Low instants >= s >= s_min, the G − g + 1 others >= x.
        const __int128 global = (sum - static_cast<__int128>(g - 1) * s_min) / (G - g + 1);
        std::vector<std::pair<std::int64_t, std::int64_t>> present;  // earliest first
        if (s.g_f > 0) present.push_back({s.t_a, s.g_f});
        for (auto it = s.h.rbegin(); it != s.h.rend(); ++it) present.push_back(*it);
        std::int64_t at_or_after = G;  // present instants >= the current piece's instants
        constexpr __int128 infinity = std::numeric_limits<__int128>::max() / 4;
        __int128 best = std::numeric_limits<__int128>::min();
        for (std::size_t i = 0; i <= present.size(); ++i) {
            // Piece i: x in (present[i−1], present[i]] (the last piece: x > every present instant).
            const __int128 lo = i == 0 ? -infinity : static_cast<__int128>(present[i - 1].first) + 1;
            const __int128 hi = i == present.size() ? infinity : present[i].first;
            const std::int64_t need = G - g + 1 - at_or_after;
            if (i < present.size()) at_or_after -= present[i].second;
            __int128 x = hi;
            if (need > 0) {
                std::int64_t seen = 0, d = -1;
                for (const auto& [c, n] : rest)
                    if ((seen += n) >= need) {
                        d = c;
                        break;
                    }
                if (d < 0) continue;  // fewer blocks to come than slots to raise
                x = std::min(x, (sum + static_cast<__int128>(g - 1) * d) / G);
            }
            if (x >= lo) best = std::max(best, x);
        }
        return std::min(best, global);
    }

    void make_key(const State& s) {
        key_.assign(mask_.begin(), mask_.end());
        // With no slot free at t_a, t_a plays no further part (the next block starts at the
        // earliest instant of h, which is later): leaving it out lets more keys meet.
        key_.push_back(s.g_f > 0 ? s.t_a : 0);
        key_.push_back(s.g_f);
        for (const auto& [at, n] : s.h) {
            key_.push_back(at);
            key_.push_back(n);
        }
    }

    bool dominated(const State& s) {
        // The same state after the same set (another order of it): its subtree was explored,
        // with a best value no larger than now (each kernel's search has its own memo, freed
        // when it ends). With equal releases this is the only dominance there is (every state
        // of one set then has the same sum of free instants, so none is pointwise later).
        make_key(s);
        if (same_.contains(key_)) return true;
        same_.insert(key_);
        if (one_release_) return false;
        auto& seen = explored_[mask_];
        // Only the latest few states of this set are compared: a long list costs more per node
        // than the re-explorations it saves (on the bench family at 16 kernels).
        const std::size_t from = seen.size() > compared_states ? seen.size() - compared_states : 0;
        for (std::size_t i = seen.size(); i-- > from;)
            if (later_or_equal(seen[i], s)) return true;
        if (stored_ < max_stored_states) {
            seen.push_back(s);
            ++stored_;
        }
        return false;
    }

    // depth = kernels placed; states_[depth] is the state after them.
    bool dfs(int depth) {
        if ((++nodes_ & 1023) == 0 && budget_.expired()) return false;
        const State& s = states_[depth];
        const int left = static_cast<int>(member_.size()) - depth;
        if (left == 0) {
            State& end = states_[depth + 1];
            end = s;
            const std::int64_t f = end.add_kernel(p_.release[k_], p_.c[k_], p_.slots[k_]);
            if (f > best_) {
                best_ = f;
                best_prefix_ = prefix_;
            }
            return true;
        }
        // Kernels are analysed by release: only the earliest pending release is eligible.
        std::int64_t next_release = std::numeric_limits<std::int64_t>::max(), latest = p_.release[k_];
        std::int64_t rest_release = std::numeric_limits<std::int64_t>::min();
        auto& rest = rest_[depth];
        rest.clear();
        for (int j : by_c_)  // longest C first
            if (!placed_[j]) {
                next_release = std::min(next_release, p_.release[j]);
                latest = std::max(latest, p_.release[j]);
                rest_release = std::max(rest_release, p_.release[j]);
                rest.push_back({p_.c[j], p_.slots[j]});
            }
        const std::int64_t bound = upper_bound(s, latest, rest_release, rest);
        if (depth == 0) root_bound_ = bound;
        if (bound <= best_) return true;
        if (depth > 0 && dominated(s)) return true;
        auto& options = options_[depth];
        options.clear();
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
        // (std::sort with the index as last key: the same order as a stable sort of the members,
        // without stable_sort's buffer allocation at every node.)
        std::sort(options.begin(), options.end(), [&](int a, int b) {
            return p_.c[a] != p_.c[b]           ? p_.c[a] > p_.c[b]
                   : p_.slots[a] != p_.slots[b] ? p_.slots[a] > p_.slots[b]
                                                : a < b;
        });
        for (int j : options) {
            State& next = states_[depth + 1];
            next = states_[depth];  // copy-assignment reuses h's capacity
            next.add_kernel(p_.release[j], p_.c[j], p_.slots[j]);
            placed_[j] = 1;
            mask_[j / 64] |= 1ull << (j % 64);
            prefix_.push_back(j);
            const bool go_on = dfs(depth + 1);
            prefix_.pop_back();
            mask_[j / 64] &= ~(1ull << (j % 64));
            placed_[j] = 0;
            if (!go_on) return false;
        }
        return true;
    }

    const RtaOrderProblem& p_;
    int k_;
    Budget budget_;
    long long& nodes_;
    std::vector<int> before_;  // latest stream predecessor of equal release among the members, or -1
    std::vector<char> free_;   // in no stream relation with another member
    std::vector<int> member_, prefix_, best_prefix_;
    std::vector<char> placed_;
    Mask mask_;
    std::int64_t best_ = std::numeric_limits<std::int64_t>::min();
    std::unordered_map<Mask, std::vector<State>, MaskHash> explored_;
    ExploredTable same_{memo_budget_bytes};
    std::vector<std::int64_t> key_;
    // Per depth, reused so that a node allocates nothing once they have grown.
    std::vector<State> states_;
    std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> rest_;
    std::vector<std::vector<int>> options_;
    std::size_t stored_ = 0;
    std::optional<std::int64_t> root_bound_;  // set once the root is reached
    std::int64_t c_max_ = 0;                  // longest C among the members
    std::vector<int> by_c_;                   // the members, longest C first
    bool one_release_ = true;                 // every member is released with k: then no slot ever idles
    std::int64_t tail_cap_ = std::numeric_limits<std::int64_t>::max();  // proven by tail_at_root
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

namespace {

// A good incumbent first (a third of the slice at most, until it meets the root bound): the
// branch and bound then often only has to see that no order reaches the bound. The first round
// gives up after 512 fruitless perturbations (small workloads are decided by the branch and
// bound alone); the second, only for kernels the first could not decide, goes on from
// the best order with other perturbations for its whole third. A constructed order ("level,
// then raise", leveled_order.hpp) first: it is cheap and often meets the bound where
// the local search does not.
void seed_incumbent(const RtaOrderProblem& p, int k, int round, const Budget& slice, KernelSearch& search,
                    std::optional<std::int64_t>& found, std::vector<int>& prefix) {
    const std::int64_t root_bound = search.bound_at_root();
    if (round == 0)
        if (std::optional<LocalResult> built = leveled_order(p, k, search.first_order(), slice);
            built && (!found || built->finish > *found)) {
            found = built->finish;
            prefix = std::move(built->prefix);
        }
    if (found && *found >= root_bound) {
        search.seed(*found, prefix);
        return;
    }
    const Budget until = slice.deadline ? slice.slice(1, 3) : slice.capped(std::chrono::milliseconds(200));
    const int restarts = round == 1 ? std::numeric_limits<int>::max() : 512;
    LocalResult l = local_search(p, k, round == 1 && found ? prefix : search.first_order(), until, restarts, root_bound,
                                 static_cast<std::uint64_t>(round));
    if (found && *found >= l.finish) search.seed(*found, prefix);
    else search.seed(l.finish, std::move(l.prefix));
}

// What kernel k's branch and bound left: its maximum (done), else the best order found and a
// proven bound.
void record(const RtaOrderProblem& p, int k, KernelSearch& search, bool done, SearchResult& r,
            std::vector<int>& prefix) {
    const bool any_order = search.best() != std::numeric_limits<std::int64_t>::min();
    if (any_order) {
        prefix = search.best_prefix();
        std::vector<int> order = prefix;
        order.push_back(k);
        r.order[k] = complete_order(p, order);
    }
    if (done) {
        r.finish[k] = search.best();
        r.found[k] = r.bound[k] = std::nullopt;
    } else {
        if (any_order) r.found[k] = search.best();
        if (search.root_bound())
            r.bound[k] = r.bound[k] ? std::min(*r.bound[k], *search.root_bound()) : *search.root_bound();
    }
}

}  // namespace

std::int64_t root_bound(const RtaOrderProblem& p, int k) {
    long long nodes = 0;
    return KernelSearch(p, k, Budget(), nodes).bound_at_root();
}

SearchResult search_max_finish(const RtaOrderProblem& p, const Budget& budget, std::optional<int> only,
                               SearchOptions options) {
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
    std::vector<std::vector<int>> prefix(p.kernels());  // best order found so far, before k
    auto copy_answer = [&](int k, int s) {
        r.finish[k] = r.finish[s];
        r.found[k] = r.found[s];
        r.bound[k] = r.bound[s];
        r.order[k] = r.order[s];
        for (int& j : r.order[k]) j = j == k ? s : j == s ? k : j;
    };
    // Two rounds: most kernels are decided at once (their best order meets the bound), so the
    // first round gives each kernel half of an even share; the second shares all the time left
    // among the kernels still undecided, each starting from the best order found for it.
    for (int round = 0; round < 2; ++round) {
        std::vector<int> left;
        for (int k : todo) {
            if (r.finish[k]) continue;
            // In the second round a kernel that took another's answer waits for that one's.
            if (auto it = solved.find(std::make_tuple(p.release[k], p.c[k], p.slots[k]));
                round == 1 && free[k] && it != solved.end() && it->second != k)
                continue;
            left.push_back(k);
        }
        if (left.empty() || (round == 1 && !budget.deadline)) break;
        for (std::size_t i = 0; i < left.size(); ++i) {
            const int k = left[i];
            const auto type = std::make_tuple(p.release[k], p.c[k], p.slots[k]);
            if (auto it = solved.find(type); round == 0 && free[k] && it != solved.end()) {
                copy_answer(k, it->second);
                continue;
            }
            // Setting up one kernel's search costs time quadratic in the kernels: past the
            // deadline the kernels left get no search at all, so that the run ends on time.
            if (budget.expired()) continue;
            const auto share = static_cast<long long>(left.size() - i);
            const Budget slice = budget.slice(1, round == 0 ? 2 * share : share);
            KernelSearch search(p, k, slice, r.nodes);
            if (options.local_search) seed_incumbent(p, k, round, slice, search, r.found[k], prefix[k]);
            else if (r.found[k]) search.seed(*r.found[k], prefix[k]);
            const long long nodes_before = r.nodes;
            const bool done = search.run();
            if (std::getenv("GPUWCRT_DEBUG"))
                std::cerr << "rta search round " << round << " k=" << k << " best " << search.best() << " root bound "
                          << search.root_bound().value_or(-1) << " nodes " << r.nodes - nodes_before << " memo keys "
                          << search.memo_keys() << (done ? "" : " (stopped)") << "\n";
            record(p, k, search, done, r, prefix[k]);
            if (free[k] && round == 0) solved[type] = k;
        }
        // Kernels that took another's answer take its final one.
        if (round == 1)
            for (int k : todo)
                if (free[k] && !r.finish[k])
                    if (auto it = solved.find(std::make_tuple(p.release[k], p.c[k], p.slots[k]));
                        it != solved.end() && it->second != k && r.finish[it->second])
                        copy_answer(k, it->second);
    }
    r.complete = std::all_of(todo.begin(), todo.end(), [&](int k) { return r.finish[k].has_value(); });
    return r;
}

}  // namespace gpuwcrt::rta_orders
