#pragma once
// The name of what a requirement constrains: its task, its stream, or the model's task the
// workload left out.
#include <string>

#include "model/workload.hpp"

namespace gpuwcrt {

inline const std::string& requirement_target(const Workload& w, const Requirement& q) {
    switch (q.target) {
        case Requirement::Target::cpu_task:
            return w.cpu.tasks.at(q.index).name;
        case Requirement::Target::stream:
            return w.streams.at(q.index).name;
        case Requirement::Target::not_analysed:
            break;
    }
    return q.left_out;
}

}  // namespace gpuwcrt
