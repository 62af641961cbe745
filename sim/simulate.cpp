#include "sim/simulate.hpp"

#include <stdexcept>
#include <utility>

#include "sim/contexts/time_slices.hpp"
#include "sim/rules.hpp"

namespace gpuwcrt {
namespace {

void seed_first_issues(SimState& s) {
    std::vector<char> seen(s.w.streams.size(), 0);  // one pass: stream_ops per stream is quadratic
    for (std::size_t op = 0; op < s.w.ops.size(); ++op) {
        if (seen[s.w.ops[op].stream]) continue;
        seen[s.w.ops[op].stream] = 1;
        const int first = static_cast<int>(op);
        const IssueSpec& is = s.w.ops[first].issue;
        if (is.kind == IssueSpec::Kind::after_stream_idle)
            s.set_issue_at(first, (is.release ? is.release->lo : 0) + is.delay);
        else if (first < static_cast<int>(s.scenario.issue_at.size()) && s.scenario.issue_at[first])
            s.set_issue_at(first, *s.scenario.issue_at[first]);
        else s.set_issue_at(first, is.at.lo);
    }
}

// Total blocks; an InputError above max_simulated_blocks.
std::int64_t check_size(const Workload& w) {
    std::int64_t total = 0;
    for (const Operation& op : w.ops) {
        if (!op.is_kernel()) continue;
        if (op.blocks > max_simulated_blocks - total)  // no overflow: both sides within the limit
            throw InputError(op.where, "kernel '" + op.name + "' brings the workload to more than " +
                                           std::to_string(max_simulated_blocks) +
                                           " blocks in total, the simulator's limit (it takes one step per "
                                           "block); `gpuwcrt rta` analyses any grid size");
        total += op.blocks;
    }
    return total;
}

// Whether a block or a copy ends now: with an issue, what moves a run forward.
bool completes_now(const SimState& s) {
    return (!s.running_blocks.empty() && time_equal(s.running_blocks.begin()->first, s.now)) ||
           (!s.running_copies.empty() && time_equal(s.running_copies.begin()->first, s.now));
}

// With slices, a run that goes on switching contexts without issuing or completing anything
// past the limit that the rules allow is a simulator in a loop: an internal error, not a hang.
void check_progress(const SimState& s, bool progressed, std::int64_t limit, std::int64_t& idle_events) {
    idle_events = progressed ? 0 : idle_events + 1;
    if (idle_events <= limit) return;
    throw std::logic_error("the simulator took " + std::to_string(idle_events) +
                           " slice and switch events in a row without an issue or a completion (at " +
                           exact_string(s.now) + "), more than rules T1-T4 allow: a bug of the simulator");
}

}  // namespace

Schedule simulate(const Workload& w, const Scenario& scenario, BlockRecord record) {
    if (scenario.policy == Policy::chooser && !scenario.choose)
        throw std::logic_error("Policy::chooser without a chooser");
    const std::int64_t blocks = check_size(w);
    SimState s(w, scenario);
    s.keep_blocks = record == BlockRecord::kept;
    if (s.keep_blocks) s.out.blocks.reserve(static_cast<std::size_t>(blocks));  // no reallocation of rational times
    s.out.launch_order.reserve(w.ops.size());
    seed_first_issues(s);
    const std::int64_t idle_limit = s.slices.on ? rules::slice_events_without_progress(w) : 0;
    std::int64_t idle_events = 0;
    while (auto t = s.next_event()) {
        s.now = *t;
        const long issued_before = s.next_launch_seq;
        const bool completes = completes_now(s);
        rules::g4_c4_complete(s);
        bool changed = true;
        while (changed) {
            changed = rules::g1_issue(s);
            changed = rules::g2_a1_c1_admit_stream_heads(s) || changed;
            changed = rules::c2_c3_start_copies(s) || changed;
            changed = rules::t1_t4_time_slices(s) || changed;
            changed = rules::x1_a2_g3_dispatch_blocks(s) || changed;
        }
        if (s.slices.on) check_progress(s, completes || s.next_launch_seq != issued_before, idle_limit, idle_events);
    }
    for (std::size_t i = 0; i < w.ops.size(); ++i)
        if (!s.completed[i]) throw std::logic_error("simulation ended with '" + w.ops[i].name + "' unfinished");
    return std::move(s.out);  // a member: returned by copy unless moved
}

}  // namespace gpuwcrt
