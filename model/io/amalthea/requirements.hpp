#pragma once
// The timing requirements an AMALTHEA model states (its constraintsModel) as the workload's
// [[requirement]]s (docs/theory/semantics.md §11): each ProcessRequirement with an upper limit on
// a task's response time, on the workload's task of that name, its stream of that name, or, when
// the import left the task out, kept as not analysed. Everything else the constraintsModel holds
// about time (other metrics, lower limits, event chains and their latency constraints) is named
// in the notes as not checked: a certificate must not look as if it covered it.
#include <string>
#include <vector>

#include "model/io/amalthea/activation.hpp"
#include "model/workload.hpp"

namespace gpuwcrt::amalthea {

struct ImportedRequirements {
    std::vector<std::string> notes;     // where each requirement came from, what is not checked
    std::vector<std::string> warnings;  // what the model states against itself, also in the notes
};

// Appends the requirements to w.cpu.requirements. InputError for a requirement on a process the
// model does not have, or a limit that is not a time > 0.
ImportedRequirements import_requirements(const XmlSource& src, const ModelIndex& model, Workload& w);

}  // namespace gpuwcrt::amalthea
