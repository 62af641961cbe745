#include "app/cli_options.hpp"

#include "app/output_file.hpp"
#include "report/gantt_svg.hpp"

namespace gpuwcrt::app {

std::vector<std::string> split_names(const std::string& s) {
    // Names may contain spaces ("Kernel 2", from examiner labels): trim only the ends.
    std::vector<std::string> out;
    std::size_t from = 0;
    while (from <= s.size()) {
        std::size_t comma = s.find(',', from);
        if (comma == std::string::npos) comma = s.size();
        std::string name = s.substr(from, comma - from);
        const auto first = name.find_first_not_of(" \t"), last = name.find_last_not_of(" \t");
        if (first != std::string::npos) out.push_back(name.substr(first, last - first + 1));
        from = comma + 1;
    }
    return out;
}

void add_policy_option(CLI::App* sub, std::string& policy) {
    sub->add_option("--policy", policy,
                    "SM placement: most-room (default: the SM that can host the most more blocks of\n"
                    "the kernel, ties to the lowest index), round-robin, or first-fit")
        ->check(CLI::IsMember({"most-room", "round-robin", "first-fit"}));
}

Policy policy_from_option(const std::string& name) {
    if (auto p = parse_policy(name)) return *p;
    throw InputError({"--policy", 1, 1}, "unknown policy '" + name + "'");
}

void write_gantt_svg(const std::string& path, const Workload& w, const Schedule& s) {
    write_output_file(path, gantt_svg(w, s));
}

}  // namespace gpuwcrt::app
