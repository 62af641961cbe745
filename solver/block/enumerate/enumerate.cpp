#include "solver/block/enumerate/enumerate.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <stdexcept>

#include "bounds/engine_options.hpp"
#include "encode/block/block_problem.hpp"
#include "model/integer_time.hpp"
#include "model/issue_bounds.hpp"
#include "sim/simulate.hpp"

namespace gpuwcrt {
namespace {

using Clock = std::chrono::steady_clock;

// The operations each one must follow in every launch order (docs/theory/semantics.md §5): its stream
// predecessor, and those surely issued strictly before it (model/issue_bounds.hpp). Any other
// pair is issued at the same instant in some run, where both of its orders are possible.
std::vector<std::vector<int>> required_before(const Workload& w) {
    const std::vector<IssueBounds<Time>> bounds = issue_bounds(w);
    std::vector<std::vector<int>> before(w.ops.size());
    std::vector<int> last(w.streams.size(), -1);
    for (std::size_t o = 0; o < w.ops.size(); ++o) {
        if (const int p = last[w.ops[o].stream]; p >= 0) before[o].push_back(p);
        last[w.ops[o].stream] = static_cast<int>(o);
        for (std::size_t x = 0; x < w.ops.size(); ++x)
            if (w.ops[x].stream != w.ops[o].stream && surely_issued_before(bounds[x], bounds[o]))
                before[o].push_back(static_cast<int>(x));
    }
    return before;
}

bool launch_orders(const std::vector<std::vector<int>>& before, std::vector<char>& placed, std::vector<long>& rank,
                   long next, const std::function<bool(const std::vector<long>&)>& visit) {
    if (next == static_cast<long>(placed.size())) return visit(rank);
    for (std::size_t i = 0; i < placed.size(); ++i) {
        if (placed[i] || !std::all_of(before[i].begin(), before[i].end(), [&](int x) { return placed[x]; })) continue;
        placed[i] = 1;
        rank[i] = next;
        bool go_on = launch_orders(before, placed, rank, next + 1, visit);
        placed[i] = 0;
        if (!go_on) return false;
    }
    return true;
}

// The busy-time bounds need the SMT engine's integer view; workloads beyond its integer
// limits have none.
std::optional<BlockProblem> busy_time_view(const Workload& w) {
    try {
        return make_block_problem(w);
    } catch (const InputError&) {
        return std::nullopt;
    }
}

struct GridChoice {
    int op;
    bool window;               // an issue instant, else the duration of one block (copy)
    std::vector<Time> values;  // every multiple of the grid in the range
};
struct GridValues {
    Time step = 1;
    std::vector<GridChoice> choices;  // per range; a kernel's blocks in order
};

// The grid is the SMT engine's (BlockProblem::grid): 1 / the scale of the workload's ticks.
GridValues grid_values(const Workload& w) {
    GridValues g;
    g.step = Time(1) / Time(scale_times(workload_times(w)).scale);
    long combinations = 1;  // combinations so far, saturating at the limit
    auto range = [&](const Operation& op, const TimeRange& r, bool window) {
        GridChoice c{static_cast<int>(&op - w.ops.data()), window, {}};
        for (Time v = r.lo; v <= r.hi; v += g.step) {
            c.values.push_back(v);
            if (static_cast<long>(c.values.size()) > max_grid_combinations) break;
        }
        combinations = std::min<long>(combinations * static_cast<long>(c.values.size()), max_grid_combinations + 1);
        return c;
    };
    for (const Operation& op : w.ops) {
        // The simulator reads an instant for `at` and for a stream's first operation (BlockProblem).
        const bool static_issue = op.issue.kind == IssueSpec::Kind::at || op.position == 0;
        if (static_issue && op.issue.kind != IssueSpec::Kind::after_stream_idle && !op.issue.at.is_point())
            g.choices.push_back(range(op, op.issue.at, true));
        if (!op.time.is_point())
            for (std::int64_t j = 0; j < (op.is_kernel() ? op.blocks : 1) && combinations <= max_grid_combinations; ++j)
                g.choices.push_back(range(op, op.time, false));
        if (combinations > max_grid_combinations)
            throw InputError(op.where, "enumeration ranges over every block time and issue instant on the grid " +
                                           exact_string(g.step) + ": this workload has more than " +
                                           std::to_string(max_grid_combinations) +
                                           " combinations of them (times every launch order and placement); use "
                                           "--engine smt or auto");
    }
    return g;
}

}  // namespace

void for_each_launch_order(const Workload& w, const std::function<bool(const std::vector<long>&)>& visit) {
    std::vector<char> placed(w.ops.size(), 0);
    std::vector<long> rank(w.ops.size(), 0);
    launch_orders(required_before(w), placed, rank, 0, visit);
}

namespace {

// One enumeration: every grid value of every range, every launch order, every SM choice.
class Enumeration {
public:
    Enumeration(const Workload& w, const EngineOptions& o, const Budget& budget,
                const std::function<void(long long)>& progress)
        : w_(w), o_(o), budget_(budget), progress_(progress) {
        res_.wcrt.resize(w.ops.size());
        for (std::size_t i = 0; i < w.ops.size(); ++i) res_.wcrt[i].op = static_cast<int>(i);
    }

