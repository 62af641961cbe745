#include "model/contexts/contexts.hpp"

#include "model/name_policy.hpp"

namespace gpuwcrt {

std::optional<Time> default_context_switch(const std::string& time_unit) {
    // 0.2 ms = 1/5000 s.
    if (time_unit == "s") return Time(1, 5000);
    if (time_unit == "ms") return Time(1, 5);
    if (time_unit == "us") return Time(200);
    if (time_unit == "ns") return Time(200000);
    return std::nullopt;
}

std::string context_switch_assumption(const Workload& w) {
    return "a switch between GPU contexts costs " + human_string(w.platform.context_switch) + " " + w.time_unit +
           " (0.2 ms, the overhead GCAPS, Wang et al. ECRTS 2024, reports on Jetson boards; the file gives no "
           "[platform] context_switch)";
}

std::string context_names(const Workload& w) {
    std::string out;
    for (const GpuContext& c : w.contexts) out += (out.empty() ? "" : ", ") + quoted_name(c.name);
    return out;
}

void validate_contexts(const Workload& w) {
    if (!w.sliced()) return;
    for (const Operation& op : w.ops) {
        const int mine = w.streams[op.stream].context;
        for (int other : op.wait) {
            const int theirs = w.streams[w.ops[other].stream].context;
            if (theirs == mine) continue;
            throw InputError(op.where, "'" + op.name + "' (context " + quoted_name(w.contexts[mine].name) +
                                           ") waits on '" + w.ops[other].name + "' of context " +
                                           quoted_name(w.contexts[theirs].name) +
                                           ": a wait across GPU contexts (processes) needs IPC events, whose timing "
                                           "gpuwcrt does not model; keep waits within a context");
        }
    }
}

void require_one_context(const Workload& w, const std::string& what) {
    if (!w.sliced()) return;
    const GpuContext& second = w.contexts[1];
    throw InputError(second.where, what + ": the workload has " + std::to_string(w.contexts.size()) +
                                       " GPU contexts (" + context_names(w) +
                                       "), which the GPU time-slices, and this analysis covers the block rules of "
                                       "one context; `gpuwcrt simulate " +
                                       w.source +
                                       "` runs the slices, and `gpuwcrt wcrt` or `gpuwcrt certify` "
                                       "(the default engine, the all-time analysis) bounds them");
}

}  // namespace gpuwcrt
