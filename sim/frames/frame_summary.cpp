#include "sim/frames/frame_summary.hpp"

namespace gpuwcrt {

std::vector<FrameWorst> worst_per_operation(const Workload& original, const Unrolled& u, const Schedule& s) {
    std::vector<FrameWorst> all(original.ops.size());
    for (std::size_t i = 0; i < u.origin.size(); ++i) {
        const int op = static_cast<int>(i);
        FrameWorst& f = all[file_operation(u, op)];
        f.op = file_operation(u, op);
        ++f.frames;
        const Time r = s.response(op);
        const auto& deadline = original.ops[f.op].deadline;
        if (deadline && r > *deadline) ++f.missed;
        // Unrolled operations of one origin come frame by frame, so a strict > keeps the earliest.
        if (f.worst < 0 || r > f.response) {
            f.worst = op;
            f.response = r;
        }
    }
    std::vector<FrameWorst> out;
    for (FrameWorst& f : all)
        if (f.frames > 0) out.push_back(std::move(f));
    return out;
}

}  // namespace gpuwcrt
