#include "model/frames/transforms.hpp"

#include "model/frames/horizon.hpp"

namespace gpuwcrt {

bool has_sporadic_stream(const Workload& w) {
    for (const Stream& s : w.streams)
        if (s.arrival.kind == Arrival::Kind::sporadic) return true;
    return false;
}

Workload densest(const Workload& w) {
    Workload out = w;
    for (Stream& s : out.streams)
        if (s.arrival.kind == Arrival::Kind::sporadic) s.arrival.kind = Arrival::Kind::periodic;
    return out;
}

Workload without_jitter(const Workload& w) {
    Workload out = w;
    for (Stream& s : out.streams) s.arrival.jitter = 0;
    return out;
}

Workload repeating_part(const Workload& w, std::vector<int>& to_file) {
    Workload out = w;
    out.streams.clear();
    out.ops.clear();
    std::vector<int> stream_index(w.streams.size(), -1), op_index(w.ops.size(), -1);
    for (std::size_t s = 0; s < w.streams.size(); ++s)
        if (w.streams[s].arrival.repeats()) {
            stream_index[s] = static_cast<int>(out.streams.size());
            out.streams.push_back(w.streams[s]);
        }
    for (std::size_t i = 0; i < w.ops.size(); ++i) {
        if (stream_index[w.ops[i].stream] < 0) continue;
        op_index[i] = static_cast<int>(out.ops.size());
        to_file.push_back(static_cast<int>(i));
        out.ops.push_back(w.ops[i]);
        out.ops.back().stream = stream_index[w.ops[i].stream];
    }
    for (Operation& op : out.ops)
        for (int& t : op.wait) t = op_index[t];  // waits link repeating streams only
    out.expectations.clear();
    out.scenario.reset();
    return out;
}

std::string pattern_gap(const Workload& w) {
    for (const Stream& s : w.streams) {
        const Arrival& a = s.arrival;
        if (a.kind == Arrival::Kind::sporadic || (a.kind == Arrival::Kind::periodic && a.offset >= a.period))
            return "stream '" + s.name + "' is not periodic with its offset below its period";
    }
    return "";
}

Unrolled lower_bound_frames(const Workload& w, const Workload& dense, const Horizon& h) {
    if (!has_sporadic_stream(w)) return unroll(dense, h);
    const auto release = [&w](int stream, std::int64_t frame) {
        const Arrival& a = w.streams[static_cast<std::size_t>(stream)].arrival;
        const Interval<Time> nominal = a.release(frame);
        return TimeRange{nominal.lo, a.kind == Arrival::Kind::sporadic ? nominal.hi + a.period : nominal.hi};
    };
    return unroll_windows(dense, frame_counts(dense, h), release, h.where);
}

}  // namespace gpuwcrt
