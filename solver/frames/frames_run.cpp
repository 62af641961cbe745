#include "solver/frames/frames_run.hpp"

namespace gpuwcrt {

std::vector<std::string> argument_sentences(const FramesRun& r) {
    std::vector<std::string> out;
    if (r.steady_over != 0)
        out.push_back("the bounds of each " +
                      (r.steady_over == 1 ? "hyperperiod" : std::to_string(r.steady_over) + " hyperperiods") + " of " +
                      human_string(r.hyperperiod * r.steady_over) + " settle with the previous one's carry-over");
    if (r.closed_after != 0)
        out.push_back("the GPU is proven idle at the end of " + std::to_string(r.closed_after) +
                      (r.closed_after == 1 ? " hyperperiod" : " hyperperiods") + " of " + human_string(r.hyperperiod) +
                      (r.closed_offset == 0 ? ""
                                            : " plus the least offset " + human_string(r.closed_offset) +
                                                  ", before which no later frame is released") +
                      ", so every later frame repeats one of these");
    if (r.explored_window != 0)
        out.push_back("every state of the frames was explored, in a window of " + std::to_string(r.explored_window) +
                      " hyperperiods of " + human_string(r.hyperperiod) +
                      " moved on one hyperperiod at a time, until none was new (" + std::to_string(r.explored_states) +
                      " states): the worst response of every frame");
    if (r.busy_window)
        out.push_back("every busy period of the GPU is proven to end within " + human_string(*r.busy_window) +
                      ", and the frames one can hold are bounded wherever they are released");
    for (const ContextWindow& c : r.context_windows)
        out.push_back("every busy period of context '" + c.name + "' is proven to end within " +
                      human_string(c.length) + ", counting a wait of at most " + human_string(c.gap) +
                      " for the other contexts' slices at each of its kernel issues and full slices");
    return out;
}

std::optional<int> witnessed_operation(const FramesRun& r, int op, std::optional<std::int64_t> frame) {
    if (!r.unrolled || !frame) return std::nullopt;
    const std::vector<FrameOrigin>& origin = r.unrolled->origin;
    for (std::size_t i = 0; i < origin.size(); ++i)
        if (origin[i].op == op && origin[i].frame == *frame) return static_cast<int>(i);
    return std::nullopt;
}

}  // namespace gpuwcrt
