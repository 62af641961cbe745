#include "solver/registry.hpp"

#include <map>
#include <stdexcept>

#include "solver/block/plan/auto_engine.hpp"
#include "solver/block/engines/bounds_engine.hpp"
#include "solver/block/engines/busy_time_engine.hpp"
#include "solver/block/engines/enumerate_engine.hpp"
#include "solver/block/engines/exact_engine.hpp"
#include "solver/block/engines/interference_engine.hpp"
#include "solver/block/engines/smt_engine.hpp"
#include "solver/block/plan/run_plan.hpp"
#include "solver/frames/all_time_engine.hpp"
#include "solver/warp/warp_check.hpp"

namespace gpuwcrt {
namespace {

const std::vector<const Engine*>& engines() {
    static const AutoEngine automatic;
    static const BoundsEngine bounds;
    static const ExactEngine exact;
    static const SmtEngine smt;
    static const EnumerateEngine enumerate;
    static const std::vector<const Engine*> all = {&automatic, &bounds, &exact, &smt, &enumerate};
    return all;
}

}  // namespace

const Engine& engine_named(std::string_view name) {
    for (const Engine* e : engines())
        if (e->name() == name) return *e;
    throw std::invalid_argument("unknown engine '" + std::string(name) + "'");
}

const Engine& engine_for(std::string_view name, const Workload& w) {
    static const AllTimeEngine all_time;
    // Time-sliced contexts: the all-time engine's busy window per context bounds one frame as well,
    // and the engines of one frame refuse them.
    if (name == engine_name::automatic && (w.repeats() || w.sliced())) return all_time;
    return engine_named(name);
}

std::vector<std::string> engine_names() {
    std::vector<std::string> out;
    for (const Engine* e : engines()) out.emplace_back(e->name());
    return out;
}

std::unique_ptr<Engine> plan_link(const PlanStep& step, std::shared_ptr<const BlockProblem> smt_problem) {
    if (step.engine == engine_name::exact) {
        ExactSearchOptions limit;
        limit.max_states = step.max_states;
        return std::make_unique<ExactEngine>(limit);
    }
    if (step.engine == engine_name::bounds) {
        BoundsOptions pass;
        if (step.quick) pass.max_states = 16;
        pass.interference_beyond = false;  // the chain's first link
        return std::make_unique<BoundsEngine>(pass, false);
    }
    if (step.engine == engine_name::smt) return std::make_unique<SmtEngine>(std::move(smt_problem));
    if (step.engine == engine_name::interference) return std::make_unique<InterferenceEngine>();
    if (step.engine == engine_name::busy_time) return std::make_unique<BusyTimeEngine>(std::move(smt_problem));
    throw std::invalid_argument("no link of auto's chain for engine '" + std::string(step.engine) + "'");
}

namespace {

// `auto`: the bounds first, the explicit search only for a goal they left open, then the SMT
// cross-check of an exact explicit answer; `both`: explicit and smt, cross-checked.
const std::vector<std::pair<std::string_view, WarpEngines>>& warp_engines() {
    static const std::vector<std::pair<std::string_view, WarpEngines>> all = [] {
        WarpEngines automatic, bounds, explicit_state, smt, both;
        automatic.bounds = automatic.explicit_if_open = automatic.smt_cross_check = true;
        bounds.bounds = true;
        bounds.explicit_state = false;
        smt.explicit_state = false;
        smt.smt = true;
        both.smt = true;
        return std::vector<std::pair<std::string_view, WarpEngines>>{{warp_engine_name::automatic, automatic},
                                                                     {warp_engine_name::bounds, bounds},
                                                                     {warp_engine_name::explicit_state, explicit_state},
                                                                     {warp_engine_name::smt, smt},
                                                                     {warp_engine_name::both, both}};
    }();
    return all;
}

}  // namespace

const WarpEngines* warp_engines_named(std::string_view name) {
    for (const auto& [n, e] : warp_engines())
        if (n == name) return &e;
    return nullptr;
}

std::vector<std::string> warp_engine_names() {
    std::vector<std::string> out;
    for (const auto& [n, e] : warp_engines()) out.emplace_back(n);
    return out;
}

}  // namespace gpuwcrt
