#include "model/generate/random_workload.hpp"

#include <random>

#include "model/generate/seeded_pick.hpp"
#include "model/validate.hpp"

namespace gpuwcrt {
namespace {

// A feature that is off draws nothing (see the header).
bool chance(std::mt19937_64& rng, int percent) { return percent > 0 && seeded_pick(rng, 1, 100) <= percent; }

template <class T>
const T& one_of(std::mt19937_64& rng, const std::vector<T>& v) {
    return v[static_cast<std::size_t>(seeded_pick(rng, 0, static_cast<std::int64_t>(v.size()) - 1))];
}

}  // namespace

Workload random_workload(const RandomWorkloadSpec& spec, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    Workload w;
    w.source = std::string("random-").append(std::to_string(seed));
    w.platform.sms = spec.sms;
    w.platform.copy_engines = spec.copy_engines;
    for (int s = 0; s < spec.streams && s < spec.kernels; ++s) {
        Stream st;
        st.name = std::string("s").append(std::to_string(s + 1));
        if (s < spec.high_priority_streams) st.priority = Priority::high;
        w.streams.push_back(st);
    }
    if (spec.null_stream && w.streams.size() > 1) {
        w.streams.back().is_null = true;
        w.streams.back().priority = Priority::low;
    }
    std::vector<Time> last_issue(w.streams.size(), 0);
    std::vector<int> count(w.streams.size(), 0);
    std::vector<char> after_idle(w.streams.size(), 0);  // idle_tie_percent: the stream's last draw
    Time total = 0, max_c = 0;
    for (int k = 0; k < spec.kernels; ++k) {
        Operation op;
        op.stream = k % static_cast<int>(w.streams.size());
        op.position = count[op.stream]++;
        const bool copy = chance(rng, spec.copy_percent);
        op.kind = copy ? OpKind::copy : OpKind::kernel;
        op.name = std::string(copy ? "C" : "K").append(std::to_string(k + 1));
        if (!copy) {
            op.blocks = seeded_pick(rng, 1, spec.max_blocks);
            op.threads = one_of(rng, spec.threads);
            op.shared_mem = 1024 * one_of(rng, spec.shared_kib);
            if (spec.registers.size() > 1) op.registers = one_of(rng, spec.registers);
            else op.registers = spec.registers.empty() ? 0 : spec.registers.front();
        }
        const Time c(seeded_pick(rng, 1, spec.max_block_time), spec.block_time_denominator);
        op.time = {c, c};
        if (chance(rng, spec.interval_percent))
            op.time.hi = c + Time(seeded_pick(rng, 1, 2), spec.block_time_denominator);
        const Time before = last_issue[op.stream];
        Time issue = !spec.staggered_issue        ? Time(0)
                     : spec.idle_tie_percent == 0 ? Time(seeded_pick(rng, 0, 4), 2)
                                                  : Time(seeded_pick(rng, 0, 3));
        if (issue < before || after_idle[op.stream]) issue = before;
        last_issue[op.stream] = issue;
        op.issue.at = {issue, issue};
        const bool follows_idle = after_idle[op.stream];
        after_idle[op.stream] = 0;
        if (op.position > 0 && chance(rng, spec.after_idle_percent)) {
            op.issue.kind = IssueSpec::Kind::after_stream_idle;
            op.issue.delay = Time(seeded_pick(rng, 0, 1), 2);
        } else if (chance(rng, spec.idle_tie_percent)) {
            op.issue.kind = IssueSpec::Kind::after_stream_idle;
            op.issue.delay = Time(seeded_pick(rng, 0, 1));
            after_idle[op.stream] = 1;
            last_issue[op.stream] = before;  // the next absolute issue: no later than the last one
        } else if (follows_idle && chance(rng, 50)) {
            op.issue.kind = IssueSpec::Kind::with_previous;  // no issue of its own: with the idle one
        } else if (chance(rng, spec.window_percent)) {
            op.issue.at.hi = issue + Time(seeded_pick(rng, 1, 2), 2);
            last_issue[op.stream] = op.issue.at.hi;  // a later window starts no earlier (validate)
        }
        total += c * (copy ? 1 : op.blocks);
        if (c > max_c) max_c = c;
        w.ops.push_back(op);
    }
    if (spec.deadlines)
        for (auto& op : w.ops) op.deadline = std::max(max_c, Time(total / 4));
    validate_workload(w);
    return w;
}

}  // namespace gpuwcrt
