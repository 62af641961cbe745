#include "app/cli_options.hpp"

#include <set>

#include "app/output_file.hpp"
#include "app/parse_error_message.hpp"
#include "report/gantt_svg.hpp"
#include "report/time_notation.hpp"

namespace gpuwcrt::app {

std::vector<std::string> split_names(const std::string& s, const std::string& option) {
    if (s.find_first_not_of(" \t") == std::string::npos)
        throw option_error(option, "needs comma-separated operation names, got " + quoted_value(s));
    std::vector<std::string> out;
    std::set<std::string> seen;
    for (std::size_t from = 0; from <= s.size();) {
        std::size_t comma = s.find(',', from);
        if (comma == std::string::npos) comma = s.size();
        // Names may contain inner spaces ("Kernel 2", from examiner labels): trim only the ends.
        const std::string name = s.substr(from, comma - from);
        const auto first = name.find_first_not_of(" \t"), last = name.find_last_not_of(" \t");
        if (first == std::string::npos)
            throw option_error(option,
                               "name " + std::to_string(out.size() + 1) + " of " + quoted_value(s) + " is empty");
        out.push_back(name.substr(first, last - first + 1));
        if (!seen.insert(out.back()).second) throw option_error(option, "names " + quoted_value(out.back()) + " twice");
        from = comma + 1;
    }
    return out;
}

void add_names_option(CLI::App* sub, const std::string& option, std::optional<std::string>& value,
                      const std::string& help) {
    sub->add_option_function<std::string>(
        option, [&value](const std::string& v) { value = v; }, help);
}

std::vector<std::string> names_of(const std::optional<std::string>& value, const std::string& option) {
    return value ? split_names(*value, option) : std::vector<std::string>{};
}

void add_policy_option(CLI::App* sub, std::string& policy) {
    sub->add_option("--policy", policy,
                    "SM placement: most-room (default: the SM that can host the most more blocks of\n"
                    "the kernel, ties to the lowest index), round-robin, or first-fit")
        ->check(CLI::IsMember({"most-room", "round-robin", "first-fit"}));
}

void add_exact_option(CLI::App* sub) {
    sub->add_flag_callback(
        "--exact", [] { set_exact_times(true); },
        "exact times in the text tables and CSV: a decimal only when it ends within 12 digits, else\n"
        "the fraction (default: decimals, a time that does not end within 6 digits rounded to 0.000001,\n"
        "an upper bound up, a lower bound down, another time to the nearest; JSON is always exact)");
}

void check_block_outputs(const Workload& w, const std::string& svg, const std::string& listing) {
    const std::int64_t blocks = w.total_blocks();
    if (!svg.empty() && blocks > max_svg_blocks)
        throw option_error("--svg", "the workload has " + std::to_string(blocks) +
                                        " blocks; a chart is drawn for at most " + std::to_string(max_svg_blocks));
    if (!listing.empty() && blocks > max_listed_blocks)
        throw option_error(
            listing, "the workload has " + std::to_string(blocks) + " blocks; every block is listed for at most " +
                         std::to_string(max_listed_blocks) + " (the table without --blocks has no such limit)");
}

namespace {

// What the announcement on stderr calls the chart: "the schedule", "t4's witness".
std::string chart_what(const Workload& w, const ChartContext& ctx) {
    if (ctx.kind == ChartKind::schedule || !ctx.op) return "the schedule";
    return w.ops[*ctx.op].name + (ctx.kind == ChartKind::witness ? "'s witness" : "'s counterexample");
}

}  // namespace

void write_gantt_svg(const std::string& path, const Workload& w, const Schedule& s, const ChartContext& ctx) {
    write_output_file(path, gantt_svg(w, s, ctx), "SVG chart of " + chart_what(w, ctx));
}

}  // namespace gpuwcrt::app