    // Every block at `hi` and every issue at `lo` would be one scenario, not all (docs/theory/semantics.md §5):
    // with ranges, every combination of grid values (refused beyond max_grid_combinations).
    EnumerationResult run() {
        const auto t0 = Clock::now();
        const GridValues grid = grid_values(w_);
        if (grid.choices.empty()) every_order(w_, Scenario{});
        else every_grid_point(grid);
        finish(grid);
        res_.stats.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0);
        return std::move(res_);
    }

private:
    void record(const Schedule& s) {
        ++res_.stats.scenarios;
        for (std::size_t i = 0; i < w_.ops.size(); ++i) {
            const Time r = s.response(static_cast<int>(i));
            if (!res_.wcrt[i].lower || r > *res_.wcrt[i].lower) {
                res_.wcrt[i].lower = r;
                res_.wcrt[i].witness = witness_of(w_, s);
                res_.wcrt[i].witness->block_time = block_times_;
                res_.wcrt[i].witness->issue = issues_;
            }
        }
        // The clock after every scenario: one simulation can take long on a large workload.
        if (budget_.expired()) timed_out_ = true;
        if (progress_ && res_.stats.scenarios % 4096 == 0) progress_(res_.stats.scenarios);
    }

    // Depth-first over SM choices: replay a prefix of choices, extend with the first option,
    // then advance the deepest choice that has an untried option left. False once out of time.
    bool every_sm_choice(Scenario sc) {
        std::vector<int> choice, options;
        for (;;) {
            std::size_t depth = 0;
            sc.choose = [&](const PlacementRequest& req) {
                const auto& cand = o_.symmetry_breaking ? req.distinct : req.fitting;
                if (depth == choice.size()) {
                    choice.push_back(0);
                    options.push_back(static_cast<int>(cand.size()));
                }
                return cand[choice[depth++]];
            };
            record(simulate(w_, sc));
            if (timed_out_) return false;
            while (!choice.empty() && choice.back() + 1 >= options.back()) {
                choice.pop_back();
                options.pop_back();
            }
            if (choice.empty()) return true;
            ++choice.back();
        }
    }

    // Every launch order of `orders_of` (the workload with the chosen window instants), every
    // SM choice, on top of `base` (the chosen durations and instants).
    void every_order(const Workload& orders_of, const Scenario& base) {
        for_each_launch_order(orders_of, [&](const std::vector<long>& rank) {
            Scenario sc = base;
            sc.rank = rank;
            sc.policy = o_.policy;
            if (o_.policy != Policy::chooser) {
                record(simulate(w_, sc));
                return !timed_out_;
            }
            return every_sm_choice(std::move(sc));
        });
    }

