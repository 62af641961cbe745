#include "report/schedule_json.hpp"

#include "report/context/output_context.hpp"

namespace gpuwcrt {

void add_context_slices(Json& out, const Workload& w, const Schedule& s) {
    for (const auto& [key, intervals] : {std::pair{"slices", &s.slices}, std::pair{"switches", &s.switches}}) {
        Json list = Json::array();
        for (const ContextSlice& c : *intervals)
            list.push_back({{"context", w.contexts[c.context].name},
                            {"start", exact_string(c.start)},
                            {"end", exact_string(c.end)}});
        out[key] = std::move(list);
    }
}

Json schedule_json(const Workload& w, const Schedule& s, bool with_blocks) {
    Json ops = Json::array(), blocks = Json::array();
    for (int i : s.launch_order) {
        const Operation& o = w.ops[i];
        const OpTiming& t = s.ops[i];
        Json j = {{"name", o.name},
                  {"kind", o.is_kernel() ? "kernel" : "copy"},
                  {"stream", w.streams[o.stream].name},
                  {"issue", exact_string(t.issue)},
                  {"start", exact_string(t.start)},
                  {"finish", exact_string(t.finish)},
                  {"response", exact_string(s.response(i))}};
        const std::optional<bool> met = o.deadline ? std::optional(s.response(i) <= *o.deadline) : std::nullopt;
        add_deadline(j, o.deadline, met);
        if (met) j["meets_deadline"] = *met;  // the key scripts read before "deadline_met"
        ops.push_back(std::move(j));
    }
    Json out = {{"operations", ops}};
    if (w.sliced()) add_context_slices(out, w, s);
    if (!with_blocks) return out;
    for (const BlockTiming& b : s.blocks)
        blocks.push_back({{"kernel", w.ops[b.kernel].name},
                          {"index", b.index},
                          {"sm", b.sm},
                          {"start", exact_string(b.start)},
                          {"end", exact_string(b.end)}});
    out["blocks"] = std::move(blocks);
    return out;
}

}  // namespace gpuwcrt
