#include "model/io/write_toml.hpp"

#include <cstdio>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace gpuwcrt {
namespace {

// toml++ reads a decimal through the C library before we re-read its text exactly; very long
// literals are safer as "a/b" strings.
constexpr std::size_t longest_decimal = 40;

void platform_table(std::ostream& out, const Platform& p, bool sliced) {
    const Platform d;
    std::ostringstream body;
    auto field = [&](const char* key, auto value, auto default_value) {
        if (value != default_value) body << key << " = " << value << '\n';
    };
    field("sms", p.sms, d.sms);
    field("threads_per_sm", p.threads_per_sm, d.threads_per_sm);
    field("threads_per_block_max", p.threads_per_block_max, d.threads_per_block_max);
    field("shared_mem_per_sm", p.shared_mem_per_sm, d.shared_mem_per_sm);
    field("shared_mem_per_block_max", p.shared_mem_per_block_max, d.shared_mem_per_block_max);
    field("registers_per_sm", p.registers_per_sm, d.registers_per_sm);
    field("registers_per_block_max", p.registers_per_block_max, d.registers_per_block_max);
    field("blocks_per_sm_max", p.blocks_per_sm_max, d.blocks_per_sm_max);
    field("copy_engines", p.copy_engines, d.copy_engines);
    // With contexts always: without the key the loader would supply its default.
    if (sliced || p.context_switch != 0) body << "context_switch = " << toml_time(p.context_switch) << '\n';
    if (!body.str().empty()) out << "[platform]\n" << body.str() << '\n';
}

std::string range_value(const TimeRange& r) {
    if (r.is_point()) return toml_time(r.lo);
    return "[" + toml_time(r.lo) + ", " + toml_time(r.hi) + "]";
}

void issue_keys(std::ostream& out, const Operation& op) {
    switch (op.issue.kind) {
        case IssueSpec::Kind::at:
            out << "issue = " << range_value(op.issue.at) << '\n';
            break;
        case IssueSpec::Kind::after_stream_idle:
            // An unrolled frame's release has no key: only the workload with its streams' periods states it.
            if (op.issue.release) throw std::logic_error("workload_to_toml: '" + op.name + "' is an unrolled frame's");
            out << "after_stream_idle = " << toml_time(op.issue.delay) << '\n';
            break;
        case IssueSpec::Kind::with_previous:
            break;  // the loader's reading of "no issue key"
    }
}

void operation_table(std::ostream& out, const Workload& w, const Operation& op) {
    out << (op.is_kernel() ? "[[kernel]]\n" : "[[copy]]\n");
    out << "name = " << toml_quoted(op.name) << '\n';
    out << "stream = " << toml_quoted(w.streams.at(op.stream).name) << '\n';
    if (op.is_kernel()) {
        out << "blocks = " << op.blocks << '\n';
        out << "threads = " << op.threads << '\n';
        if (op.shared_mem != 0) out << "shared_mem = " << op.shared_mem << '\n';
        if (op.registers != 0) out << "registers = " << op.registers << '\n';
        out << "block_time = " << range_value(op.time) << '\n';
    } else {
        out << "duration = " << range_value(op.time) << '\n';
    }
    issue_keys(out, op);
    if (op.deadline) out << "deadline = " << toml_time(*op.deadline) << '\n';
    if (!op.wait.empty()) {
        out << "wait = [";
        for (std::size_t i = 0; i < op.wait.size(); ++i)
            out << (i ? ", " : "") << toml_quoted(w.ops.at(op.wait[i]).name);
        out << "]\n";
    }
    out << '\n';
}

void arrival_keys(std::ostream& out, const Arrival& a) {
    if (!a.repeats()) return;
    out << (a.kind == Arrival::Kind::periodic ? "period = " : "min_interarrival = ") << toml_time(a.period) << '\n';
    if (a.offset != 0) out << "offset = " << toml_time(a.offset) << '\n';
    if (a.jitter != 0) out << "jitter = " << toml_time(a.jitter) << '\n';
}

void scenario_table(std::ostream& out, const FixedScenario& s) {
    out << "[scenario]\n";
    if (!s.order.empty()) {
        out << "order = [";
        for (std::size_t i = 0; i < s.order.size(); ++i) out << (i ? ", " : "") << toml_quoted(s.order[i]);
        out << "]\n";
    }
    if (s.policy) out << "policy = " << toml_quoted(*s.policy) << '\n';
    if (!s.block_time.empty()) {
        out << "block_time = { ";
        const char* sep = "";
        for (const auto& [op, times] : s.block_time) {
            out << sep << toml_quoted(op) << " = [";
            for (std::size_t i = 0; i < times.size(); ++i) out << (i ? ", " : "") << toml_time(times[i]);
            out << "]";
            sep = ", ";
        }
        out << " }\n";
    }
    if (!s.issue.empty()) {
        out << "issue = { ";
        const char* sep = "";
        for (const auto& [op, t] : s.issue) out << sep << toml_quoted(op) << " = " << toml_time(t), sep = ", ";
        out << " }\n";
    }
    if (!s.sm.empty()) {
        out << "\n[scenario.sm]\n";
        for (const auto& [kernel, sms] : s.sm) {
            out << toml_quoted(kernel) << " = [";
            for (std::size_t i = 0; i < sms.size(); ++i) out << (i ? ", " : "") << sms[i];
            out << "]\n";
        }
    }
}

}  // namespace

