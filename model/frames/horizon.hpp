#pragma once
// How many frames of each periodic or sporadic stream a simulation covers (docs/theory/semantics.md §9).
#include <cstdint>
#include <vector>

#include "model/workload.hpp"

namespace gpuwcrt {

struct Horizon {
    enum class Kind {
        hyperperiod,  // H / T frames of a stream of period T, H the least common multiple of all periods
        frames,       // `frames` frames of every periodic or sporadic stream
        until,        // every frame whose release window opens at or before `until`
        hyperperiods  // the frames of `frames` hyperperiods: k·H / T frames of a stream of period T
    };
    Kind kind = Kind::hyperperiod;
    std::int64_t frames = 1;
    Time until = 0;
    SourceLocation where;  // what set it (an option, an [[expect]]), for messages

    static Horizon of_frames(std::int64_t n, SourceLocation where) { return {Kind::frames, n, 0, std::move(where)}; }
    static Horizon up_to(Time t, SourceLocation where) { return {Kind::until, 1, std::move(t), std::move(where)}; }
    static Horizon hyperperiods(std::int64_t k, SourceLocation where) {
        return {Kind::hyperperiods, k, 0, std::move(where)};
    }
};

// The least common multiple of the periods (min_interarrival for a sporadic stream) of `w`'s
// periodic and sporadic streams; 0 when it has none.
Time hyperperiod(const Workload& w);

// The frames of `k` hyperperiods of `w`, for an analysis (no option set it).
inline Horizon hyperperiods_of(const Workload& w, std::int64_t k) { return Horizon::hyperperiods(k, {w.source, 0, 0}); }

// How many frames of stream `s` one hyperperiod `H` holds (H is a multiple of its period); 1
// for a stream that runs once.
Time frames_per_hyperperiod(const Stream& s, const Time& H);

// Per stream of `w`, the frames the horizon covers: 1 for a stream that runs once. Streams
// linked by `wait` get the same count, the largest among them, so that no wait names a frame
// left out. Throws InputError at `h.where` beyond limits::max_frames frames of a stream (for the
// hyperperiod: more than max_hyperperiod_frames, at the stream, asking for --frames or --until),
// or when no frame at all is covered.
inline constexpr std::int64_t max_hyperperiod_frames = 1000;
std::vector<std::int64_t> frame_counts(const Workload& w, const Horizon& h);

}  // namespace gpuwcrt
