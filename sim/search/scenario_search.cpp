#include "sim/search/scenario_search.hpp"

#include <algorithm>
#include <initializer_list>
#include <numeric>

#include "sim/simulate.hpp"

namespace gpuwcrt::search {
namespace {

// A level's local search restarts from the operation's best after this many steps without
// improving its current scenario (plateaus are walked, but not forever).
constexpr int max_stale_steps = 64;

Time sum(const std::vector<Time>& v) { return std::accumulate(v.begin(), v.end(), Time(0)); }

// The beam's choices for one operation's genes, numbered in mixed radix; choice 0 changes nothing.
struct Choices {
    int times = 1, issues = 1, ranks = 3, places = 1;
    int count() const { return times * issues * ranks * places; }
};

Choices choices_of(const Workload& w, int op, Policy policy) {
    const Operation& o = w.ops[op];
    Choices c;
    if (!o.time.is_point()) c.times = 4;
    if (o.issue.kind == IssueSpec::Kind::at && !o.issue.at.is_point()) c.issues = 3;
    if (policy == Policy::chooser && o.is_kernel()) c.places = 4;
    return c;
}

void apply_choice(const Workload& w, Genome& g, int op, const Choices& c, int index, std::uint32_t salt) {
    const Operation& o = w.ops[op];
    const int t = index % c.times, i = (index / c.times) % c.issues;
    const int r = (index / (c.times * c.issues)) % c.ranks, p = index / (c.times * c.issues * c.ranks);
    const Time len = o.time.hi - o.time.lo;
    if (t == 1) g.time[op].assign(1, o.time.lo);
    if (t == 2) g.time[op].assign(1, o.time.lo + len / 2);
    if (t == 3) g.time[op].assign(1, o.time.hi - len / 1024);  // just below hi: see the supremum case
    const TimeRange& win = o.issue.at;
    if (i == 1) g.issue[op] = win.hi;
    if (i == 2) g.issue[op] = win.lo + (win.hi - win.lo) / 2;
    if (r != 0) {
        const auto [lo, hi] = std::minmax_element(g.rank.begin(), g.rank.end());
        g.rank[op] = r == 1 ? *hi + 1 : *lo - 1;
    }
    if (p == 1) g.place[op] = Place::last;
    if (p == 2) g.place[op] = Place::cycle;
    if (p == 3) g.place[op] = Place::hashed, g.salt[op] = salt;
}

// The placement of `x` pinned on every kernel, then one block of one kernel moved to another
// SM: the finest placement step (a rule per kernel cannot express a single block's SM).
void pin_and_move_block(const Workload& w, Genome& g, const WitnessScenario& x, std::mt19937_64& rng) {
    std::vector<int> placed;
    for (std::size_t k = 0; k < x.sm.size(); ++k)
        if (!x.sm[k].empty()) {
            g.place[k] = Place::preferred;
            g.preferred[k] = x.sm[k];
            placed.push_back(static_cast<int>(k));
        }
    if (placed.empty() || w.platform.sms < 2) return;
    std::vector<int>& sms = g.preferred[placed[rng() % placed.size()]];
    int& sm = sms[rng() % sms.size()];
    sm = (sm + 1 + static_cast<int>(rng() % static_cast<std::uint64_t>(w.platform.sms - 1))) % w.platform.sms;
}

}  // namespace

ScenarioSearch::ScenarioSearch(const Workload& w, const Options& o)
    : w_(w),
      points_(w),
      o_(o),
      genes_(w),
      rng_(o.seed),
      best_(w),
      best_genome_(w.ops.size()),
      current_(w.ops.size()),
      current_response_(w.ops.size()),
      stale_(w.ops.size(), 0) {
    genes_.any_placement = o.policy == Policy::chooser;
}

std::vector<Time> ScenarioSearch::evaluate(const Genome& g) {
    const Schedule s = simulate_genome(w_, points_, g, o_.policy);
    ++simulations_;
    std::vector<Time> r(w_.ops.size());
    std::shared_ptr<const Genome> kept;
    std::shared_ptr<const WitnessScenario> witness;
    for (std::size_t op = 0; op < r.size(); ++op) {
        const int i = static_cast<int>(op);
        r[op] = s.response(i);
        if (!best_.improves(i, r[op])) continue;
        if (!kept) {
            kept = std::make_shared<const Genome>(g);
            witness = std::make_shared<const WitnessScenario>(with_times(w_, g, witness_of(w_, s)));
        }
        best_.keep(i, r[op], witness);
        best_genome_[op] = kept;
        current_[op] = kept;
        current_response_[op] = r[op];
        stale_[op] = 0;
    }
    return r;
}

void ScenarioSearch::offer(const WitnessScenario& x) { evaluate(genome_of_witness(w_, x)); }

void ScenarioSearch::baselines(const Budget& budget, long long until) {
    const Genome d = default_genome(w_);
    Genome lo = d, late = d;
    for (int op : genes_.ranged) lo.time[op].assign(1, w_.ops[op].time.lo);
    for (int op : genes_.windowed) late.issue[op] = w_.ops[op].issue.at.hi;
    for (const Genome* g : std::initializer_list<const Genome*>{&d, &lo, &late}) {
        if (stop(budget, until)) return;
        evaluate(*g);
    }
    const long n = static_cast<long>(w_.ops.size());
    for (long op = 0; op < n && !stop(budget, until); ++op) {
        Genome g = d;
        g.rank[op] = n;  // launched after every operation issued at its instant
        evaluate(g);
    }
}

void ScenarioSearch::beam(const Budget& budget, long long until) {
    struct Entry {
        Genome g;
        Time score;  // the sum of every operation's response: a scenario that delays many
    };
    if (stop(budget, until)) return;
    const Genome d = default_genome(w_);
    std::vector<Entry> level{{d, sum(evaluate(d))}};
    // Levels in launch order of the default scenario: a prefix of decisions is a prefix of the run.
    std::vector<int> order(w_.ops.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return d.rank[a] < d.rank[b]; });
    for (int op : order) {
        const Choices c = choices_of(w_, op, o_.policy);
        std::vector<Entry> next = level;  // choice 0: the entry unchanged, its score known
        for (const Entry& e : level) {
            std::vector<int> picks(static_cast<std::size_t>(c.count() - 1));
            std::iota(picks.begin(), picks.end(), 1);
            std::shuffle(picks.begin(), picks.end(), rng_);
            if (static_cast<int>(picks.size()) > o_.branching - 1) picks.resize(std::max(0, o_.branching - 1));
            for (int index : picks) {
                if (stop(budget, until)) return;
                Genome g = e.g;
                apply_choice(w_, g, op, c, index, static_cast<std::uint32_t>(rng_()));
                const Time score = sum(evaluate(g));
                next.push_back({std::move(g), score});
            }
        }
        std::stable_sort(next.begin(), next.end(), [](const Entry& a, const Entry& b) { return a.score > b.score; });
        if (static_cast<int>(next.size()) > o_.beam_width) next.resize(static_cast<std::size_t>(o_.beam_width));
        level = std::move(next);
    }
}

