#pragma once
// Periodic and sporadic streams unrolled into one finite frame (docs/theory/semantics.md §9): the
// workload every one-frame tool (the simulator, and engines to come) runs on.
#include <cstdint>
#include <functional>
#include <vector>

#include "model/frames/horizon.hpp"

namespace gpuwcrt {

// Where an unrolled operation comes from.
struct FrameOrigin {
    int op = 0;              // index in the original workload's ops
    std::int64_t frame = 0;  // k; 0 for an operation of a stream that runs once
    TimeRange release;       // frame k's release window [O + kT, O + kT + J]; [0, 0] when it runs once
};

struct Unrolled {
    // One frame: every stream runs once (Arrival::Kind::none), each periodic or sporadic
    // stream holding its frames one after another, so that the stream's FIFO carries frame k's
    // backlog into frame k+1. Operations are ordered by their frame's earliest release, then
    // file order (the tie order of simultaneous issues); frame k of NAME is named NAME#k.
    Workload workload;
    std::vector<FrameOrigin> origin;   // per operation of `workload`
    std::vector<std::int64_t> frames;  // per stream (same indices in both workloads): frames unrolled
};

// The operation of the file that unrolled operation `i` of `u` is a frame of: the one fold-back
// of frames onto the file's operations.
inline int file_operation(const Unrolled& u, int i) { return u.origin[static_cast<std::size_t>(i)].op; }

// Frame k of an operation with `issue = [a, b]` gets the issue window [O + kT + a, O + kT + J + b];
// the first operation of a frame without `issue` is issued in the release window itself;
// `after_stream_idle = d` is issued at max(release, stream idle) + d (IssueSpec::release);
// `wait` names the same frame's operations of a stream of the same period; across rates it becomes
// `wait_latest`, the frames of the other operation that can be the most recent one issued before
// (decided by the issue windows, ties by the launch order). A sporadic stream is unrolled with its densest
// releases, which is one scenario, not in general its worst case. Expectations and [scenario]
// are not carried over. Throws InputError (at `h.where`) beyond limits::max_unrolled_operations
// operations or when the horizon covers no frame, and the errors of frame_counts.
Unrolled unroll(const Workload& w, const Horizon& h);

// The same with `frames[s]` frames of each stream s and frame k of a repeating stream s released
// in `release(s, k)` instead of its arrival's window (a stream that runs once keeps [0, 0]).
using ReleaseWindow = std::function<TimeRange(int stream, std::int64_t frame)>;
Unrolled unroll_windows(const Workload& w, const std::vector<std::int64_t>& frames, const ReleaseWindow& release,
                        const SourceLocation& where);

}  // namespace gpuwcrt
