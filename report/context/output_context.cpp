#include "report/context/output_context.hpp"

#include "report/context/version.hpp"

namespace gpuwcrt {

OutputContext workload_context(const std::string& command, const std::string& input, const Workload& w) {
    OutputContext c;
    c.command = command;
    c.input = input;
    if (!w.time_unit.empty()) c.time_unit = w.time_unit;
    return c;
}

Json with_context(const OutputContext& context, Json body) {
    Json out = {{"tool", {{"name", "gpuwcrt"}, {"version", tool_version}}},
                {"command", context.command},
                {"input", context.input.empty() ? Json(nullptr) : Json(context.input)},
                {"options", context.options},
                {"time_unit", context.time_unit ? Json(*context.time_unit) : Json(nullptr)}};
    for (auto& [key, value] : body.items()) out[key] = std::move(value);
    return out;
}

void add_deadline(Json& op, const std::optional<Time>& deadline, const std::optional<bool>& met) {
    op["deadline"] = deadline ? Json(exact_string(*deadline)) : Json(nullptr);
    op["deadline_met"] = met ? Json(*met) : Json(nullptr);
}

std::optional<bool> deadline_met(const std::optional<Time>& deadline, const std::optional<Time>& lower,
                                 const std::optional<Time>& upper) {
    if (!deadline) return std::nullopt;
    if (upper && *upper <= *deadline) return true;
    if (lower && *lower > *deadline) return false;
    return std::nullopt;
}

}  // namespace gpuwcrt
