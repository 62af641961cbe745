#include "model/frames/unroll.hpp"

#include <algorithm>

#include "model/checked_int.hpp"
#include "model/frames/frame_name.hpp"
#include "model/input_limits.hpp"
#include "model/issue_bounds.hpp"
#include "model/time_less.hpp"
#include "model/validate.hpp"

namespace gpuwcrt {
namespace {

// The unrolled operations in their order: by the frame's earliest release, then file order.
std::vector<FrameOrigin> frame_order(const Workload& w, const std::vector<std::int64_t>& count,
                                     const ReleaseWindow& release, const SourceLocation& where) {
    std::int64_t total = 0;
    for (const Operation& op : w.ops) {
        const auto sum = checked_add(total, count[op.stream]);
        if (!sum || *sum > limits::max_unrolled_operations)
            throw InputError(where, "the horizon unrolls more than " + std::to_string(limits::max_unrolled_operations) +
                                        " operations, the limit of one simulation");
        total = *sum;
    }
    if (total == 0) throw InputError(where, "the horizon covers no frame of any stream");
    std::vector<FrameOrigin> out;
    out.reserve(static_cast<std::size_t>(total));
    for (std::size_t i = 0; i < w.ops.size(); ++i) {
        const Arrival& a = w.streams[w.ops[i].stream].arrival;
        for (std::int64_t k = 0; k < count[w.ops[i].stream]; ++k)
            out.push_back({static_cast<int>(i), k, a.repeats() ? release(w.ops[i].stream, k) : TimeRange{0, 0}});
    }
    std::stable_sort(out.begin(), out.end(), [](const FrameOrigin& x, const FrameOrigin& y) {
        if (int c = time_compare(x.release.lo, y.release.lo)) return c < 0;
        return x.op < y.op;
    });
    // A stream's frames in frame order within the places the stream takes: frames released as
    // early as each other (a busy window's first frames, all from 0) are still issued in order.
    std::vector<std::vector<std::size_t>> slots(w.streams.size());
    for (std::size_t i = 0; i < out.size(); ++i) slots[w.ops[out[i].op].stream].push_back(i);
    for (const std::vector<std::size_t>& at : slots) {
        std::vector<FrameOrigin> mine;
        for (const std::size_t i : at) mine.push_back(out[i]);
        std::stable_sort(mine.begin(), mine.end(), [](const FrameOrigin& x, const FrameOrigin& y) {
            return x.frame != y.frame ? x.frame < y.frame : x.op < y.op;
        });
        for (std::size_t j = 0; j < at.size(); ++j) out[at[j]] = mine[j];
    }
    return out;
}

Operation frame_op(const Workload& w, const FrameOrigin& f) {
    Operation op = w.ops[f.op];
    if (!w.streams[op.stream].arrival.repeats()) return op;
    op.name = frame_op_name(op.name, f.frame);
    switch (op.issue.kind) {
        case IssueSpec::Kind::at:  // a first operation without `issue` is at [0, 0]
            op.issue.at = plus(f.release, op.issue.at);
            break;
        case IssueSpec::Kind::after_stream_idle:
            op.issue.release = f.release;
            break;
        case IssueSpec::Kind::with_previous:
            break;  // issued with its predecessor in the same frame
    }
    return op;
}

// The frames of `target` (its unrolled indices `frames`, in frame order) that can be the most
// recent one issued before unrolled operation `waiter`: from the last one surely issued before it
// (or frame 0, when none surely is) to the last one that may be. An equal instant is a tie that
// the launch order decides (§5), so both ways are kept. Empty: none can be, no wait.
std::vector<int> latest_candidates(const std::vector<int>& frames, const std::vector<IssueBounds<Time>>& issue,
                                   int waiter) {
    const IssueBounds<Time>& a = issue[static_cast<std::size_t>(waiter)];
    std::size_t first = 0, end = 0;
    for (std::size_t j = 0; j < frames.size(); ++j) {
        const IssueBounds<Time>& x = issue[static_cast<std::size_t>(frames[j])];
        if (surely_issued_before(x, a)) first = j;
        if (!a.hi || !(*a.hi < x.lo)) end = j + 1;  // frames are issued in order: the ones that may form a prefix
    }
    if (end == 0) return {};
    return {frames.begin() + static_cast<std::ptrdiff_t>(first), frames.begin() + static_cast<std::ptrdiff_t>(end)};
}

// Waits across rates become `wait_latest` (§9). The frames past the horizon are not issued in
// the unrolled run, so they are no candidates: a horizon is a prefix of the system's runs, for
// waits as for every other rule.
void resolve_waits_across_rates(const Workload& w, Unrolled& u, const std::vector<std::vector<int>>& index) {
    Workload& out = u.workload;
    const std::vector<IssueBounds<Time>> issue = issue_bounds(out);
    for (std::size_t i = 0; i < out.ops.size(); ++i) {
        const Operation& file_op = w.ops[static_cast<std::size_t>(u.origin[i].op)];
        for (const int t : file_op.wait) {
            const int stream = w.ops[static_cast<std::size_t>(t)].stream;
            if (!waits_across_rates(w.streams[file_op.stream].arrival, w.streams[stream].arrival)) continue;
            std::vector<int> latest = latest_candidates(index[static_cast<std::size_t>(t)], issue, static_cast<int>(i));
            if (!latest.empty()) out.ops[i].wait_latest.push_back(std::move(latest));
        }
    }
}

// Each issue window of a stream raised to its predecessor's ends. The host issues a stream in
// order, at max(the instant drawn in the window, the predecessor's issue) (semantics §3), and the
// predecessor's issue lies in its own window: so the issue instants are those of the raised
// windows, and the one-frame rule that a stream's windows do not decrease holds. Frames whose
// release windows overlap by more than a period (a busy window's, released anywhere before its
// end) break that rule otherwise; the frames of a file's own windows already keep it.
void raise_to_host_order(Workload& w) {
    std::vector<const Operation*> previous(w.streams.size(), nullptr);
    for (Operation& op : w.ops) {
        const Operation* p = previous[op.stream];
        previous[op.stream] = &op;
        if (!p || !p->issue.is_static() || !op.issue.is_static()) continue;
        op.issue.at.lo = std::max(op.issue.at.lo, p->issue.at.lo);
        op.issue.at.hi = std::max(op.issue.at.hi, p->issue.at.hi);
    }
}

}  // namespace

Unrolled unroll(const Workload& w, const Horizon& h) {
    const auto release = [&w](int stream, std::int64_t k) { return w.streams[stream].arrival.release(k); };
    return unroll_windows(w, frame_counts(w, h), release, h.where);
}

Unrolled unroll_windows(const Workload& w, const std::vector<std::int64_t>& frames, const ReleaseWindow& release,
                        const SourceLocation& where) {
    Unrolled u;
    u.frames = frames;
    u.origin = frame_order(w, u.frames, release, where);
    Workload& out = u.workload;
    out.source = w.source;
    out.title = w.title;
    out.time_unit = w.time_unit;
    out.platform = w.platform;
    out.contexts = w.contexts;
    out.streams = w.streams;
    for (Stream& s : out.streams) s.arrival = {};
    // index[op][k]: the unrolled index of frame k of op, for the waits.
    std::vector<std::vector<int>> index(w.ops.size());
    std::vector<int> position(w.streams.size(), 0);
    out.ops.reserve(u.origin.size());
    for (const FrameOrigin& f : u.origin) {
        index[f.op].push_back(static_cast<int>(out.ops.size()));  // frames of one op come in order
        out.ops.push_back(frame_op(w, f));
        out.ops.back().position = position[out.ops.back().stream]++;
    }
    for (std::size_t i = 0; i < out.ops.size(); ++i) {
        std::vector<int>& wait = out.ops[i].wait;
        const int stream = out.ops[i].stream;
        // Frame k waits on frame k of a stream of its own period; across rates, see below.
        std::erase_if(wait, [&](int t) {
            return waits_across_rates(w.streams[stream].arrival, w.streams[w.ops[t].stream].arrival);
        });
        for (int& t : wait) t = index[t][static_cast<std::size_t>(u.origin[i].frame)];
    }
    raise_to_host_order(out);
    resolve_waits_across_rates(w, u, index);
    validate_workload(out);
    return u;
}

}  // namespace gpuwcrt
