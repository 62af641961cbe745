#include "sim/witness.hpp"

#include <algorithm>
#include <memory>
#include <sstream>

namespace gpuwcrt {
namespace {

std::string schedule_text(const Workload& w, const Schedule& s) {
    std::ostringstream out;
    for (const BlockTiming& b : s.blocks)
        out << "  " << w.ops[b.kernel].name << ":" << b.index << " sm " << b.sm << " [" << human_string(b.start) << ", "
            << human_string(b.end) << ")\n";
    return out.str();
}

}  // namespace

Scenario witness_scenario(const Workload& w, const WitnessScenario& x) {
    Scenario sc;
    sc.rank.assign(w.ops.size(), static_cast<long>(w.ops.size()));
    for (std::size_t i = 0; i < x.launch_order.size(); ++i) sc.rank[x.launch_order[i]] = static_cast<long>(i);
    sc.fixed_sm = x.sm;
    sc.fixed_sm.resize(w.ops.size());
    sc.fixed_where = {"<witness>", 0, 0};
    sc.issue_at = x.issue;
    bool any_time = false;
    for (const auto& t : x.block_time) any_time = any_time || !t.empty();
    if (any_time) {
        // Held by the function itself: the scenario may outlive the witness.
        auto times = std::make_shared<const std::vector<std::vector<Time>>>(x.block_time);
        sc.block_time = [times, &w](int op, std::int64_t block) -> Time {
            if (op < static_cast<int>(times->size()) && block < static_cast<std::int64_t>((*times)[op].size()))
                return (*times)[op][block];
            return w.ops[op].time.hi;
        };
    }
    return sc;
}

FixedScenario fixed_scenario(const Workload& w, const WitnessScenario& x) {
    FixedScenario f;
    for (int op : x.launch_order) f.order.push_back(w.ops[op].name);
    for (std::size_t i = 0; i < x.sm.size(); ++i)
        if (!x.sm[i].empty()) f.sm[w.ops[i].name] = x.sm[i];
    for (std::size_t i = 0; i < x.block_time.size(); ++i)
        if (!x.block_time[i].empty()) f.block_time[w.ops[i].name] = x.block_time[i];
    for (std::size_t i = 0; i < x.issue.size(); ++i)
        if (x.issue[i]) f.issue[w.ops[i].name] = *x.issue[i];
    return f;
}

WitnessScenario witness_of(const Workload& w, const Schedule& s) {
    WitnessScenario x;
    x.launch_order = s.launch_order;
    x.sm.assign(w.ops.size(), {});
    for (std::size_t i = 0; i < w.ops.size(); ++i)
        if (w.ops[i].is_kernel()) x.sm[i].assign(w.ops[i].blocks, -1);
    for (const BlockTiming& b : s.blocks) x.sm[b.kernel][b.index] = b.sm;
    return x;
}

Schedule simulate_witness(const Workload& w, const WitnessScenario& x) {
    try {
        return simulate(w, witness_scenario(w, x));
    } catch (const InputError& e) {
        throw ReplayMismatch("the witness scenario cannot be replayed: " + e.message() +
                             "\nwitness: " + describe_witness(w, x));
    }
}

Schedule replay_witness(const Workload& w, const WitnessScenario& x, int op, const Time& claimed_response,
                        const Schedule* claimed) {
    Schedule replayed = simulate_witness(w, x);
    require_replayed(w, x, replayed, op, claimed_response, claimed);
    return replayed;
}

void require_replayed(const Workload& w, const WitnessScenario& x, const Schedule& replayed, int op,
                      const Time& claimed_response, const Schedule* claimed) {
    bool same = replayed.response(op) == claimed_response;
    if (claimed) {
        for (std::size_t i = 0; i < claimed->blocks.size() && same; ++i) {
            const BlockTiming& c = claimed->blocks[i];
            auto it = std::find_if(replayed.blocks.begin(), replayed.blocks.end(),
                                   [&](const BlockTiming& r) { return r.kernel == c.kernel && r.index == c.index; });
            same = it != replayed.blocks.end() && it->start == c.start && it->sm == c.sm;
        }
    }
    if (!same) {
        std::ostringstream msg;
        msg << "replay mismatch for '" << w.ops[op].name << "': the engine claims response "
            << human_string(claimed_response) << ", the simulator gives " << human_string(replayed.response(op))
            << "\nwitness: " << describe_witness(w, x) << "\n";
        if (claimed) msg << "engine's schedule:\n" << schedule_text(w, *claimed);
        msg << "simulator's schedule:\n" << schedule_text(w, replayed);
        throw ReplayMismatch(msg.str());
    }
}

std::string describe_witness(const Workload& w, const WitnessScenario& x) {
    std::ostringstream out;
    out << "order ";
    for (std::size_t i = 0; i < x.launch_order.size(); ++i) out << (i ? "," : "") << w.ops[x.launch_order[i]].name;
    out << "; sm";
    for (std::size_t i = 0; i < x.sm.size(); ++i) {
        if (x.sm[i].empty()) continue;
        out << " " << w.ops[i].name << "=[";
        for (std::size_t j = 0; j < x.sm[i].size(); ++j) out << (j ? "," : "") << x.sm[i][j];
        out << "]";
    }
    const char* sep = "; time ";
    for (std::size_t i = 0; i < x.block_time.size(); ++i) {
        if (x.block_time[i].empty()) continue;
        out << sep << w.ops[i].name << "=[";
        sep = " ";
        for (std::size_t j = 0; j < x.block_time[i].size(); ++j)
            out << (j ? "," : "") << human_string(x.block_time[i][j]);
        out << "]";
    }
    for (std::size_t i = 0; i < x.issue.size(); ++i)
        if (x.issue[i]) out << "; issue " << w.ops[i].name << "=" << human_string(*x.issue[i]);
    return out.str();
}

void require_within_bound(const Workload& w, int op, const Time& response, const Time& upper) {
    if (response > upper)
        throw ReplayMismatch("a replayed scenario gives '" + w.ops[op].name + "' the response " +
                             exact_string(response) + ", above its busy-time bound " + exact_string(upper));
}

void require_policy_placement(const Workload& w, const WitnessScenario& x, Policy policy) {
    if (policy == Policy::chooser) return;
    Scenario sc = witness_scenario(w, x);
    sc.fixed_sm.clear();
    sc.policy = policy;
    const Schedule s = simulate(w, sc);
    for (const BlockTiming& b : s.blocks) {
        const auto& sms = b.kernel < static_cast<int>(x.sm.size()) ? x.sm[b.kernel] : std::vector<int>{};
        const int claimed = b.index < static_cast<std::int64_t>(sms.size()) ? sms[b.index] : -1;
        if (claimed != b.sm)
            throw ReplayMismatch("the witness places " + w.ops[b.kernel].name + ":" + std::to_string(b.index) +
                                 " on SM " + std::to_string(claimed) + ", placement policy " + policy_name(policy) +
                                 " on SM " + std::to_string(b.sm) + "\nwitness: " + describe_witness(w, x));
    }
}

}  // namespace gpuwcrt
