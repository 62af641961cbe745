#include "app/parse_error_message.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace gpuwcrt::app {
namespace {

std::string quoted(const std::string& value) { return quoted_value(value); }

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

std::string after(const std::string& s, const std::string& marker) {
    const auto at = s.find(marker);
    return at == std::string::npos ? std::string() : s.substr(at + marker.size());
}

std::string before(const std::string& s, const std::string& marker) {
    const auto at = s.find(marker);
    return at == std::string::npos ? s : s.substr(0, at);
}

std::string lower_first(std::string s) {
    if (!s.empty() && s[0] >= 'A' && s[0] <= 'Z') s[0] = static_cast<char>(s[0] - 'A' + 'a');
    return s;
}

std::string first_line(const std::string& s) { return before(s, "\n"); }

struct Context {
    const CLI::App& cli;
    const CLI::App* sub;  // the chosen subcommand, if parsing got that far

    std::string command() const { return sub ? "gpuwcrt " + sub->get_name() : std::string("gpuwcrt"); }
    std::string see_help() const { return " (see " + command() + " --help)"; }
    // "gpuwcrt: simulate: " for errors that have no option to name.
    std::string prefix() const { return sub ? "gpuwcrt: " + sub->get_name() + ": " : std::string("gpuwcrt: "); }
    const CLI::Option* option(const std::string& name) const {
        return sub ? sub->get_option_no_throw(name) : cli.get_option_no_throw(name);
    }
    std::string commands() const {
        std::string out;
        for (const CLI::App* c : cli.get_subcommands([](const CLI::App*) { return true; }))
            out += (out.empty() ? "" : ", ") + c->get_name();
        return out;
    }
};

// Levenshtein distance: how many single-character edits turn `a` into `b`.
std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

// The option of the command (or, before a command, of gpuwcrt itself) nearest to a misspelt
// `given`, when it is near enough to be the likely intent: at most a third of its letters off.
std::string did_you_mean(const Context& c, const std::string& given) {
    const CLI::App& app = c.sub ? *c.sub : c.cli;
    // What one command calls the replayable scenario file, the other calls otherwise.
    for (const auto& [asked, meant] : {std::pair<std::string, std::string>{"--witness", "--counterexample"},
                                       std::pair<std::string, std::string>{"--counterexample", "--witness"}})
        if (given == asked && app.get_option_no_throw(meant)) return "; did you mean " + meant + "?";
    std::string best;
    std::size_t best_distance = std::string::npos;
    for (const CLI::Option* opt : app.get_options()) {
        for (const std::string& name : opt->get_lnames()) {
            const std::string candidate = "--" + name;
            const std::size_t d = edit_distance(given, candidate);
            if (d < best_distance) best = candidate, best_distance = d;
        }
    }
    const std::size_t letters = given.size() > 2 ? given.size() - 2 : given.size();
    if (best.empty() || best_distance == 0 || best_distance * 3 > letters + 2) return "";
    return "; did you mean " + best + "?";
}

// An argument that no option or positional took: the most direct thing to point at.
std::string unexpected_argument(const Context& c, const std::string& arg) {
    if (arg.size() > 1 && arg[0] == '-') {
        const std::string name = before(arg, "=");
        return "gpuwcrt: " + name + ": unknown option of '" + c.command() + "'" + did_you_mean(c, name) + c.see_help();
    }
    if (!c.sub)
        return "gpuwcrt: " + quoted(arg) + " is not a command; the commands are " + c.commands() +
               " (see gpuwcrt --help)";
    return c.prefix() + "unexpected argument " + quoted(arg) + c.see_help();
}

std::string missing_required(const Context& c, const CLI::ParseError& e) {
    if (!c.sub) return "gpuwcrt: missing command; the commands are " + c.commands() + " (see gpuwcrt --help)";
    for (const CLI::Option* opt : c.sub->get_options()) {
        if (!opt->get_required() || opt->count() > 0) continue;
        if (opt->nonpositional()) return "gpuwcrt: " + opt->get_name() + ": is required" + c.see_help();
        return c.prefix() + "missing argument '" + opt->get_name(true) + "': " + first_line(opt->get_description()) +
               c.see_help();
    }
    return c.prefix() + lower_first(e.what());
}

// What kind of value an option takes, from CLI11's type name ("INT", "UINT:POSITIVE", …).
std::string expected_value(const CLI::Option* opt) {
    const std::string type = opt ? before(opt->get_type_name(), ":") : std::string();
    if (type == "INT") return "an integer";
    if (type == "UINT") return "a non-negative integer";
    if (type == "FLOAT") return "a number";
    return "a value";
}

bool all_digits(const std::string& s) {
    std::string d = starts_with(s, "-") || starts_with(s, "+") ? s.substr(1) : s;
    if (d.empty()) return false;
    for (char ch : d)
        if (ch < '0' || ch > '9') return false;
    return true;
}

std::string conversion(const Context& c, const std::string& what) {
    // "Could not convert: --threads = abc"
    if (starts_with(what, "Could not convert: ")) {
        const std::string rest = after(what, "Could not convert: ");
        const std::string name = before(rest, " = "), value = after(rest, " = ");
        const CLI::Option* opt = c.option(name);
        if (opt && opt->get_items_expected_max() == 0)
            return "gpuwcrt: " + name + ": is a flag and takes no value, got " + quoted(value);
        const std::string kind = expected_value(opt);
        if (kind != "a value" && kind != "a number" && all_digits(value))
            return "gpuwcrt: " + name + ": " + quoted(value) + " is out of range";
        return "gpuwcrt: " + name + ": must be " + (kind == "a value" ? "a valid value" : kind) + ", got " +
               quoted(value);
    }
    // "--json: too many inputs for a flag", "--json: Should be true/false or a number"
    return "gpuwcrt: " + before(what, ": ") + ": is a flag and takes no value";
}

std::string validation(const Context& c, const std::string& what) {
    // "--policy: x not in {a,b,c}" (CLI::IsMember), "--timeout: Value -1 not in range 0 to …"
    const std::string name = before(what, ": "), message = after(what, ": ");
    if (const auto set = message.find(" not in {"); set != std::string::npos && message.back() == '}') {
        std::string allowed = message.substr(set + 9, message.size() - set - 10);
        for (std::size_t i = 0; (i = allowed.find(',', i)) != std::string::npos; i += 2) allowed.replace(i, 1, ", ");
        return "gpuwcrt: " + name + ": must be one of " + allowed + ", got " + quoted(message.substr(0, set));
    }
    if (starts_with(message, "Value ") && message.find(" not in range ") != std::string::npos) {
        const std::string value = before(after(message, "Value "), " not in range ");
        const CLI::Option* opt = c.option(name);
        if (opt && opt->get_type_name().find("POSITIVE") != std::string::npos)
            return "gpuwcrt: " + name + ": must be a positive number, got " + quoted(value);
        return "gpuwcrt: " + name + ": " + quoted(value) + " is out of range";
    }
    return "gpuwcrt: " + name + ": " + lower_first(message);
}

std::string argument_count(const Context& c, const std::string& what) {
    const std::string name = before(what, ": "), message = after(what, ": ");
    if (message.find(" required ") != std::string::npos && message.find(" missing") != std::string::npos)
        return "gpuwcrt: " + name + ": needs " + expected_value(c.option(name));
    if (starts_with(message, "At Most 1 required but received "))
        return "gpuwcrt: " + name + ": given " + after(message, "received ") + " times; give it once";
    if (message.empty()) return c.prefix() + lower_first(what);
    return "gpuwcrt: " + name + ": wrong number of values (" + lower_first(message) + ")";
}

}  // namespace

