#include "model/frames/horizon.hpp"

#include <numeric>

#include "model/input_limits.hpp"
#include "model/rounding.hpp"

namespace gpuwcrt {
namespace {

// Periods are rational: lcm(a/b, c/d) = lcm(a, c) / gcd(b, d) for fractions in lowest terms.
Time lcm_of(const Time& x, const Time& y) {
    using boost::multiprecision::denominator;
    using boost::multiprecision::numerator;
    const BigInt n = boost::multiprecision::lcm(numerator(x), numerator(y));
    const BigInt d = boost::multiprecision::gcd(denominator(x), denominator(y));
    return Time(n, d);
}

std::string stream_text(const Stream& s) { return "stream '" + s.name + "'"; }

// Union-find over the streams that `wait` pairs frame by frame (a wait across rates pairs no
// frame indices: its frames come from each stream's own horizon).
int root_of(std::vector<int>& parent, int s) {
    while (parent[s] != s) s = parent[s] = parent[parent[s]];
    return s;
}

void equalise_linked(const Workload& w, std::vector<std::int64_t>& count) {
    std::vector<int> parent(w.streams.size());
    std::iota(parent.begin(), parent.end(), 0);
    for (const Operation& op : w.ops)
        for (int t : op.wait)
            if (frames_pair(w.streams[op.stream].arrival, w.streams[w.ops[t].stream].arrival))
                parent[root_of(parent, op.stream)] = root_of(parent, w.ops[t].stream);
    std::vector<std::int64_t> most(w.streams.size(), 0);
    for (std::size_t s = 0; s < w.streams.size(); ++s) {
        std::int64_t& m = most[root_of(parent, static_cast<int>(s))];
        m = std::max(m, count[s]);
    }
    for (std::size_t s = 0; s < w.streams.size(); ++s) count[s] = most[root_of(parent, static_cast<int>(s))];
}

std::int64_t hyperperiod_frames(const Stream& s, const Time& H) {
    const Time n = frames_per_hyperperiod(s, H);
    if (n > max_hyperperiod_frames)
        throw InputError(s.where, "the hyperperiod of the workload's periods, " + human_string(H) + ", holds " +
                                      boost::multiprecision::numerator(n).str() + " frames of " + stream_text(s) +
                                      ", more than " + std::to_string(max_hyperperiod_frames) +
                                      " simulated by default: give --frames N or --until T");
    return static_cast<std::int64_t>(boost::multiprecision::numerator(n));
}

std::int64_t frames_of_hyperperiods(const Stream& s, const Time& H, const Horizon& h) {
    const Time n = frames_per_hyperperiod(s, H) * h.frames;
    if (h.frames < 1 || n > limits::max_frames)
        throw InputError(h.where, std::to_string(h.frames) + " hyperperiods of " + human_string(H) + " hold " +
                                      boost::multiprecision::numerator(n).str() + " frames of " + stream_text(s) +
                                      ", more than the limit of " + std::to_string(limits::max_frames));
    return static_cast<std::int64_t>(boost::multiprecision::numerator(n));
}

std::int64_t frames_until(const Stream& s, const Horizon& h) {
    if (h.until < s.arrival.offset) return 0;
    const Time n = (h.until - s.arrival.offset) / s.arrival.period;
    const BigInt whole = floor_of(n);
    if (whole >= limits::max_frames)
        throw InputError(h.where, human_string(h.until) + " covers more than " + std::to_string(limits::max_frames) +
                                      " frames of " + stream_text(s) + " (period " + human_string(s.arrival.period) +
                                      "), the limit of one simulation");
    return static_cast<std::int64_t>(whole) + 1;
}

}  // namespace

Time frames_per_hyperperiod(const Stream& s, const Time& H) {
    return s.arrival.repeats() ? H / s.arrival.period : Time(1);  // an integer: H is a multiple of every period
}

Time hyperperiod(const Workload& w) {
    Time H = 0;
    for (const Stream& s : w.streams)
        if (s.arrival.repeats()) H = H == 0 ? s.arrival.period : lcm_of(H, s.arrival.period);
    return H;
}

std::vector<std::int64_t> frame_counts(const Workload& w, const Horizon& h) {
    std::vector<std::int64_t> count(w.streams.size(), 1);
    const bool whole = h.kind == Horizon::Kind::hyperperiod || h.kind == Horizon::Kind::hyperperiods;
    const Time H = whole ? hyperperiod(w) : Time(0);
    for (std::size_t s = 0; s < w.streams.size(); ++s) {
        const Stream& st = w.streams[s];
        if (!st.arrival.repeats()) continue;
        if (h.kind == Horizon::Kind::hyperperiod) count[s] = hyperperiod_frames(st, H);
        else if (h.kind == Horizon::Kind::until) count[s] = frames_until(st, h);
        else if (h.kind == Horizon::Kind::hyperperiods) count[s] = frames_of_hyperperiods(st, H, h);
        else count[s] = h.frames;
    }
    if (h.kind == Horizon::Kind::frames && (h.frames < 1 || h.frames > limits::max_frames))
        throw InputError(h.where, "must be between 1 and " + std::to_string(limits::max_frames) + ", got " +
                                      std::to_string(h.frames));
    equalise_linked(w, count);
    return count;
}

}  // namespace gpuwcrt
