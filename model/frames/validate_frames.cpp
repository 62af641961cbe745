#include "model/frames/validate_frames.hpp"

#include "model/frames/frame_name.hpp"

namespace gpuwcrt {
namespace {

void check_names(const Workload& w) {
    for (const Operation& op : w.ops)
        if (op.name.find(frame_separator) != std::string::npos)
            throw InputError(op.where, "operation name '" + op.name + "' contains '" + frame_separator +
                                           "', which a workload with periodic or sporadic streams keeps for the "
                                           "names of its frames (NAME" +
                                           frame_separator + "k)");
}

void check_issue_span(const Stream& s, const Operation& first, const Operation& last) {
    if (!first.issue.is_static() || !last.issue.is_static() || &first == &last) return;
    const Time& T = s.arrival.period;
    if (last.issue.at.lo <= first.issue.at.lo + T && last.issue.at.hi <= first.issue.at.hi + T) return;
    throw InputError(last.where, "'" + last.name + "' is issued " + human_string(last.issue.at.hi) +
                                     " after its frame's release, more than one " +
                                     (s.arrival.kind == Arrival::Kind::periodic ? "period" : "min_interarrival") +
                                     " (" + human_string(T) + ") after the frame's first operation '" + first.name +
                                     "' (" + human_string(first.issue.at.hi) + "): the next frame's '" + first.name +
                                     "' would be issued before it, in stream '" + s.name +
                                     "' whose calls the host issues in order");
}

}  // namespace

void validate_frames(const Workload& w) {
    if (!w.repeats()) return;
    check_names(w);
    std::vector<const Operation*> first(w.streams.size(), nullptr), last(w.streams.size(), nullptr);
    for (const Operation& op : w.ops) {
        if (!first[op.stream]) first[op.stream] = &op;
        last[op.stream] = &op;
    }
    for (std::size_t s = 0; s < w.streams.size(); ++s)
        if (w.streams[s].arrival.repeats() && first[s]) check_issue_span(w.streams[s], *first[s], *last[s]);
}

}  // namespace gpuwcrt
