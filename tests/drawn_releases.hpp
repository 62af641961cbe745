#pragma once
// Scenarios of periodic or sporadic streams with releases drawn at random, simulated, for the
// differential tests of the all-time bounds: a bound must not be exceeded by any of them.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "model/frames/unroll.hpp"
#include "model/integer_time.hpp"
#include "sim/search/lower_bounds.hpp"

namespace gpuwcrt::test {

// Releases of every repeating stream up to `horizon`: the first anywhere in [0, T), each next
// nominal instant T later, or more (half the time, unless `densest`); each release up to J late.
inline std::vector<std::vector<Time>> draw_releases(const Workload& w, const Time& horizon, bool densest,
                                                    std::mt19937_64& rng) {
    auto halves = [&](const Time& upto) {
        return Time(static_cast<long>(rng() % (2 * upto + 1).convert_to<long>()), 2);
    };
    std::vector<std::vector<Time>> out(w.streams.size());
    for (std::size_t s = 0; s < w.streams.size(); ++s) {
        const Arrival& a = w.streams[s].arrival;
        if (!a.repeats()) continue;
        for (Time nominal = halves(a.period - 1); nominal < horizon;
             nominal += a.period + (densest || rng() % 2 ? Time(0) : halves(a.period)))
            out[s].push_back(nominal + (a.jitter == 0 ? Time(0) : a.jitter * static_cast<long>(rng() % 3) / 2));
    }
    return out;
}

// Releases of every repeating stream up to `horizon` as a periodic stream makes them: frame k's
// nominal instant O + kT, released at the start, the middle or the end of its jitter (with a
// jitter of a period or more, frames released out of order, which the host takes in order).
inline std::vector<std::vector<Time>> draw_periodic_releases(const Workload& w, const Time& horizon,
                                                             std::mt19937_64& rng) {
    std::vector<std::vector<Time>> out(w.streams.size());
    for (std::size_t s = 0; s < w.streams.size(); ++s) {
        const Arrival& a = w.streams[s].arrival;
        if (!a.repeats()) continue;
        for (Time nominal = a.offset; nominal < horizon; nominal += a.period)
            out[s].push_back(nominal + a.jitter * static_cast<long>(rng() % 3) / 2);
    }
    return out;
}

struct Exceeded {
    std::string op;
    Time response, upper;
};

// Random scenarios of `patterns` drawn release patterns over `periods` of the longest period:
// the first response above its operation's bound, if any. A sporadic stream may stop
// releasing, so each finite pattern is a scenario; `periodic`: the streams release as
// periodic ones that stop, a sporadic scenario (for bounds that cover sporadic releases).
inline std::optional<Exceeded> exceeds(const Workload& w, const std::vector<std::optional<Time>>& upper,
                                       std::uint64_t seed, int patterns, long simulations, bool densest = false,
                                       int periods = 6, bool periodic = false) {
    std::mt19937_64 rng(seed);
    Time horizon = 0;
    for (const Stream& s : w.streams) horizon = std::max<Time>(horizon, s.arrival.period * periods);
    for (int p = 0; p < patterns; ++p) {
        const std::vector<std::vector<Time>> releases =
            periodic ? draw_periodic_releases(w, horizon, rng) : draw_releases(w, horizon, densest && p % 2 == 0, rng);
        std::vector<std::int64_t> frames(w.streams.size(), 1);
        for (std::size_t s = 0; s < w.streams.size(); ++s)
            if (w.streams[s].arrival.repeats()) frames[s] = static_cast<std::int64_t>(releases[s].size());
        const auto at = [&](int s, std::int64_t k) {
            return TimeRange{releases[s][static_cast<std::size_t>(k)], releases[s][static_cast<std::size_t>(k)]};
        };
        const Unrolled u = unroll_windows(w, frames, at, {"test", 0, 0});
        search::LowerBoundSearch search(u.workload, integer_times(u.workload), Policy::chooser, seed + p);
        search.run(simulations, Budget());
        for (std::size_t i = 0; i < u.workload.ops.size(); ++i) {
            const std::optional<Time>& seen = search.best()[i];
            const std::optional<Time>& bound = upper[u.origin[i].op];
            if (seen && bound && *seen > *bound) return Exceeded{u.workload.ops[i].name, *seen, *bound};
        }
    }
    return std::nullopt;
}

}  // namespace gpuwcrt::test
