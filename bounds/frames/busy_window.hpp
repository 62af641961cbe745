#pragma once
// Bounds for every frame, for all time, of workloads whose releases do not repeat a pattern:
// sporadic streams, offsets beyond a period. Every busy period of the GPU is shown to end within
// a length X, and the interference bound runs on the frames one busy period can hold, each
// released anywhere in it (docs/theory/all-time.md, "A busy window: sporadic streams").
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bounds/interference/interference.hpp"
#include "model/frames/unroll.hpp"

namespace gpuwcrt {

// What one frame of a stream adds, at most, to a busy period: its issue gaps, its copies, its
// kernels' last blocks, and its blocks' share of the instants at which the SMs are full.
Time busy_cost(const Workload& w, int stream);
// The same for a stream alone on its SMs (no other stream shares them): its kernels' blocks
// then run in waves, ⌈g / (blocks that fit at once)⌉ block times each.
Time alone_cost(const Workload& w, int stream);

// The most frames of `a` released in [0, t] when the first is released at 0 or later: releases
// whose nominal instants are at least T apart, each up to J late (one for a stream that runs once).
std::int64_t frames_by(const Arrival& a, const Time& t);

struct BusyWindow {
    Time length = 0;                   // X: every busy period ends within X of its start
    std::vector<std::int64_t> frames;  // per stream: the most frames one busy period releases
};

// X, the least fixed point of X = Σ_s busy_cost(s) · (⌊(X + J_s)/T_s⌋ + 1) (a stream that runs
// once counts one frame); nullopt with `why` when the costs per unit of time reach 1, or X
// passes `limit` (then no busy period is proven to end).
std::optional<BusyWindow> busy_window(const Workload& w, const Time& limit, std::string& why);

// Test-only breaks of the busy window's own steps, which the differential tests must catch:
// a frame fewer of every stream with more than one, frame k released no earlier than kT (its
// jitter forgotten at the window's lower end), or the waits across rates dropped from the frames.
enum class BusyWindowMutation { none, one_frame_fewer, releases_from_nominal, waits_dropped };

// The frames of one busy period: `frames[s]` frames of each stream, frame k released anywhere
// in [max(0, kT − J), X]; a stream that runs once becomes one frame released in [0, X].
Unrolled busy_window_frames(const Workload& w, const BusyWindow& b,
                            BusyWindowMutation mutation = BusyWindowMutation::none);

struct BusyWindowBounds {
    BusyWindow window;
    std::vector<std::optional<Time>> upper;  // per operation of w: a bound on every frame's response
};

struct BusyWindowOptions {
    InterferenceMutation mutation = InterferenceMutation::none;     // test-only
    BusyWindowMutation window_mutation = BusyWindowMutation::none;  // test-only
};

// The bounds, or nullopt with `why` set: a `wait` between streams of one period, the NULL stream, no busy window, too
// many frames, or an operation the interference bound leaves unbounded.
std::optional<BusyWindowBounds> busy_window_bounds(const Workload& w, const Budget& budget, std::string& why,
                                                   const BusyWindowOptions& o = {});

}  // namespace gpuwcrt
