#include "sim/search/genome.hpp"

#include <algorithm>

#include "common/splitmix.hpp"
#include "sim/simulate.hpp"

namespace gpuwcrt::search {
namespace {

bool has_window(const Operation& o) { return o.issue.kind == IssueSpec::Kind::at && !o.issue.at.is_point(); }

int choose_sm(const Genome& g, const PlacementRequest& r) {
    const std::vector<int>& f = r.fitting;
    switch (g.place[r.kernel]) {
        case Place::first:
            return f.front();
        case Place::last:
            return f.back();
        case Place::cycle:
            return f[static_cast<std::size_t>(r.block) % f.size()];
        case Place::hashed: {
            const std::uint64_t h = splitmix64(g.salt[r.kernel] ^ splitmix64(static_cast<std::uint64_t>(r.block)));
            return r.distinct[h % r.distinct.size()];
        }
        case Place::preferred: {
            const std::vector<int>& p = g.preferred[r.kernel];
            if (r.block < static_cast<std::int64_t>(p.size()) && std::find(f.begin(), f.end(), p[r.block]) != f.end())
                return p[r.block];
            return f.front();
        }
    }
    return f.front();
}

// Half-way steps stop this close to an end (relative to the range): deeper ones only grow
// the denominators of the witness.
Time snap(const Time& v, const Time& lo, const Time& hi) {
    const Time eps = (hi - lo) / Time(BigInt(1) << 48);
    if (hi - v < eps) return hi;
    if (v - lo < eps) return lo;
    return v;
}

Time current(const Operation& o, const std::vector<Time>& t) { return t.empty() ? o.time.hi : t.front(); }

long extreme_rank(const Genome& g, bool highest) {
    const auto [lo, hi] = std::minmax_element(g.rank.begin(), g.rank.end());
    return highest ? *hi + 1 : *lo - 1;
}

int any_of(const std::vector<int>& v, std::mt19937_64& rng) { return v[rng() % v.size()]; }

void move_time(const Workload& w, const GeneSpace& s, Genome& g, int target, std::mt19937_64& rng) {
    const bool own = std::find(s.ranged.begin(), s.ranged.end(), target) != s.ranged.end() && rng() % 2 == 0;
    const int op = own ? target : any_of(s.ranged, rng);
    const Operation& o = w.ops[op];
    std::vector<Time>& t = g.time[op];
    if (o.is_kernel() && o.blocks > 1 && rng() % 3 == 0) {
        const Time all = current(o, t);
        if (t.size() <= 1) t.assign(static_cast<std::size_t>(o.blocks), all);
        if (rng() % 2 == 0) {  // one block on its own
            Time& b = t[rng() % t.size()];
            b = pick_value(b, o.time.lo, o.time.hi, rng);
        } else {  // every block at an end of its own: which blocks end first decides what starts where
            for (Time& b : t) b = rng() % 2 ? o.time.hi : o.time.lo;
        }
        return;
    }
    t.assign(1, pick_value(current(o, t), o.time.lo, o.time.hi, rng));
}

void move_issue(const Workload& w, const GeneSpace& s, Genome& g, int target, std::mt19937_64& rng) {
    const bool own = std::find(s.windowed.begin(), s.windowed.end(), target) != s.windowed.end() && rng() % 2 == 0;
    const int op = own ? target : any_of(s.windowed, rng);
    const TimeRange& r = w.ops[op].issue.at;
    g.issue[op] = pick_value(g.issue[op] ? *g.issue[op] : r.lo, r.lo, r.hi, rng);
}

void move_rank(Genome& g, int target, std::mt19937_64& rng) {
    const std::size_t n = g.rank.size();
    switch (rng() % 3) {
        case 0:  // the target after every operation issued with it: each of them is ahead of it
            g.rank[target] = extreme_rank(g, true);
            break;
        case 1:
            g.rank[rng() % n] = extreme_rank(g, false);
            break;
        default:
            std::swap(g.rank[rng() % n], g.rank[rng() % n]);
    }
}

// Every range but the target's at one end: the plain "all at hi" and "all at lo" scenarios.
void move_all_ends(const Workload& w, const GeneSpace& s, Genome& g, int target, std::mt19937_64& rng) {
    const bool hi = rng() % 2 == 0;
    for (int op : s.ranged)
        if (op != target) g.time[op].assign(1, hi ? w.ops[op].time.hi : w.ops[op].time.lo);
}

}  // namespace

GeneSpace::GeneSpace(const Workload& w) {
    for (std::size_t i = 0; i < w.ops.size(); ++i) {
        const int op = static_cast<int>(i);
        if (!w.ops[i].time.is_point()) ranged.push_back(op);
        if (has_window(w.ops[i])) windowed.push_back(op);
        if (w.ops[i].is_kernel()) kernels.push_back(op);
    }
}

Genome default_genome(const Workload& w) {
    const std::size_t n = w.ops.size();
    Genome g;
    g.rank.resize(n);
    for (std::size_t i = 0; i < n; ++i) g.rank[i] = static_cast<long>(i);
    g.issue.assign(n, std::nullopt);
    g.time.assign(n, {});
    g.place.assign(n, Place::first);
    g.salt.assign(n, 0);
    g.preferred.assign(n, {});
    return g;
}

Schedule simulate_genome(const Workload& w, Workload& points, const Genome& g, Policy policy) {
    bool per_block = false;
    for (std::size_t op = 0; op < w.ops.size(); ++op) {
        if (w.ops[op].time.is_point()) continue;
        const std::vector<Time>& t = g.time[op];
        const Time v = t.empty() ? w.ops[op].time.hi : t.front();
        points.ops[op].time = {v, v};
        per_block = per_block || t.size() > 1;
    }
    Scenario sc;
    sc.rank = g.rank;
    sc.issue_at = g.issue;
    sc.policy = policy;
    if (policy == Policy::chooser) {
        const bool first = std::all_of(g.place.begin(), g.place.end(), [](Place p) { return p == Place::first; });
        if (first) sc.policy = Policy::first_fit;
        else sc.choose = [&g](const PlacementRequest& r) { return choose_sm(g, r); };
    }
    if (per_block)
        sc.block_time = [&g, &points](int op, std::int64_t block) -> Time {
            const std::vector<Time>& t = g.time[op];
            return t.size() > 1 ? t[static_cast<std::size_t>(block)] : points.ops[op].time.hi;
        };
    return simulate(points, sc);
}

WitnessScenario with_times(const Workload& w, const Genome& g, WitnessScenario placed) {
    WitnessScenario x = std::move(placed);
    const std::size_t n = w.ops.size();
    x.block_time.assign(n, {});
    x.issue.assign(n, std::nullopt);
    for (std::size_t op = 0; op < n; ++op) {
        const Operation& o = w.ops[op];
        if (!o.time.is_point() && !g.time[op].empty()) {
            const std::size_t count = o.is_kernel() ? static_cast<std::size_t>(o.blocks) : 1;
            if (g.time[op].size() == 1) x.block_time[op].assign(count, g.time[op].front());
            else x.block_time[op] = g.time[op];
        }
        if (has_window(o)) x.issue[op] = g.issue[op] ? *g.issue[op] : o.issue.at.lo;
    }
    return x;
}

Genome genome_of_witness(const Workload& w, const WitnessScenario& x) {
    Genome g = default_genome(w);
    const long n = static_cast<long>(w.ops.size());
    for (long& r : g.rank) r += n;  // not in the launch order: after it, in file order
    for (std::size_t i = 0; i < x.launch_order.size(); ++i) g.rank[x.launch_order[i]] = static_cast<long>(i);
    for (std::size_t op = 0; op < w.ops.size(); ++op) {
        if (op < x.issue.size() && x.issue[op] && has_window(w.ops[op])) g.issue[op] = x.issue[op];
        if (op < x.block_time.size() && !x.block_time[op].empty() && !w.ops[op].time.is_point()) {
            const std::vector<Time>& t = x.block_time[op];
            const bool uniform = std::all_of(t.begin(), t.end(), [&](const Time& v) { return v == t.front(); });
            g.time[op] = uniform ? std::vector<Time>{t.front()} : t;
        }
        if (op < x.sm.size() && !x.sm[op].empty()) {
            g.place[op] = Place::preferred;
            g.preferred[op] = x.sm[op];
        }
    }
    return g;
}

Genome random_genome(const Workload& w, const GeneSpace& genes, std::mt19937_64& rng) {
    Genome g = default_genome(w);
    std::shuffle(g.rank.begin(), g.rank.end(), rng);
    auto draw = [&rng](const TimeRange& r) {
        const auto k = rng() % 4;
        return k == 0 ? r.lo : k == 1 ? r.hi : Time(r.lo + (r.hi - r.lo) * Time(static_cast<long>(rng() % 17), 16));
    };
    for (int op : genes.ranged) {
        const Operation& o = w.ops[op];
        const bool per_block = o.is_kernel() && o.blocks > 1 && rng() % 4 == 0;
        g.time[op].resize(per_block ? static_cast<std::size_t>(o.blocks) : 1);
        for (Time& t : g.time[op]) t = draw(o.time);
    }
    for (int op : genes.windowed) g.issue[op] = draw(w.ops[op].issue.at);
    if (genes.any_placement)
        for (int k : genes.kernels) {
            g.place[k] = static_cast<Place>(rng() % place_rules);
            g.salt[k] = static_cast<std::uint32_t>(rng());
        }
    return g;
}

Time pick_value(const Time& cur, const Time& lo, const Time& hi, std::mt19937_64& rng) {
    const Time len = hi - lo;
    switch (rng() % 7) {
        case 0:
            return lo;
        case 1:
            return hi;
        case 2:
            return lo + len / 2;
        case 3:
            return snap((cur + hi) / 2, lo, hi);
        case 4:
            return snap((cur + lo) / 2, lo, hi);
        case 5:
            return lo + len * Time(static_cast<long>(rng() % 17), 16);
        default: {  // near an end, at a depth of 1..24 halvings
            const Time d = len / Time(BigInt(1) << (1 + rng() % 24));
            return rng() % 2 ? Time(hi - d) : Time(lo + d);
        }
    }
}

void perturb(const Workload& w, const GeneSpace& s, Genome& g, int target, std::mt19937_64& rng) {
    const int moves = 1 + static_cast<int>(rng() % 3);
    for (int m = 0; m < moves; ++m) {
        const auto kind = rng() % 8;
        if (kind <= 2 && !s.ranged.empty()) move_time(w, s, g, target, rng);
        else if (kind == 3 && !s.windowed.empty()) move_issue(w, s, g, target, rng);
        else if (kind == 4 && !s.windowed.empty()) move_issue(w, s, g, target, rng);
        else if (kind == 5 && s.any_placement && !s.kernels.empty()) {
            const int k = any_of(s.kernels, rng);
            g.place[k] = static_cast<Place>(rng() % place_rules);
            g.salt[k] = static_cast<std::uint32_t>(rng());
        } else if (kind == 6 && !s.ranged.empty()) move_all_ends(w, s, g, target, rng);
        else move_rank(g, target, rng);
    }
}

}  // namespace gpuwcrt::search
