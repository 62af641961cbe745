#include "model/frames/unroll.hpp"

#include <algorithm>

#include "model/checked_int.hpp"
#include "model/frames/frame_name.hpp"
#include "model/input_limits.hpp"
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
    for (std::size_t i = 0; i < out.ops.size(); ++i)
        for (int& t : out.ops[i].wait) t = index[t][static_cast<std::size_t>(u.origin[i].frame)];
    validate_workload(out);
    return u;
}

}  // namespace gpuwcrt