void ScenarioSearch::local(const Budget& budget, long long until) {
    const int n = static_cast<int>(w_.ops.size());
    while (!stop(budget, until)) {
        const int t = next_target_;
        next_target_ = (next_target_ + 1) % n;
        if (!best_.best()[t]) {
            evaluate(default_genome(w_));
            continue;
        }
        if (stale_[t] > max_stale_steps) {
            // Restarts alternate: from the operation's best, and from a random scenario (a
            // climb from elsewhere escapes the best's neighbourhood).
            if (++restarts_ % 2) {
                current_[t] = best_genome_[t];
                current_response_[t] = *best_.best()[t];
            } else {
                auto g = std::make_shared<const Genome>(random_genome(w_, genes_, rng_));
                current_response_[t] = evaluate(*g)[t];
                current_[t] = std::move(g);
            }
            stale_[t] = 0;
            continue;
        }
        Genome g = *current_[t];
        if (genes_.any_placement && rng_() % 8 == 0) {
            g = *best_genome_[t];
            pin_and_move_block(w_, g, best_.kept(t), rng_);
        } else {
            perturb(w_, genes_, g, t, rng_);
        }
        const std::vector<Time> r = evaluate(g);
        ++stale_[t];                         // reset by evaluate when t improved
        if (r[t] >= current_response_[t]) {  // equal: a plateau step, so the search can cross to a slope
            current_[t] = std::make_shared<const Genome>(std::move(g));
            current_response_[t] = r[t];
        }
    }
}

void ScenarioSearch::run(const Budget& budget, long long max_simulations) {
    // The baselines and the beam take at most half of the first call's count: the local
    // search always runs.
    run_to(budget, simulations_ + std::max<long long>(1, max_simulations / 2), simulations_ + max_simulations);
}

void ScenarioSearch::run_to(const Budget& budget, long long first_end, long long until) {
    if (!started_) {
        baselines(budget, first_end);
        beam(budget, first_end);
        started_ = !budget.expired();  // a budget that ends them leaves them to the next call
    }
    local(budget, until);
}

}  // namespace gpuwcrt::search