std::string toml_quoted(const std::string& text) {
    std::string q = "\"";
    for (unsigned char c : text) {
        switch (c) {
            case '"':
                q += "\\\"";
                break;
            case '\\':
                q += "\\\\";
                break;
            case '\n':
                q += "\\n";
                break;
            case '\t':
                q += "\\t";
                break;
            case '\r':
                q += "\\r";
                break;
            default:
                if (c < 0x20 || c == 0x7f) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04X", c);
                    q += buf;
                } else {
                    q.push_back(static_cast<char>(c));
                }
        }
    }
    return q + "\"";
}

std::string toml_time(const Time& t) {
    if (boost::multiprecision::denominator(t) == 1) {
        const BigInt& n = boost::multiprecision::numerator(t);
        if (n <= std::numeric_limits<std::int64_t>::max() && n >= std::numeric_limits<std::int64_t>::min())
            return n.str();
        return toml_quoted(n.str());
    }
    std::string decimal = human_string(t);
    if (decimal.find('/') == std::string::npos && decimal.size() <= longest_decimal) return decimal;
    return toml_quoted(exact_string(t));
}

std::string workload_to_toml(const Workload& w, const TomlWriteOptions& options) {
    std::ostringstream out;
    for (const std::string& c : options.comments) {
        std::istringstream lines(c);
        for (std::string line; std::getline(lines, line);) out << "#" << (line.empty() ? "" : " ") << line << '\n';
    }
    if (!options.title.empty()) out << "title = " << toml_quoted(options.title) << '\n';
    if (!options.source.empty()) out << "source = " << toml_quoted(options.source) << '\n';
    if (!w.time_unit.empty()) out << "time_unit = " << toml_quoted(w.time_unit) << '\n';
    if (!w.assumptions.empty()) {
        out << "assumptions = [\n";
        for (const std::string& a : w.assumptions) out << "    " << toml_quoted(a) << ",\n";
        out << "]\n";
    }
    if (!options.comments.empty() || !options.title.empty() || !options.source.empty() || !w.time_unit.empty() ||
        !w.assumptions.empty())
        out << '\n';
    platform_table(out, w.platform, w.sliced());
    for (const GpuContext& c : w.contexts)
        out << "[[context]]\nname = " << toml_quoted(c.name) << "\ntimeslice = " << toml_time(c.timeslice) << "\n\n";
    for (const Stream& s : w.streams) {
        out << "[[stream]]\nname = " << toml_quoted(s.name) << '\n';
        out << "priority = \"" << (s.priority == Priority::high ? "high" : "low") << "\"\n";
        if (s.is_null) out << "null = true\n";
        if (!w.contexts.empty()) out << "context = " << toml_quoted(w.contexts.at(s.context).name) << '\n';
        arrival_keys(out, s.arrival);
        out << '\n';
    }
    for (const Operation& op : w.ops) operation_table(out, w, op);
    if (w.scenario) scenario_table(out, *w.scenario);
    return out.str();
}

}  // namespace gpuwcrt
