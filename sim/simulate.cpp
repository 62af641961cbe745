#include "sim/simulate.hpp"

#include <stdexcept>

#include "sim/rules.hpp"

namespace gpuwcrt {
namespace {

void seed_first_issues(SimState& s) {
    for (std::size_t st = 0; st < s.w.streams.size(); ++st) {
        auto ops = s.w.stream_ops(static_cast<int>(st));
        if (ops.empty()) continue;
        const int first = ops.front();
        const IssueSpec& is = s.w.ops[first].issue;
        if (is.kind == IssueSpec::Kind::after_stream_idle) s.issue_at[first] = is.delay;
        else if (first < static_cast<int>(s.scenario.issue_at.size()) && s.scenario.issue_at[first])
            s.issue_at[first] = *s.scenario.issue_at[first];
        else s.issue_at[first] = is.at.lo;
    }
}

}  // namespace

Schedule simulate(const Workload& w, const Scenario& scenario) {
    if (scenario.policy == Policy::chooser && !scenario.choose)
        throw std::logic_error("Policy::chooser without a chooser");
    SimState s(w, scenario);
    seed_first_issues(s);
    while (auto t = s.next_event()) {
        s.now = *t;
        rules::g4_c4_complete(s);
        bool changed = true;
        while (changed) {
            changed = rules::g1_issue(s);
            changed = rules::g2_a1_c1_admit_stream_heads(s) || changed;
            changed = rules::c2_c3_start_copies(s) || changed;
            changed = rules::x1_a2_g3_dispatch_blocks(s) || changed;
        }
    }
    for (std::size_t i = 0; i < w.ops.size(); ++i)
        if (!s.completed[i])
            throw std::logic_error("simulation ended with '" + w.ops[i].name + "' unfinished");
    return s.out;
}

}  // namespace gpuwcrt
