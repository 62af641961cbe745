#include "model/io/cpu/write_cpu.hpp"

#include "model/cpu/requirement_target.hpp"
#include "model/io/write_toml.hpp"

namespace gpuwcrt {
namespace {

std::string cpu_range(const Interval<Time>& x) {
    if (x.lo == x.hi) return toml_time(x.lo);
    return "[" + toml_time(x.lo) + ", " + toml_time(x.hi) + "]";
}

void write_task(std::ostream& out, const Workload& w, const CpuTask& t) {
    out << "[[cpu_task]]\nname = " << toml_quoted(t.name) << "\ncpu = ";
    if (t.cpus.size() == 1) out << toml_quoted(w.cpu.cpus.at(t.cpus[0]).name);
    else {
        out << '[';
        for (std::size_t k = 0; k < t.cpus.size(); ++k)
            out << (k ? ", " : "") << toml_quoted(w.cpu.cpus.at(t.cpus[k]).name);
        out << ']';
    }
    out << "\npriority = " << t.priority << '\n';
    out << (t.arrival.kind == Arrival::Kind::periodic ? "period = " : "min_interarrival = ")
        << toml_time(t.arrival.period) << '\n';
    if (t.arrival.offset != 0) out << "offset = " << toml_time(t.arrival.offset) << '\n';
    out << "execution = " << cpu_range(t.execution) << '\n';
    if (t.gpu) {
        out << "gpu = " << toml_quoted(w.streams.at(*t.gpu).name) << '\n';
        if (t.after_gpu.hi != 0) out << "after_gpu = " << cpu_range(t.after_gpu) << '\n';
    }
    out << '\n';
}

}  // namespace

void write_cpu_side(std::ostream& out, const Workload& w) {
    for (const CpuCore& c : w.cpu.cpus)
        out << "[[cpu]]\nname = " << toml_quoted(c.name) << "\nscheduler = \"fixed_priority_preemptive\"\n\n";
    for (const CpuTask& t : w.cpu.tasks) write_task(out, w, t);
    for (const Requirement& q : w.cpu.requirements) {
        out << "[[requirement]]\nname = " << toml_quoted(q.name) << "\ntask = " << toml_quoted(requirement_target(w, q))
            << "\nresponse_time = " << toml_time(q.response_time) << '\n';
        if (q.target == Requirement::Target::not_analysed) out << "analysed = false\n";
        out << '\n';
    }
}

}  // namespace gpuwcrt
