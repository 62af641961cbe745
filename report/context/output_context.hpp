#pragma once
// The context every --json output opens with, built in this one place so that every command
// says the same things the same way (docs/schema/): which tool and version, which command on
// which input with which options, and the unit of its times.
#include <optional>
#include <string>

#include "model/time.hpp"
#include "model/workload.hpp"
#include "report/json.hpp"

namespace gpuwcrt {

struct OutputContext {
    std::string command;                   // "wcrt", "certify", …
    std::string input;                     // as given on the command line ("-": standard input)
    Json options = Json::object();         // the options that shape the answer, by name
    std::optional<std::string> time_unit;  // the workload's time_unit; nullopt when unitless
};

// The context of a command that reads workload `w` (its time unit, if it states one).
OutputContext workload_context(const std::string& command, const std::string& input, const Workload& w);

// {"tool":{"name":"gpuwcrt","version"},"command","input","options","time_unit"} followed by
// the keys of `body` in their order. Taken by value: a caller that moves a large body (10^4
// operations) in spares the output a deep copy.
Json with_context(const OutputContext& context, Json body);

// "deadline" (exact string, null if none) and "deadline_met" (true, false, or null when not
// known) added to `op`.
void add_deadline(Json& op, const std::optional<Time>& deadline, const std::optional<bool>& met);

// Whether a response between a replayed lower bound and a proven upper bound meets `deadline`:
// true iff the upper bound is within it, false iff the lower bound exceeds it, else unknown.
std::optional<bool> deadline_met(const std::optional<Time>& deadline, const std::optional<Time>& lower,
                                 const std::optional<Time>& upper);

}  // namespace gpuwcrt
