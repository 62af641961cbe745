#include "findings.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>

namespace gpuwcrt::fuzz {
namespace {

namespace fs = std::filesystem;

// Several runs per class, since one overrun or crash class may hide more than one cause.
constexpr std::size_t examples_per_class = 3;

std::string outcome_label(const RunOutcome& o) {
    if (o.killed_by_limit) return "over wall backstop";
    if (o.over_cpu_limit) return "over CPU limit";
    if (o.signal != 0) return "signal " + std::to_string(o.signal);
    return "exit " + std::to_string(o.exit_code);
}

// Progress lines ("gpuwcrt wcrt [1.1 s] K1: ...") say nothing about the failure.
bool progress_line(const std::string& line) {
    const std::size_t sp = line.find(' ', 8);
    return line.rfind("gpuwcrt ", 0) == 0 && sp != std::string::npos && line.compare(sp, 2, " [") == 0;
}

std::string first_message_line(const std::string& err) {
    std::istringstream in(err);
    std::string line;
    while (std::getline(in, line))
        if (!line.empty() && !progress_line(line)) return line;
    return "";
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
    for (std::size_t p = 0; !from.empty() && (p = s.find(from, p)) != std::string::npos; p += to.size())
        s.replace(p, from.size(), to);
    return s;
}

// The message with what varies from mutant to mutant taken out: the input path, digits and
// quoted names, so that one bug is one class.
std::string normalise(std::string line, const std::string& input_path) {
    line = replace_all(line, input_path, "FILE");
    std::string out;
    char quote = 0;
    for (char c : line) {
        if (quote) {
            if (c == quote) {
                out += c;
                quote = 0;
            }
            continue;
        }
        if (c == '\'' || c == '"') {
            quote = c;
            out += c;
            out += "...";
            continue;
        }
        if (std::isdigit(static_cast<unsigned char>(c))) {
            if (out.empty() || out.back() != '#') out += '#';
            continue;
        }
        out += c;
    }
    return out.substr(0, 200);
}

std::string shell_quote(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

std::string printable(const std::string& s, std::size_t max) {
    std::string out;
    for (char c : s.substr(0, max)) {
        const auto u = static_cast<unsigned char>(c);
        out += (u < 0x20 && c != '\n') || u == 0x7f ? '?' : c;
    }
    return out;
}

}  // namespace

std::string failure_class(const RunRecord& r) {
    const RunOutcome& o = r.outcome;
    if (o.killed_by_limit) return "over the wall-clock backstop (killed)";
    if (o.over_cpu_limit) return "over the CPU-time limit";
    if (o.signal != 0) return std::string("signal ") + std::to_string(o.signal) + " (" + strsignal(o.signal) + ")";
    if (o.exit_code == 4) return "exit 4 (internal error)";
    if (o.exit_code < 0 || o.exit_code > 4) return "exit " + std::to_string(o.exit_code) + " (undocumented)";
    if (o.exit_code == 3 && r.command->writes_output && r.output_exists) return "output file written on an input error";
    return "";
}

Findings::Findings(std::string binary, std::string out_dir, std::uint64_t seed, Limits limits)
    : binary_(std::move(binary)), out_dir_(std::move(out_dir)), seed_(seed), limits_(limits) {}

std::string Findings::add(const RunRecord& r) {
    const std::string cls = failure_class(r);
    std::lock_guard lock(mutex_);
    ++runs_;
    PerCommand& pc = per_command_[r.command->key];
    ++pc.runs;
    ++pc.outcomes[outcome_label(r.outcome)];
    if (r.outcome.cpu_seconds > pc.slowest) {
        pc.slowest = r.outcome.cpu_seconds;
        pc.slowest_run = r.index;
    }
    const bool late = r.command->own_timeout > 0 && cls.empty() && r.outcome.cpu_seconds > r.command->own_timeout + 1;
    if (late) {
        ++pc.late;
        if (pc.late <= examples_per_class)
            late_examples_.push_back(save_reproducer(r, "CPU time over --timeout + 1 s",
                                                     "late-" + r.command->key + "-" + std::to_string(pc.late)));
    }
    if (cls.empty()) {
        if (r.outcome.exit_code == 3) ++input_errors_[normalise(first_message_line(r.stderr_text), r.input_path)];
        return cls;
    }
    ++failures_;
    {  // every failing run, one line each, to see which mutations lead where
        std::ofstream log(fs::path(out_dir_) / "failures.log", std::ios::app);
        log << "run " << r.index << '\t' << r.command->key << '\t' << cls << '\t' << std::fixed << std::setprecision(2)
            << r.outcome.cpu_seconds << " s CPU\t" << r.outcome.seconds << " s wall";
        for (std::size_t i = 1; i < r.mutant.steps.size(); ++i) log << '\t' << printable(r.mutant.steps[i], 200);
        log << '\t' << r.mutant.steps[0] << '\n';
    }
    const std::string message = normalise(first_message_line(r.stderr_text), r.input_path);
    const std::string key = r.command->key + "|" + cls + "|" + message;
    Class& c = classes_[key];
    if (c.count++ == 0) {
        class_order_.push_back(key);
        c.name = cls;
        c.command = r.command->key;
        c.message = printable(
            replace_all(first_message_line(r.stderr_text), r.input_path, fs::path(r.input_path).filename()), 200);
    }
    if (c.reproducers.size() < examples_per_class) {
        std::ostringstream name;
        name << 'f' << std::setw(3) << std::setfill('0')
             << (std::find(class_order_.begin(), class_order_.end(), key) - class_order_.begin() + 1) << '-'
             << r.command->key << '-' << c.count;
        c.reproducers.push_back(save_reproducer(r, cls, name.str()));
    }
    return cls;
}

std::string Findings::save_reproducer(const RunRecord& r, const std::string& cls, const std::string& name) const {
    const fs::path dir = fs::path(out_dir_) / name;
    fs::create_directories(dir);
    const std::string input_name = r.command->input == Format::toml ? "input.toml" : "input.json";
    std::ofstream(dir / input_name, std::ios::binary) << r.mutant.text;
    std::ofstream(dir / "stderr.txt", std::ios::binary) << r.stderr_text.substr(0, 1 << 16);
    std::ostringstream cmd;
    cmd << "\"${GPUWCRT:-" << binary_ << "}\"";
    for (const auto& a : r.args) {
        if (a == r.input_path) cmd << ' ' << input_name;
        else if (a == r.output_path) cmd << " out" << fs::path(a).extension().string();
        else cmd << ' ' << shell_quote(a);
    }
    std::ofstream sh(dir / "command.sh");
    sh << "#!/bin/sh\n# fuzz_cli seed " << seed_ << ", run " << r.index << ": " << cls << " after " << std::fixed
       << std::setprecision(2) << r.outcome.cpu_seconds << " s CPU, " << r.outcome.seconds << " s wall (limits "
       << limits_.cpu_seconds << " s CPU, " << limits_.wall_seconds << " s wall)\n";
    for (const auto& s : r.mutant.steps) sh << "#   " << printable(s, 300) << '\n';
    sh << "cd \"$(dirname \"$0\")\" || exit 1\n" << cmd.str() << '\n';
    sh.close();
    fs::permissions(dir / "command.sh", fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                    fs::perm_options::add);
    return (dir / "command.sh").string();
}

void Findings::keep(const RunRecord& r, const std::string& name) const {
    const std::string cls = failure_class(r);
    save_reproducer(r, cls.empty() ? "fine (" + outcome_label(r.outcome) + ")" : cls, name);
}

std::uint64_t Findings::runs() const {
    std::lock_guard lock(mutex_);
    return runs_;
}

std::uint64_t Findings::failures() const {
    std::lock_guard lock(mutex_);
    return failures_;
}

std::string Findings::summary(double wall_seconds, unsigned jobs) const {
    std::lock_guard lock(mutex_);
    std::ostringstream s;
    s << std::fixed << std::setprecision(2);
    s << "binary " << binary_ << ", seed " << seed_ << ", " << jobs << " job(s), limits per run " << limits_.cpu_seconds
      << " s CPU and " << limits_.wall_seconds << " s wall, campaign wall time " << wall_seconds << " s\n";
    s << "runs per command (outcome: count; most CPU time of a run; runs over their own --timeout + 1 s of CPU):\n";
    for (const auto& c : all_commands()) {
        const auto it = per_command_.find(c.key);
        if (it == per_command_.end()) continue;
        const PerCommand& pc = it->second;
        s << "  " << std::left << std::setw(16) << c.key << std::right << std::setw(7) << pc.runs << " |";
        for (const auto& [label, n] : pc.outcomes) s << ' ' << label << ": " << n << ';';
        s << " slowest " << pc.slowest << " s CPU (run " << pc.slowest_run << ")";
        if (c.own_timeout > 0) s << "; late " << pc.late;
        s << '\n';
    }
    s << "failure classes: " << class_order_.size() << '\n';
    for (const auto& key : class_order_) {
        const Class& c = classes_.at(key);
        s << "  " << c.command << ": " << c.name << ", " << c.count << " run(s)\n"
          << "    stderr: " << (c.message.empty() ? "(nothing)" : c.message) << '\n'
          << "    reproducers:";
        for (const auto& p : c.reproducers) s << ' ' << p;
        s << '\n';
    }
    if (!late_examples_.empty()) {
        s << "late runs (not failures; within the hard limits):";
        for (const auto& p : late_examples_) s << ' ' << p;
        s << '\n';
    }
    std::vector<std::pair<std::uint64_t, std::string>> common;
    for (const auto& [message, n] : input_errors_) common.emplace_back(n, message);
    std::sort(common.begin(), common.end(), std::greater<>());
    s << "most common input errors (exit 3), of " << input_errors_.size() << " kinds:\n";
    for (std::size_t i = 0; i < common.size() && i < 12; ++i)
        s << "  " << std::setw(6) << common[i].first << "  " << printable(common[i].second, 160) << '\n';
    s << "fuzz: " << runs_ << " runs, " << failures_ << " failures\n";
    return s.str();
}

}  // namespace gpuwcrt::fuzz
