#include "solver/rta/falsify.hpp"

#include <algorithm>
#include <functional>
#include <sstream>

#include "bounds/engine_options.hpp"
#include "bounds/rta/rta_workload.hpp"
#include "model/io/load_toml.hpp"
#include "model/io/write_toml.hpp"
#include "sim/simulate.hpp"
#include "solver/block/enumerate/enumerate.hpp"
#include "solver/rta/max_over_orders.hpp"

namespace gpuwcrt::rta_orders {
namespace {

struct OpChoice {
    std::int64_t blocks;
    std::size_t variant;
};

bool is_copy(const std::string& variant) { return variant.rfind("copy\n", 0) == 0; }

std::string numbered(std::string body, std::size_t i) {
    for (std::size_t at; (at = body.find("{i}")) != std::string::npos;) body.replace(at, 3, std::to_string(i + 1));
    return body;
}

// The grid's operation bodies: its own variants, or the product threads × shared_mem ×
// registers × block_time (this order decides which unsafe workload is reported first).
std::vector<std::string> variants_of(const FalsifyGrid& g) {
    if (!g.variants.empty()) return g.variants;
    std::vector<std::string> out;
    for (auto th : g.threads)
        for (auto sh : g.shared_mem)
            for (auto r : g.registers)
                for (auto c : g.block_time)
                    out.push_back("threads = " + std::to_string(th) + "\nshared_mem = " + std::to_string(sh) +
                                  "\nregisters = " + std::to_string(r) + "\nblock_time = " + std::to_string(c) + "\n");
    return out;
}

std::string to_toml(const FalsifyGrid& g, const std::vector<std::string>& variants, const std::vector<OpChoice>& ops) {
    std::ostringstream t;
    if (!g.platform_toml.empty()) t << "[platform]\n" << g.platform_toml << "\n";
    if (!g.streams_toml.empty()) t << "\n" << g.streams_toml;
    for (std::size_t i = 0; i < ops.size(); ++i) {
        const std::string& v = variants[ops[i].variant];
        if (is_copy(v)) t << "\n[[copy]]\nname = \"C" << i + 1 << "\"\n" << numbered(v.substr(5), i);
        else t << "\n[[kernel]]\nname = \"K" << i + 1 << "\"\nblocks = " << ops[i].blocks << "\n" << numbered(v, i);
    }
    return t.str();
}

// Every list of `count` operations whose blocks (a copy counts one) sum to `total`, in a fixed order.
void for_each_workload(const FalsifyGrid& g, const std::vector<std::string>& variants, int count, std::int64_t total,
                       const std::function<bool(const std::vector<OpChoice>&)>& visit) {
    std::vector<OpChoice> ops;
    std::function<bool(std::int64_t)> rec = [&](std::int64_t left) -> bool {
        if (static_cast<int>(ops.size()) == count) return left != 0 || visit(ops);
        const int still = count - static_cast<int>(ops.size()) - 1;
        for (std::int64_t b = 1; b <= std::min<std::int64_t>(g.max_blocks, left - still); ++b)
            for (std::size_t v = 0; v < variants.size(); ++v) {
                if (is_copy(variants[v]) && b != 1) continue;
                ops.push_back({b, v});
                const bool go_on = rec(left - b);
                ops.pop_back();
                if (!go_on) return false;
            }
        return true;
    };
    rec(total);
}

void keep_largest(std::optional<FalsifyFinding>& best, const FalsifyFinding& f) {
    if (!best || f.tx2 / f.rta > best->tx2 / best->rta) best = f;
}

bool in_grid(const FalsifyGrid& g, const Workload& w) {
    if (g.only_reasons.empty()) return true;
    for (const std::string& reason : rta_scope_reasons(w))
        if (std::none_of(g.only_reasons.begin(), g.only_reasons.end(),
                         [&](const std::string& r) { return reason.find(r) != std::string::npos; }))
            return false;
    return true;
}

// One choice of an end for every block-time interval and issue window: the workload with
// those as point values, and the [scenario] entries that replay it on the original workload.
struct EndChoice {
    Workload point;
    FixedScenario scenario;
};

std::vector<EndChoice> end_choices(const Workload& w) {
    std::vector<int> ranged;
    for (std::size_t i = 0; i < w.ops.size(); ++i) {
        const Operation& o = w.ops[i];
        if (!o.time.is_point() || (o.issue.kind == IssueSpec::Kind::at && !o.issue.at.is_point()))
            ranged.push_back(static_cast<int>(i));
    }
    std::vector<EndChoice> out;
    // Each ranged operation at the low or the high end of its block time and of its window.
    const int choices = 1 << (2 * ranged.size());
    for (int mask = 0; mask < choices; ++mask) {
        EndChoice c{w, {}};
        bool repeated = false;
        for (std::size_t r = 0; r < ranged.size(); ++r) {
            Operation& o = c.point.ops[ranged[r]];
            const bool time_hi = mask >> (2 * r) & 1, issue_hi = mask >> (2 * r + 1) & 1;
            // A point range has one end: skip the duplicate choices.
            if ((o.time.is_point() && !time_hi) ||
                ((o.issue.kind != IssueSpec::Kind::at || o.issue.at.is_point()) && issue_hi))
                repeated = true;
            if (!o.time.is_point()) {
                const Time t = time_hi ? o.time.hi : o.time.lo;
                if (!time_hi) c.scenario.block_time[o.name] = std::vector<Time>(static_cast<std::size_t>(o.blocks), t);
                o.time = {t, t};
            }
            if (o.issue.kind == IssueSpec::Kind::at && !o.issue.at.is_point()) {
                const Time t = issue_hi ? o.issue.at.hi : o.issue.at.lo;
                if (issue_hi) c.scenario.issue[o.name] = t;
                o.issue.at = {t, t};
            }
        }
        if (!repeated) out.push_back(std::move(c));
    }
    return out;
}

std::string replay_toml(const Workload& w, FixedScenario scenario, const std::string& what) {
    Workload copy = w;
    copy.expectations.clear();
    copy.scenario = std::move(scenario);
    TomlWriteOptions o;
    o.comments = {what};
    return workload_to_toml(copy, o);
}

}  // namespace

std::vector<FalsifyGrid> falsify_grids() {
    std::vector<FalsifyGrid> g;
    g.push_back({"mixed-block-sizes", "", {512, 1024}, {0}, {0}, {1, 2}, 3, 4, {}, "", {}, ""});
    g.push_back({"non-dividing-block-size", "", {768}, {0}, {0}, {1, 2}, 3, 4, {}, "", {}, ""});
    g.push_back({"shared-memory", "", {256}, {0, 32768}, {0}, {1, 2}, 3, 4, {}, "", {}, ""});
    g.push_back({"registers", "", {256}, {0}, {0, 128}, {1, 2}, 3, 4, {}, "", {}, ""});
    g.push_back({"resident-blocks", "blocks_per_sm_max = 2", {256}, {0}, {0}, {1, 2}, 3, 4, {}, "", {}, ""});
    // The grids below keep every other parameter inside the thesis' scope (1024-thread blocks,
    // no shared memory or registers) and leave out workloads with any other scope reason.
    auto grid = [&](std::string reason, std::vector<std::string> variants, std::string streams,
                    std::vector<std::string> only, std::string description) {
        FalsifyGrid f;
        f.reason = std::move(reason);
        f.variants = std::move(variants);
        f.streams_toml = std::move(streams);
        f.only_reasons = std::move(only);
        f.description = std::move(description);
        g.push_back(std::move(f));
    };
    const std::string k = "threads = 1024\n";
    grid("several-operations-per-stream",
         {k + "stream = \"A\"\nblock_time = 1\n", k + "stream = \"A\"\nblock_time = 2\n",
          k + "stream = \"B\"\nblock_time = 1\n", k + "stream = \"B\"\nblock_time = 2\n"},
         "[[stream]]\nname = \"A\"\n\n[[stream]]\nname = \"B\"\n", {"operations ("},
         "each kernel in stream A or B, issued with its stream's previous operation at 0, C in {1, 2}");
    std::string high;
    for (int i = 1; i <= 4; ++i) high += "[[stream]]\nname = \"H" + std::to_string(i) + "\"\npriority = \"high\"\n\n";
    grid("priorities",
         {k + "block_time = 1\n", k + "block_time = 2\n", k + "block_time = 1\nissue = 1\n",
          k + "block_time = 2\nissue = 1\n", k + "stream = \"H{i}\"\nblock_time = 1\n",
          k + "stream = \"H{i}\"\nblock_time = 2\n", k + "stream = \"H{i}\"\nblock_time = 1\nissue = 1\n",
          k + "stream = \"H{i}\"\nblock_time = 2\nissue = 1\n"},
         high, {"high priority"},
         "each kernel in a low- or a high-priority stream of its own, issued at 0 or 1, C in {1, 2}");
    grid("null-stream",
         {k + "block_time = 1\n", k + "block_time = 2\n", k + "stream = \"NULL\"\nblock_time = 1\n",
          k + "stream = \"NULL\"\nblock_time = 2\n"},
         "[[stream]]\nname = \"NULL\"\nnull = true\n", {"NULL stream"},
         "each kernel in a stream of its own or the NULL stream (at most one kernel there), issued at 0, C in {1, 2}");
    grid("copies", {k + "block_time = 1\n", k + "block_time = 2\n", "copy\nduration = 1\n", "copy\nduration = 2\n"}, "",
         {"copies ("}, "kernels (C in {1, 2}) and copies (duration 1 or 2), each in a stream of its own, issued at 0");
    grid("block-time-intervals", {k + "block_time = 1\n", k + "block_time = 2\n", k + "block_time = [1, 2]\n"}, "",
         {"block_time of"},
         "each kernel in a stream of its own, issued at 0, C = 1, 2 or [1, 2] (TX2: every kernel's blocks at one end)");
    grid("issue-windows",
         {k + "block_time = 1\n", k + "block_time = 2\n", k + "block_time = 1\nissue = 1\n",
          k + "block_time = 2\nissue = 1\n", k + "block_time = 1\nissue = [0, 1]\n",
          k + "block_time = 2\nissue = [0, 1]\n"},
         "", {"issue of"},
         "each kernel in a stream of its own, issued at 0, 1 or in [0, 1], C in {1, 2} (TX2: each window at one end)");
    return g;
}

namespace {

// TX2: per operation the worst response over the end choices, for all orders (exhaustive:
// launch orders and SMs) and for the file order (the simulator); with ranges, the replayable
// TOML of each.
struct Tx2Worst {
    bool complete = true, ranged = false;
    std::vector<std::optional<Time>> all, fixed;
    std::vector<std::string> all_toml, fixed_toml;
};

Tx2Worst tx2_worst(const Workload& w, const Budget& budget) {
    Tx2Worst out;
    const EngineOptions eo;
    const std::vector<EndChoice> ends = end_choices(w);
    out.ranged = ends.size() > 1 || !ends.front().scenario.block_time.empty() || !ends.front().scenario.issue.empty();
    out.all.resize(w.ops.size()), out.fixed.resize(w.ops.size());
    out.all_toml.resize(w.ops.size()), out.fixed_toml.resize(w.ops.size());
    for (const EndChoice& c : ends) {
        const EnumerationResult e = enumerate_wcrt(c.point, eo, budget);
        if (!e.complete) {
            out.complete = false;
            return out;
        }
        const Schedule s = simulate(c.point, Scenario{});
        for (std::size_t i = 0; i < w.ops.size(); ++i) {
            if (!w.ops[i].is_kernel()) continue;
            if (!out.all[i] || *e.wcrt[i].lower > *out.all[i]) {
                out.all[i] = e.wcrt[i].lower;
                if (out.ranged) {
                    FixedScenario f = c.scenario;
                    const WitnessScenario& x = *e.wcrt[i].witness;
                    for (int op : x.launch_order) f.order.push_back(w.ops[op].name);
                    for (std::size_t j = 0; j < x.sm.size(); ++j)
                        if (!x.sm[j].empty()) f.sm[w.ops[j].name] = x.sm[j];
                    out.all_toml[i] = replay_toml(
                        w, f, "[scenario]: the replayed TX2 schedule of the worst response of " + w.ops[i].name);
                }
            }
            if (!out.fixed[i] || s.response(static_cast<int>(i)) > *out.fixed[i]) {
                out.fixed[i] = s.response(static_cast<int>(i));
                if (out.ranged)
                    out.fixed_toml[i] = replay_toml(
                        w, c.scenario,
                        "[scenario]: the issue instants and block times of the replayed file-order schedule");
            }
        }
    }
    return out;
}

}  // namespace

FalsifyResult falsify(const FalsifyGrid& grid, const Budget& budget) {
    FalsifyResult out;
    bool stopped = false;
    const std::vector<std::string> variants = variants_of(grid);
    const std::int64_t most = static_cast<std::int64_t>(grid.max_kernels) * grid.max_blocks;
    for (std::int64_t total = 1; total <= most && !stopped; ++total)
        for (int n = 1; n <= grid.max_kernels && !stopped; ++n)
            for_each_workload(grid, variants, n, total, [&](const std::vector<OpChoice>& ops) {
                if (budget.expired()) return !(stopped = true);
                const std::string toml = to_toml(grid, variants, ops);
                Workload w;
                try {
                    w = load_workload_text(toml, "falsify.toml");
                } catch (const InputError&) {
                    ++out.outside;  // e.g. a block that fits on no SM: not a workload
                    return true;
                }
                if (!in_grid(grid, w)) {
                    ++out.outside;
                    return true;
                }
                ++out.workloads;
                const Tx2Worst tx2 = tx2_worst(w, budget);
                if (!tx2.complete) return !(stopped = true);
                const bool ranged = tx2.ranged;
                const auto &all = tx2.all, &fixed = tx2.fixed;
                const auto &all_toml = tx2.all_toml, &fixed_toml = tx2.fixed_toml;
                const RtaMaxOverOrders m = rta_max_over_orders(w, budget);
                if (!m.complete) return !(stopped = true);
                const RtaOutcome r = rta(w, rta_launch_order(w, {}));
                for (std::size_t i = 0; i < w.ops.size(); ++i) {
                    if (!w.ops[i].is_kernel()) continue;
                    const std::string& name = w.ops[i].name;
                    const Time rta_max = *m.answers[i].exact();
                    if (*all[i] > rta_max) {
                        const FalsifyFinding f{ranged ? all_toml[i] : toml, name, rta_max, *all[i]};
                        if (!out.all_orders) out.all_orders = f;
                        keep_largest(out.largest_all, f);
                    }
                    const Time rta_f = *r.response_of(static_cast<int>(i));
                    if (*fixed[i] > rta_f) {
                        const FalsifyFinding f{ranged ? fixed_toml[i] : toml, name, rta_f, *fixed[i]};
                        if (!out.fixed_order) out.fixed_order = f;
                        keep_largest(out.largest_fixed, f);
                    }
                }
                return true;
            });
    out.complete = !stopped;
    return out;
}

}  // namespace gpuwcrt::rta_orders
