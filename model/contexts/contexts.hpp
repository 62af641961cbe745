#pragma once
// GPU contexts (time-slice groups) in the model: the default context-switch cost, the checks of
// a workload with contexts, and the refusal by tools that analyse one context
// (docs/theory/semantics.md §10, docs/decisions/0028-gpu-contexts.md).
#include <optional>
#include <string>

#include "model/workload.hpp"

namespace gpuwcrt {

// The context-switch cost used when a file with two or more contexts gives none: 0.2 ms, the
// overhead θ GCAPS (Wang et al., ECRTS 2024) reports for Jetson boards, in the file's unit;
// nullopt when the file states no unit (then no default can be stated and the file must say).
std::optional<Time> default_context_switch(const std::string& time_unit);

// The certificate assumption that names the default (Workload::assumptions).
std::string context_switch_assumption(const Workload& w);

// The contexts' names, quoted and comma-separated, for messages listing what is allowed.
std::string context_names(const Workload& w);

// A wait across contexts is refused: cudaStreamWaitEvent across processes needs IPC events,
// whose timing gpuwcrt does not model. Throws InputError at the waiting operation.
void validate_contexts(const Workload& w);

// Throws InputError (exit 3) at the second context when `w` has two or more: `what` (e.g.
// "gpuwcrt rta") analyses the block rules of one context; `gpuwcrt simulate` runs the slices.
void require_one_context(const Workload& w, const std::string& what);

}  // namespace gpuwcrt
