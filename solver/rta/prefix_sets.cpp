#include "solver/rta/prefix_sets.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <unordered_map>

#include "solver/rta/state.hpp"

namespace gpuwcrt::rta_orders {
namespace {

using Key = std::uint64_t;
constexpr std::size_t saturated = std::size_t{1} << 62;

// Kernels of one release that the pass counts together: a stream's chain (kept in stream
// order) or interchangeable kernels (same C and slots, each alone in its stream at this release:
// swapping two of them changes no instant of Algorithm 2, so only how many were analysed matters).
struct Class {
    std::vector<int> members;
    bool chain = false;  // a stream's kernels, in stream order (else interchangeable)
};

struct Group {
    std::vector<Class> classes;
    std::vector<Key> radix;  // key = Σ count_i · radix_i
    std::size_t keys = 1;    // Π (size_i + 1), saturating
};

std::vector<Group> groups_of(const RtaOrderProblem& p) {
    std::map<std::int64_t, std::vector<int>> by_release;
    for (int j = 0; j < p.kernels(); ++j) by_release[p.release[j]].push_back(j);
    std::vector<Group> out;
    for (const auto& [release, ks] : by_release) {
        Group g;
        std::map<int, std::vector<int>> by_stream;
        for (int j : ks) by_stream[p.stream[j]].push_back(j);
        std::map<std::pair<std::int64_t, std::int64_t>, std::vector<int>> alike;
        for (auto& [stream, chain] : by_stream) {
            if (chain.size() == 1) {
                alike[{p.c[chain[0]], p.slots[chain[0]]}].push_back(chain[0]);
                continue;
            }
            std::sort(chain.begin(), chain.end(), [&](int a, int b) { return p.position[a] < p.position[b]; });
            g.classes.push_back({chain, true});
        }
        for (auto& [type, members] : alike) g.classes.push_back({members, false});
        for (const Class& c : g.classes) {
            g.radix.push_back(g.keys);
            const std::size_t size = c.members.size() + 1;
            g.keys = g.keys > saturated / size ? saturated : g.keys * size;
        }
        out.push_back(std::move(g));
    }
    return out;
}

struct Node {
    int parent;
    int kernel;
};

struct Bucket {
    std::vector<std::pair<State, int>> real;  // Pareto-latest real states, with their node
    std::vector<State> hulls;                 // together pointwise later than every state not kept
};

// How much later than `h` the pointwise-later state of h and s frees its slots in all.
__int128 growth(const State& h, const State& merged) { return merged.free_sum_from(0) - h.free_sum_from(0); }

class Pass {
public:
    Pass(const RtaOrderProblem& p, const Budget& budget, PrefixSetOptions options)
        : p_(p), budget_(budget), options_(options) {}

    SearchResult run() {
        SearchResult r;
        const int n = p_.kernels();
        r.finish.resize(n);
        r.order.resize(n);
        r.found.resize(n);
        r.bound.resize(n);
        Bucket entering;
        nodes_.push_back({-1, -1});
        entering.real.push_back({State::empty(p_.g_max), 0});
        for (const Group& g : groups_of(p_)) {
            if (g.keys > options_.max_sets) return r;
            if (!group(g, entering, r)) return r;
        }
        r.complete = std::all_of(r.finish.begin(), r.finish.end(), [](const auto& f) { return f.has_value(); });
        return r;
    }

    long long states() const { return states_; }

private:
    // k's prefix set: every class full but k's own, which holds k's predecessors (a chain) or
    // every member but one (interchangeable kernels).
    static Key key_of_k(const Group& g, int k) {
        Key key = 0;
        for (std::size_t i = 0; i < g.classes.size(); ++i) {
            const auto& m = g.classes[i].members;
            const auto at = std::find(m.begin(), m.end(), k);
            const std::size_t count = at == m.end()        ? m.size()
                                      : g.classes[i].chain ? static_cast<std::size_t>(at - m.begin())
                                                           : m.size() - 1;
            key += g.radix[i] * count;
        }
        return key;
    }

    void insert(Bucket& b, const State& s, int parent, int kernel) {
        for (const auto& [r, node] : b.real)
            if (r.later_or_equal(s)) return;
        std::erase_if(b.real, [&](const auto& e) { return s.later_or_equal(e.first); });
        if (b.real.size() < options_.max_states) {
            nodes_.push_back({parent, kernel});
            b.real.push_back({s, static_cast<int>(nodes_.size() - 1)});
        } else {
            add_hull(b, s);
        }
    }

