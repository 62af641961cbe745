#include "model/frames/one_frame.hpp"

namespace gpuwcrt {

void require_one_frame(const Workload& w, const std::string& what) {
    for (const Stream& s : w.streams) {
        if (!s.arrival.repeats()) continue;
        throw InputError(s.where, what + ": stream '" + s.name + "' is " +
                                      (s.arrival.kind == Arrival::Kind::periodic ? "periodic" : "sporadic") +
                                      ", and an all-time analysis of periodic and sporadic streams is not available "
                                      "yet; `gpuwcrt simulate --frames N " +
                                      w.source + "` simulates N frames of each");
    }
}

}  // namespace gpuwcrt
