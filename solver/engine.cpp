#include "solver/engine.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>

#include "model/contexts/contexts.hpp"
#include "model/frames/one_frame.hpp"
#include "solver/block/engines/per_operation.hpp"
#include "solver/registry.hpp"

namespace gpuwcrt {

void name_answers(std::vector<WcrtAnswer>& answers, Provenance engine, bool busy_time_upper) {
    for (WcrtAnswer& a : answers) {
        if (a.lower && a.lower_by == Provenance::none) a.lower_by = engine;
        const bool busy = busy_time_upper && a.status != WcrtStatus::exact;
        if (a.upper && a.upper_by == Provenance::none) a.upper_by = busy ? Provenance::busy_time : engine;
    }
}

void require_engine_scope(const Engine& engine, const Workload& w, const std::string& command) {
    // First: under time slices the other features' messages would point at engines that refuse them too.
    if (!engine.ranges_over_contexts()) require_one_context(w, command + " --engine " + std::string(engine.name()));
    // The default engine of a command without an all-time analysis (rta-check) says what
    // require_one_frame says for every such command.
    if (engine.name() == default_engine) require_one_frame(w, command);
    if (!engine.ranges_over_frames())
        for (const Stream& s : w.streams) {
            if (!s.arrival.repeats()) continue;
            throw InputError(s.where, command + ": stream '" + s.name + "' is " +
                                          (s.arrival.kind == Arrival::Kind::periodic ? "periodic" : "sporadic") +
                                          ", and --engine " + std::string(engine.name()) +
                                          " analyses one frame; wcrt and certify analyse periodic and sporadic "
                                          "streams for all time with the default engine, " +
                                          std::string(default_engine) + " (docs/theory/all-time.md)");
        }
    if (!engine.ranges_over_wait())
        for (const Operation& op : w.ops) {
            if (op.wait.empty()) continue;
            throw InputError(op.where, command + ": --engine " + std::string(engine.name()) +
                                           " does not support `wait` yet ('" + op.name + "' waits on '" +
                                           w.ops[op.wait.front()].name +
                                           "'); `gpuwcrt simulate` runs such a workload and --engine enumerate "
                                           "ranges over its scenarios");
        }
    engine.check_scope(w);
}

std::string seconds_since(Budget::Clock::time_point t0) {
    using std::chrono::milliseconds;
    const long long ms = std::chrono::duration_cast<milliseconds>(Budget::Clock::now() - t0).count();
    std::ostringstream s;
    s << ms / 1000 << '.' << std::setw(2) << std::setfill('0') << (ms % 1000) / 10 << " s";
    return s.str();
}

CertifyRun certify_bounds(const Engine& engine, EngineRequest request, const std::map<int, Time>& bounds,
                          const Budget& budget) {
    const Workload& w = request.workload;
    CertifyRun out;
    request.ops.clear();
    for (const auto& [op, bound] : bounds) request.ops.push_back(op);
    if (const Engine::BoundQuestion ask = engine.bound_question(w, request.options, request.progress)) {
        out.run.shown = engine.stats_shown();
        for_each_operation(request.ops, budget, Share::all_left, [&](int op, const Budget& b) {
            out.verdicts.push_back(ask(op, bounds.at(op), b, out.run.stats));
            if (out.verdicts.back().counterexample)
                require_policy_placement(w, *out.verdicts.back().counterexample, request.options.policy);
            if (request.progress) request.progress(w.ops[op].name + ": " + to_string(out.verdicts.back().verdict));
        });
        return out;
    }
    // A chain (auto) stops working on an operation once its verdict is known. A named engine
    // runs as `wcrt` runs it: the bound certify reports is the one that engine proves, not the
    // first bound (often the interference bound) that happens to settle the verdict.
    if (engine.provenance() == Provenance::none)
        request.settled = [&bounds](const WcrtAnswer& a) {
            const auto b = bounds.find(a.op);
            return b == bounds.end() || (a.upper && *a.upper <= b->second) || (a.lower && *a.lower > b->second);
        };
    out.run = engine.run(request, budget);
    require_policy_witnesses(w, request.options.policy, out.run);
    const Workload& witnessed = witnessed_workload(w, out.run);
    for (const auto& [op, bound] : bounds) {
        const WcrtAnswer& a = out.run.answers[op];
        const std::optional<int> at = out.run.frames ? witnessed_operation(*out.run.frames, op, a.frame) : op;
        out.verdicts.push_back(at ? verdict_from(witnessed, *at, a, bound) : verdict_from(w, a, bound));
    }
    return out;
}

void publish_progress(const Workload& w, const std::vector<WcrtAnswer>& answers, const std::vector<int>& ops,
                      const std::function<bool(const WcrtAnswer&)>& settled, RunCounters& counters) {
    std::uint64_t decided = 0;
    const WcrtAnswer* worst = nullptr;
    for (const int op : ops) {
        const WcrtAnswer& a = answers.at(op);
        if (settled ? settled(a) : a.status == WcrtStatus::exact) {
            ++decided;
            continue;
        }
        // Without an upper bound an operation is the worst; among bounded ones the largest.
        if (!worst || (worst->upper && (!a.upper || *a.upper > *worst->upper))) worst = &a;
    }
    const std::uint64_t total = std::max<std::uint64_t>(counters.operations.load(), ops.size());
    counters.operations = total;
    counters.decided = total - ops.size() + decided;
    if (!worst) {
        counters.worst_open.set("");
        return;
    }
    counters.worst_open.set(w.ops[worst->op].name + " in [" + (worst->lower ? human_string(*worst->lower) : "?") +
                            ", " + (worst->upper ? human_string(*worst->upper) : "?") + "]");
}

void require_policy_witnesses(const Workload& w, Policy policy, const EngineRun& run) {
    for (const WcrtAnswer& a : run.answers)
        if (a.witness) require_policy_placement(witnessed_workload(w, run), *a.witness, policy);
}

const Workload& witnessed_workload(const Workload& w, const EngineRun& run) {
    return run.frames && run.frames->unrolled ? run.frames->unrolled->workload : w;
}

}  // namespace gpuwcrt
