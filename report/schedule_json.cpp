#include "report/schedule_json.hpp"

#include "report/context/output_context.hpp"

namespace gpuwcrt {

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
    if (!with_blocks) return {{"operations", ops}};
    for (const BlockTiming& b : s.blocks)
        blocks.push_back({{"kernel", w.ops[b.kernel].name},
                          {"index", b.index},
                          {"sm", b.sm},
                          {"start", exact_string(b.start)},
                          {"end", exact_string(b.end)}});
    return {{"operations", ops}, {"blocks", blocks}};
}

}  // namespace gpuwcrt
