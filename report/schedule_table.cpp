#include "report/schedule_table.hpp"

#include "report/text_table.hpp"

namespace gpuwcrt {

void print_schedule_table(std::ostream& out, const Workload& w, const Schedule& s, bool with_blocks) {
    TextTable ops({"operation", "kind", "stream", "issue", "start", "finish", "response", "deadline"});
    for (int i : s.launch_order) {
        const Operation& o = w.ops[i];
        const OpTiming& t = s.ops[i];
        std::string deadline = "-";
        if (o.deadline)
            deadline = human_string(*o.deadline) + (s.response(i) <= *o.deadline ? " met" : " MISSED");
        ops.add({o.name, o.is_kernel() ? "kernel" : "copy", w.streams[o.stream].name, human_string(t.issue),
                 human_string(t.start), human_string(t.finish), human_string(s.response(i)), deadline});
    }
    ops.print(out);
    if (!with_blocks) return;
    out << '\n';
    TextTable blocks({"block", "sm", "start", "end"});
    for (const BlockTiming& b : s.blocks)
        blocks.add({w.ops[b.kernel].name + ":" + std::to_string(b.index), std::to_string(b.sm),
                    human_string(b.start), human_string(b.end)});
    blocks.print(out);
}

}  // namespace gpuwcrt