    void insert_hull(Bucket& b, const State& s) const {
        for (const auto& [r, node] : b.real)
            if (r.later_or_equal(s)) return;
        add_hull(b, s);
    }

    // Keeps s as a hull state, or merges it into the hull state it raises least.
    void add_hull(Bucket& b, const State& s) const {
        for (const State& h : b.hulls)
            if (h.later_or_equal(s)) return;
        if (b.hulls.size() < options_.max_hulls) {
            b.hulls.push_back(s);
            return;
        }
        std::size_t best = 0;
        State best_merged;
        __int128 least = 0;
        for (std::size_t i = 0; i < b.hulls.size(); ++i) {
            State m = pointwise_later(b.hulls[i], s);
            const __int128 g = growth(b.hulls[i], m);
            if (i == 0 || g < least) {
                least = g;
                best = i;
                best_merged = std::move(m);
            }
        }
        b.hulls[best] = std::move(best_merged);
    }

    std::vector<int> prefix_of(int node) const {
        std::vector<int> out;
        for (; node > 0; node = nodes_[node].parent) out.push_back(nodes_[node].kernel);
        std::reverse(out.begin(), out.end());
        return out;
    }

    void evaluate(const Group& g, int k, const Bucket& b, SearchResult& r) {
        std::int64_t best = std::numeric_limits<std::int64_t>::min();
        int best_node = -1;
        for (const auto& [s, node] : b.real) {
            State t = s;
            const std::int64_t f = t.add_kernel(p_.release[k], p_.c[k], p_.slots[k]);
            if (f > best) {
                best = f;
                best_node = node;
            }
        }
        std::vector<int> prefix = prefix_of(best_node);
        // Interchangeable kernels were named by their count (members[0], members[1], …), which
        // may name k itself: the member left out of k's prefix set stands in for it.
        for (const Class& c : g.classes)
            if (!c.chain && std::find(c.members.begin(), c.members.end(), k) != c.members.end())
                std::replace(prefix.begin(), prefix.end(), k, c.members.back());
        prefix.push_back(k);
        r.order[k] = complete_order(p_, prefix);
        std::int64_t bound = best;
        for (const State& h : b.hulls) {
            State t = h;
            bound = std::max(bound, t.add_kernel(p_.release[k], p_.c[k], p_.slots[k]));
        }
        if (bound == best) r.finish[k] = best;
        else {
            r.found[k] = best;
            r.bound[k] = bound;
        }
    }

    bool group(const Group& g, Bucket& entering, SearchResult& r) {
        std::unordered_map<Key, std::vector<int>> wanted;  // prefix-set key -> kernels read there
        int total = 0;
        for (const Class& c : g.classes) {
            total += static_cast<int>(c.members.size());
            for (int k : c.members) wanted[key_of_k(g, k)].push_back(k);
        }
        std::unordered_map<Key, Bucket> level, next;
        level.emplace(0, std::move(entering));
        for (int depth = 0;; ++depth) {
            for (auto& [key, b] : level)
                if (auto it = wanted.find(key); it != wanted.end())
                    for (int k : it->second) evaluate(g, k, b, r);
            if (depth == total) {
                entering = std::move(level.begin()->second);
                return true;
            }
            next.clear();
            for (auto& [key, b] : level) {
                if ((++visits_ & 255) == 0 && budget_.expired()) return false;
                for (std::size_t i = 0; i < g.classes.size(); ++i) {
                    const auto& m = g.classes[i].members;
                    const std::size_t count = (key / g.radix[i]) % (m.size() + 1);
                    if (count == m.size()) continue;
                    const int j = m[count];
                    Bucket& to = next[key + g.radix[i]];
                    for (const auto& [s, node] : b.real) {
                        State t = s;
                        t.add_kernel(p_.release[j], p_.c[j], p_.slots[j]);
                        ++states_;
                        insert(to, t, node, j);
                    }
                    for (const State& h : b.hulls) {
                        State t = h;
                        t.add_kernel(p_.release[j], p_.c[j], p_.slots[j]);
                        insert_hull(to, t);
                    }
                }
            }
            std::swap(level, next);
        }
    }

    const RtaOrderProblem& p_;
    const Budget& budget_;
    PrefixSetOptions options_;
    std::vector<Node> nodes_;
    long long states_ = 0, visits_ = 0;
};

}  // namespace

SearchResult prefix_sets_max_finish(const RtaOrderProblem& p, const Budget& budget, PrefixSetOptions options) {
    Pass pass(p, budget, options);
    SearchResult r = pass.run();
    r.nodes = pass.states();
    return r;
}

}  // namespace gpuwcrt::rta_orders
