#include "report/schedule_table.hpp"

#include "model/time_less.hpp"
#include "report/text_table.hpp"

namespace gpuwcrt {

void print_schedule_table(std::ostream& out, const Workload& w, const Schedule& s, bool with_blocks) {
    if (const auto unit = time_unit_name(w.time_unit)) out << "times in " << *unit << "\n\n";
    TextTable ops({"operation", "kind", "stream", "issue", "start", "finish", "response", "deadline", "met"});
    for (int i : s.launch_order) {
        const Operation& o = w.ops[i];
        const OpTiming& t = s.ops[i];
        const Time response = s.response(i);
        const std::string met = !o.deadline ? "-" : !time_less(*o.deadline, response) ? "yes" : "MISSED";
        ops.add({o.name, o.is_kernel() ? "kernel" : "copy", w.streams[o.stream].name, t.issue, t.start, t.finish,
                 response, o.deadline, met});
    }
    ops.print(out);
    if (with_blocks) print_block_table(out, w, s);
}

void print_block_table(std::ostream& out, const Workload& w, const Schedule& s) {
    out << '\n';
    TextTable blocks({"block", "sm", "start", "end"});
    for (const BlockTiming& b : s.blocks)
        blocks.add({w.ops[b.kernel].name + ":" + std::to_string(b.index), std::to_string(b.sm), b.start, b.end});
    blocks.print(out);
}

}  // namespace gpuwcrt