    // Mixed-radix counter over the grid values of every range.
    void every_grid_point(const GridValues& grid) {
        std::vector<std::size_t> digit(grid.choices.size(), 0);
        Workload orders_of = w_;
        for (;;) {
            block_times_.assign(w_.ops.size(), {});
            issues_.assign(w_.ops.size(), std::nullopt);
            for (std::size_t c = 0; c < grid.choices.size(); ++c) {
                const GridChoice& g = grid.choices[c];
                const Time v = g.values[digit[c]];
                if (g.window) {
                    issues_[g.op] = v;
                    orders_of.ops[g.op].issue.at = {v, v};
                } else {
                    block_times_[g.op].push_back(v);  // choices list blocks in order
                }
            }
            Scenario base;
            base.issue_at = issues_;
            auto times = std::make_shared<const std::vector<std::vector<Time>>>(block_times_);
            const Workload& w = w_;
            base.block_time = [times, &w](int op, std::int64_t block) -> Time {
                return (*times)[op].empty() ? w.ops[op].time.hi : (*times)[op][block];
            };
            every_order(orders_of, base);
            if (timed_out_) break;
            std::size_t c = 0;
            while (c < digit.size() && ++digit[c] == grid.choices[c].values.size()) digit[c++] = 0;
            if (c == digit.size()) break;
        }
    }

    // Statuses and upper bounds: exact when complete, unless a grid maximum stays below the
    // busy-time bound (docs/theory/encoding.md: the grid maximum is exact only where that bound proves it).
    void finish(const GridValues& grid) {
        res_.complete = !timed_out_;
        // Stream order and "surely issued earlier" never form a cycle (the earliest issue
        // instant grows along both), so every workload has a launch order: none is a bug.
        if (res_.complete && res_.stats.scenarios == 0 && !w_.ops.empty())
            throw std::logic_error("the enumeration found no launch order");
        // The busy-time bound assumes the GPU is busy while an issued operation is unfinished,
        // which a wait on an operation not yet issued breaks: with waits, no upper bound but the
        // enumeration's own.
        const bool waits = w_.has_wait();
        const std::optional<BlockProblem> p = waits ? std::nullopt : busy_time_view(w_);
        for (auto& a : res_.wcrt) {
            a.status = res_.complete ? WcrtStatus::exact : WcrtStatus::unknown;
            if (!res_.complete) a.unknown_reason = "timeout";
            if (!p && waits && res_.complete && !grid.choices.empty()) {
                a.status = WcrtStatus::unknown;
                a.unknown_reason = grid_maximum_reason(grid.step);
                continue;
            }
            if (!p) {
                if (res_.complete) a.upper = a.lower;
                continue;
            }
            const Time upper = p->op_response_upper_bound(a.op);
            if (a.lower) require_within_bound(w_, a.op, *a.lower, upper);
            a.upper = res_.complete ? a.lower : std::optional<Time>(upper);
            if (res_.complete && !grid.choices.empty() && a.lower != upper) {
                a.status = WcrtStatus::unknown;
                a.unknown_reason = grid_maximum_reason(grid.step);
                a.upper = upper;
            }
        }
    }

    const Workload& w_;
    const EngineOptions& o_;
    const Budget& budget_;
    const std::function<void(long long)>& progress_;
    EnumerationResult res_;
    bool timed_out_ = false;
    std::vector<std::vector<Time>> block_times_;  // the witness's part for the current grid values
    std::vector<std::optional<Time>> issues_;
};

}  // namespace

EnumerationResult enumerate_wcrt(const Workload& w, const EngineOptions& o, const Budget& budget,
                                 const std::function<void(long long)>& progress) {
    return Enumeration(w, o, budget, progress).run();
}

}  // namespace gpuwcrt
