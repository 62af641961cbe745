#include "report/cpu/cpu_side_report.hpp"

#include "model/cpu/requirement_target.hpp"
#include "report/provenance.hpp"
#include "report/text_table.hpp"

namespace gpuwcrt {
namespace {

Json cpu_time_json(const std::optional<Time>& t) { return t ? Json(exact_string(*t)) : Json(nullptr); }

std::string cpu_affinity_text(const Workload& w, const CpuTask& t) {
    std::string out;
    for (const int c : t.cpus) out += (out.empty() ? "" : ",") + w.cpu.cpus[c].name;
    return out;
}

std::string cpu_argument_text(CpuArgument a) {
    switch (a) {
        case CpuArgument::oblivious:
            return provenance_text(Provenance::cpu_oblivious);
        case CpuArgument::jitter:
            return provenance_text(Provenance::cpu_jitter);
        case CpuArgument::none:
            break;
    }
    return "no bound";
}

std::string cpu_upper_by(const RequirementAnswer& a) {
    return a.upper_by == Provenance::none ? "all-time GPU analysis" : provenance_text(a.upper_by);
}

// The replayed run of a refutation, appended to `t`: which job, when, its response (a lower
// bound: rounded down) and its parts, the run's choices.
void add_joint_run_text(TextWithTimes& t, const Workload& w, const Requirement& q, const JointRunWitness& x) {
    t += (q.target == Requirement::Target::stream ? "frame " : "job ") + std::to_string(x.job) + " released at ";
    t.add(x.release, Rounding::nearest) += " responds in ";
    t.add(x.response, Rounding::down) += " = CPU ";
    t.add(x.cpu_part, Rounding::nearest) += " + GPU ";
    t.add(x.gpu_part, Rounding::nearest) +=
        " in a run of the CPU tasks and GPU frames together (" + x.scenario.describe(w) + "; releases before ";
    t.add(x.horizon, Rounding::nearest) += ", CPU and GPU agreeing ";
    if (x.valid_until < x.horizon) (t += "up to ").add(x.valid_until, Rounding::nearest) += " ";
    t += "after " + std::to_string(x.rounds) + " rounds)";
}

Json joint_run_json(const Workload& w, const std::optional<CpuJobProof>& p) {
    if (!p || !p->joint) return nullptr;
    const JointRunWitness& x = *p->joint;
    return {{"job", x.job},
            {"release", exact_string(x.release)},
            {"response", exact_string(x.response)},
            {"cpu_part", exact_string(x.cpu_part)},
            {"gpu_part", exact_string(x.gpu_part)},
            {"scenario", x.scenario.describe(w)},
            {"horizon", exact_string(x.horizon)},
            {"valid_until", exact_string(x.valid_until)},
            {"rounds", x.rounds}};
}

}  // namespace

void print_cpu_side(std::ostream& out, const CpuSideReport& r) {
    const Workload& w = r.analysed;
    if (r.proven)
        out << "CPU side: fixed point of the CPU and GPU bounds after " << r.rounds << " round"
            << (r.rounds == 1 ? "" : "s") << "\n";
    else out << "CPU side: no bound (" << r.reason << ")\n";
    TextTable req({"requirement", "of", "limit", "verdict", "bound", "CPU part", "GPU part", "by"});
    for (const RequirementAnswer& a : r.answers) {
        const Requirement& q = w.cpu.requirements[a.requirement];
        TextWithTimes verdict(to_string(a.verdict));
        if (a.verdict == Verdict::refuted && a.witness && a.witness->joint) {
            verdict += " (";
            add_joint_run_text(verdict, w, q, *a.witness->joint);
            verdict += ")";
        } else if (a.verdict == Verdict::refuted && a.witness)
            verdict += " (a job executing " + human_string(a.witness->own) +
                       (a.witness->ahead == 0 ? "" : " behind " + human_string(a.witness->ahead) + " of others") + ")";
        else if (a.verdict == Verdict::unknown) verdict += " (" + a.unknown_reason + ")";
        req.add({q.name, requirement_target(w, q), q.response_time, verdict, TableCell::upper(a.upper),
                 TableCell::upper(a.cpu_part), TableCell::upper(a.gpu_part), a.upper ? cpu_upper_by(a) : "-"});
    }
    req.print(out);
    TextTable tasks({"task", "cpu", "priority", "period", "to GPU release", "response", "argument"});
    for (std::size_t i = 0; i < w.cpu.tasks.size(); ++i) {
        const CpuTask& t = w.cpu.tasks[i];
        const CpuRtaBound b = i < r.tasks.size() ? r.tasks[i] : CpuRtaBound{};
        tasks.add({t.name, cpu_affinity_text(w, t), std::to_string(t.priority), t.arrival.period,
                   t.gpu ? TableCell::upper(b.pre) : TableCell("-"), TableCell::upper(b.response),
                   cpu_argument_text(b.by)});
    }
    if (!w.cpu.tasks.empty()) tasks.print(out);
    TextTable streams({"stream", "released by", "release offset", "release jitter", "frame bound"});
    for (const CpuTask& t : w.cpu.tasks) {
        if (!t.gpu) continue;
        const Arrival& a = w.streams[*t.gpu].arrival;
        streams.add({w.streams[*t.gpu].name, t.name, a.offset, a.jitter,
                     TableCell::upper(r.proven ? r.gpu[*t.gpu] : std::nullopt)});
    }
    bool driven = false;
    for (const CpuTask& t : w.cpu.tasks) driven = driven || t.gpu.has_value();
    if (driven) streams.print(out);
}

Json cpu_side_json(const CpuSideReport& r) {
    const Workload& w = r.analysed;
    Json reqs = Json::array(), tasks = Json::array(), streams = Json::array();
    for (const RequirementAnswer& a : r.answers) {
        const Requirement& q = w.cpu.requirements[a.requirement];
        reqs.push_back({{"name", q.name},
                        {"of", requirement_target(w, q)},
                        {"limit", exact_string(q.response_time)},
                        {"verdict", to_string(a.verdict)},
                        {"upper", cpu_time_json(a.upper)},
                        {"upper_by", a.upper ? Json(cpu_upper_by(a)) : Json(nullptr)},
                        {"lower", cpu_time_json(a.lower)},
                        {"cpu_part", cpu_time_json(a.cpu_part)},
                        {"gpu_part", cpu_time_json(a.gpu_part)},
                        {"lower_by", a.lower ? Json(provenance_text(a.lower_by)) : Json(nullptr)},
                        {"run", joint_run_json(w, a.witness)},
                        {"unknown_reason", a.verdict == Verdict::unknown ? Json(a.unknown_reason) : Json(nullptr)}});
    }
    for (std::size_t i = 0; i < w.cpu.tasks.size(); ++i) {
        const CpuRtaBound b = i < r.tasks.size() ? r.tasks[i] : CpuRtaBound{};
        tasks.push_back({{"name", w.cpu.tasks[i].name},
                         {"to_gpu_release", cpu_time_json(w.cpu.tasks[i].gpu ? b.pre : std::nullopt)},
                         {"response", cpu_time_json(b.response)},
                         {"argument", b.response ? Json(cpu_argument_text(b.by)) : Json(nullptr)}});
    }
    for (const CpuTask& t : w.cpu.tasks)
        if (t.gpu)
            streams.push_back({{"name", w.streams[*t.gpu].name},
                               {"released_by", t.name},
                               {"release_offset", exact_string(w.streams[*t.gpu].arrival.offset)},
                               {"release_jitter", exact_string(w.streams[*t.gpu].arrival.jitter)},
                               {"frame_bound", cpu_time_json(r.proven ? r.gpu[*t.gpu] : std::nullopt)}});
    return {{"proven", r.proven},   {"rounds", r.rounds}, {"reason", r.proven ? Json(nullptr) : Json(r.reason)},
            {"requirements", reqs}, {"tasks", tasks},     {"streams", streams}};
}

}  // namespace gpuwcrt