std::string quoted_value(const std::string& value) {
    std::string out = "'";
    for (char c : value) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", u);
            out += buf;
        } else {
            out += c;
        }
    }
    return out + "'";
}

std::string parse_error_message(const CLI::App& cli, const CLI::ParseError& error) {
    const auto subs = cli.get_subcommands();
    const Context c{cli, subs.empty() ? nullptr : subs.front()};
    // CLI11 checks required arguments before leftovers; a misspelt option explains both.
    for (const CLI::App* app : {&cli, c.sub}) {
        if (!app) continue;
        const auto extras = app->remaining();
        if (!extras.empty()) return unexpected_argument(c, extras.front());
    }
    const std::string what = error.what();
    if (dynamic_cast<const CLI::RequiredError*>(&error)) return missing_required(c, error);
    if (dynamic_cast<const CLI::ConversionError*>(&error)) return conversion(c, what);
    if (dynamic_cast<const CLI::ValidationError*>(&error)) return validation(c, what);
    if (dynamic_cast<const CLI::ArgumentMismatch*>(&error)) return argument_count(c, what);
    if (dynamic_cast<const CLI::ExcludesError*>(&error))
        return "gpuwcrt: " + before(what, " excludes ") + ": cannot be combined with " + after(what, " excludes ");
    if (dynamic_cast<const CLI::RequiresError*>(&error))
        return "gpuwcrt: " + before(what, " requires ") + ": needs " + after(what, " requires ") + " too";
    return c.prefix() + lower_first(what);
}

}  // namespace gpuwcrt::app
