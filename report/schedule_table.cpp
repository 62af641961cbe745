#include "report/schedule_table.hpp"

#include <algorithm>

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
    if (w.sliced()) print_context_slices(out, w, s);
    if (with_blocks) print_block_table(out, w, s);
}

void print_context_slices(std::ostream& out, const Workload& w, const Schedule& s) {
    out << '\n';
    // Slices and switches alternate on one engine, so their starts order them.
    std::vector<std::pair<const ContextSlice*, bool>> rows;
    for (const ContextSlice& c : s.switches) rows.emplace_back(&c, true);
    for (const ContextSlice& c : s.slices) rows.emplace_back(&c, false);
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
        return time_less(a.first->start, b.first->start) ||
               (time_equal(a.first->start, b.first->start) && a.second && !b.second);
    });
    TextTable engine({"compute engine", "context", "start", "end"});
    for (const auto& [c, is_switch] : rows)
        engine.add({is_switch ? "switch to" : "runs", w.contexts[c->context].name, c->start, c->end});
    engine.print(out);
}

void print_block_table(std::ostream& out, const Workload& w, const Schedule& s) {
    out << '\n';
    TextTable blocks({"block", "sm", "start", "end"});
    for (const BlockTiming& b : s.blocks)
        blocks.add({w.ops[b.kernel].name + ":" + std::to_string(b.index), std::to_string(b.sm), b.start, b.end});
    blocks.print(out);
}

}  // namespace gpuwcrt
