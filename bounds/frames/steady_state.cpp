#include "bounds/frames/steady_state.hpp"

#include <map>

#include "model/frames/transforms.hpp"

namespace gpuwcrt {
namespace {

// Per operation of the first hyperperiod: the same operation's frame one hyperperiod later.
std::vector<int> next_hyperperiod(const Workload& w, const Unrolled& u, const Time& H) {
    std::map<std::pair<int, std::int64_t>, int> index;
    for (std::size_t i = 0; i < u.origin.size(); ++i) index[{u.origin[i].op, u.origin[i].frame}] = static_cast<int>(i);
    std::vector<int> next(u.origin.size(), -1);
    for (std::size_t i = 0; i < u.origin.size(); ++i) {
        const FrameOrigin& o = u.origin[i];
        const Time per = frames_per_hyperperiod(w.streams[w.ops[o.op].stream], H);
        const auto it = index.find({o.op, o.frame + static_cast<std::int64_t>(numerator(per))});
        if (it != index.end() && o.release.lo < H) next[i] = it->second;
    }
    return next;
}

UpperEnds shifted(const UpperEnds& e, const Time& by) {
    return {e.issue - by, e.join - by, e.done - by, e.behind, e.response, e.wait, e.solo};
}

// Whether every upper end of `a` is at most `b`'s (an absent response is unbounded).
bool within(const UpperEnds& a, const UpperEnds& b) {
    if (b.response && (!a.response || *a.response > *b.response)) return false;
    return a.issue <= b.issue && a.join <= b.join && a.done <= b.done && a.behind <= b.behind && a.wait <= b.wait &&
           a.solo <= b.solo;
}

UpperEnds join(const UpperEnds& a, const UpperEnds& b) {
    std::optional<Time> r;
    if (a.response && b.response) r = std::max(*a.response, *b.response);
    return {
        std::max(a.issue, b.issue), std::max(a.join, b.join), std::max(a.done, b.done), std::max(a.behind, b.behind), r,
        std::max(a.wait, b.wait),   std::max(a.solo, b.solo)};
}

}  // namespace

std::optional<SteadyState> steady_state_bounds(const Workload& w, const Budget& budget, const SteadyOptions& o,
                                               std::string& why) {
    if (std::string gap = pattern_gap(w); !gap.empty()) return why = std::move(gap), std::nullopt;
    for (const Stream& s : w.streams)  // a stream that runs once has no steady state to settle into
        if (!s.arrival.repeats())
            return why = "stream '" + s.name + "' is not periodic with its offset below its period", std::nullopt;
    // Any multiple of the hyperperiod is a period of the system: a longer one leaves the frames
    // more room to complete within two of them.
    const Time H = hyperperiod(w) * o.hyperperiods;
    SteadyState st;
    // Three periods: the later period's frames may run until the end of the third, and the third
    // period's frames can delay them there (docs/theory/all-time.md, fact 4).
    st.unrolled = unroll(w, hyperperiods_of(w, 3 * o.hyperperiods));
    const Workload& u = st.unrolled.workload;
    const std::vector<int> next = next_hyperperiod(w, st.unrolled, H);
    for (std::size_t i = 0; i < next.size(); ++i)
        if (next[i] >= 0) st.first.push_back(static_cast<int>(i));
    InterferenceOptions io;
    io.mutation = o.mutation;
    InterferenceBounds b = interference_bounds(u, budget, io);
    // S: the first hyperperiod's upper ends, from an idle start; it only grows.
    std::vector<UpperEnds> s;
    for (const int i : st.first) s.push_back(b.ends.empty() ? UpperEnds{} : b.ends[i]);
    io.pinned.resize(u.ops.size());
    for (st.iterations = 1; st.iterations <= o.max_iterations; ++st.iterations) {
        if (b.stopped || budget.expired()) return why = "the time ran out", std::nullopt;
        if (b.ends.empty()) return why = "the interference bound does not cover this workload", std::nullopt;
        bool holds = true;
        for (std::size_t n = 0; n < st.first.size(); ++n) {
            if (!s[n].response || s[n].done > H * 2)
                return why = "'" + u.ops[st.first[n]].name + "' is not proven to complete within two hyperperiods",
                       std::nullopt;
            if (!o.from_idle) io.pinned[st.first[n]] = s[n];
        }
        b = interference_bounds(u, budget, io);
        if (b.ends.empty() || b.stopped) continue;
        for (std::size_t n = 0; n < st.first.size(); ++n) {
            const UpperEnds r = shifted(b.ends[next[st.first[n]]], H);
            if (!within(r, s[n])) holds = false, s[n] = join(s[n], r);
        }
        if (!holds) continue;
        st.response.assign(u.ops.size(), std::nullopt);
        for (std::size_t n = 0; n < st.first.size(); ++n) st.response[st.first[n]] = s[n].response;
        return st;
    }
    why = "the bounds of successive hyperperiods did not settle within " + std::to_string(o.max_iterations) +
          " iterations";
    return std::nullopt;
}

std::optional<SteadyBounds> steady_bounds(const Workload& w, const Budget& budget, SteadyOptions o, std::string& why) {
    for (o.hyperperiods = 1; o.hyperperiods <= 4 && !budget.expired(); o.hyperperiods *= 2) {
        std::optional<SteadyState> st;
        try {
            st = steady_state_bounds(w, budget, o, why);
        } catch (const InputError& e) {  // too many frames to unroll, times finer than ticks
            why = e.what();
            return std::nullopt;
        }
        if (!st) continue;
        SteadyBounds out{o.hyperperiods, std::vector<std::optional<Time>>(w.ops.size())};
        for (const int i : st->first) {
            std::optional<Time>& u = out.upper[file_operation(st->unrolled, i)];
            if (!u || *u < *st->response[i]) u = st->response[i];
        }
        why.clear();
        return out;
    }
    return std::nullopt;
}

}  // namespace gpuwcrt
