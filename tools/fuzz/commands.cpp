#include "commands.hpp"

namespace gpuwcrt::fuzz {

const std::vector<Command>& all_commands() {
    static const std::vector<Command> commands = {
        {"simulate", Format::toml, 0, false},
        {"simulate-svg", Format::toml, 0, true},
        {"rta", Format::toml, 0, false},
        {"wcrt", Format::toml, 1, false},
        {"import-examiner", Format::json, 0, true},
        {"wcrt-enumerate", Format::toml, 1, false},  // the engine that covers copies, NULL stream, priorities
    };
    return commands;
}

std::vector<std::string> command_args(const Command& c, const std::string& input, const std::string& output, Rng& rng) {
    if (c.key == "simulate") return {"simulate", input};
    if (c.key == "simulate-svg") return {"simulate", input, "--json", "--svg", output};
    if (c.key == "rta") return {"rta", input};
    if (c.key == "wcrt") return {"wcrt", input, "--timeout", "1"};
    if (c.key == "wcrt-enumerate") return {"wcrt", input, "--timeout", "1", "--engine", "enumerate"};
    std::vector<std::string> args = {"import-examiner", input, "-o", output};
    if (one_in(rng, 2)) args.insert(args.end(), {"--copy-bandwidth", "2e9"});
    return args;
}

}  // namespace gpuwcrt::fuzz
