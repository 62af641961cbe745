#include "report/trace/trace_compare.hpp"

#include "report/context/output_context.hpp"

#include <algorithm>
#include <map>
#include <numeric>

#include "model/validate.hpp"
#include "report/text_table.hpp"
#include "sim/simulate.hpp"

namespace gpuwcrt {
namespace {

struct Measured {
    const ExaminerLog* log;
    const ExaminerKernelRecord* record;
};

Time abs_time(const Time& t) { return t < 0 ? Time(-t) : t; }

std::vector<int> stream_kernels(const Workload& w, int stream) {
    std::vector<int> out;
    for (int i : w.stream_ops(stream))
        if (w.ops[i].is_kernel()) out.push_back(i);
    return out;
}

// The workload kernels a log describes, in the log's kernel order.
std::vector<int> align(const Workload& w, const ExaminerLog& log) {
    if (log.kernels.size() == 1)
        if (auto op = w.find_op(log.label); op && w.ops[*op].is_kernel()) return {*op};
    for (std::size_t s = 0; s < w.streams.size(); ++s) {
        if (w.streams[s].name != log.label) continue;
        std::vector<int> ks = stream_kernels(w, static_cast<int>(s));
        if (ks.size() != log.kernels.size())
            throw InputError(log.where, "log '" + log.label + "' records " + std::to_string(log.kernels.size()) +
                                            " kernels but stream '" + log.label + "' of the workload has " +
                                            std::to_string(ks.size()));
        return ks;
    }
    std::vector<int> out;
    for (const ExaminerKernelRecord& k : log.kernels) {
        auto op = w.find_op(k.kernel_name);
        if (!op || !w.ops[*op].is_kernel())
            throw InputError(log.where, "log label '" + log.label +
                                            "' matches no kernel or stream of the workload (nor does kernel_name '" +
                                            k.kernel_name + "')");
        out.push_back(*op);
    }
    return out;
}

std::map<int, Measured> measurements(const Workload& w, const std::vector<ExaminerLog>& logs) {
    std::map<int, Measured> m;
    for (const ExaminerLog& log : logs) {
        const std::vector<int> ops = align(w, log);
        for (std::size_t i = 0; i < ops.size(); ++i) {
            const Operation& op = w.ops[ops[i]];
            const ExaminerKernelRecord& r = log.kernels[i];
            if (m.count(ops[i]))
                throw InputError(log.where,
                                 "kernel '" + op.name + "' is measured twice (also in " + m.at(ops[i]).log->file + ")");
            if (r.block_count != op.blocks || r.thread_count != op.threads)
                throw InputError(r.where, "the log's kernel has " + std::to_string(r.block_count) + " blocks of " +
                                              std::to_string(r.thread_count) + " threads but '" + op.name +
                                              "' in the workload has " + std::to_string(op.blocks) + " of " +
                                              std::to_string(op.threads));
            check_block_sms(r, w.platform.sms);
            m[ops[i]] = {&log, &r};
        }
    }
    for (std::size_t i = 0; i < w.ops.size(); ++i)
        if (w.ops[i].is_kernel() && !m.count(static_cast<int>(i)))
            throw InputError(w.ops[i].where, "kernel '" + w.ops[i].name + "' has no log among the given ones");
    return m;
}

// Copies are not in the logs: a copy with an absolute issue time takes the issue time of the
// nearest measured kernel of its stream (the examiner issues a kernel's copies around its launch).
void place_static_copies(Workload& cw) {
    for (std::size_t s = 0; s < cw.streams.size(); ++s) {
        const std::vector<int> ops = cw.stream_ops(static_cast<int>(s));
        for (std::size_t j = 0; j < ops.size(); ++j) {
            Operation& op = cw.ops[ops[j]];
            if (op.is_kernel() || !op.issue.is_static()) continue;
            for (std::size_t k = 0; k < ops.size(); ++k)
                if (cw.ops[ops[k]].is_kernel()) {
                    op.issue.at = cw.ops[ops[k]].issue.at;
                    if (k > j) break;
                }
        }
    }
}

Schedule measured_schedule(const Workload& mw, const std::vector<Measured>& rec, const Time& origin) {
    Schedule s;
    s.ops.resize(mw.ops.size());
    for (std::size_t i = 0; i < mw.ops.size(); ++i) {
        const ExaminerKernelRecord& r = *rec[i].record;
        OpTiming& t = s.ops[i];
        t.issue = mw.ops[i].issue.at.lo;
        t.start = *std::min_element(r.block_start.begin(), r.block_start.end()) - origin;
        t.finish = *std::max_element(r.block_end.begin(), r.block_end.end()) - origin;
        for (std::size_t b = 0; b < r.block_start.size(); ++b)
            s.blocks.push_back({static_cast<int>(i), static_cast<std::int64_t>(b), r.block_sm[b],
                                r.block_start[b] - origin, r.block_end[b] - origin});
    }
    std::stable_sort(s.blocks.begin(), s.blocks.end(),
                     [](const BlockTiming& a, const BlockTiming& b) { return a.start < b.start; });
    s.launch_order.resize(mw.ops.size());
    std::iota(s.launch_order.begin(), s.launch_order.end(), 0);
    std::stable_sort(s.launch_order.begin(), s.launch_order.end(),
                     [&](int a, int b) { return s.ops[a].issue < s.ops[b].issue; });
    for (std::size_t k = 0; k < s.launch_order.size(); ++k) s.ops[s.launch_order[k]].launch_seq = static_cast<long>(k);
    return s;
}

// SM ids are names: the simulator's SM i may be the hardware's SM p[i]. The renaming that
// matches the most blocks is chosen, the identity on ties.
std::vector<int> best_renaming(int sms, const std::vector<std::pair<int, int>>& predicted_measured) {
    std::vector<int> p(sms), best;
    std::iota(p.begin(), p.end(), 0);
    long best_count = -1;
    if (sms > 7) return p;  // too many permutations; the identity is the only candidate
    do {
        long count = 0;
        for (auto [pred, meas] : predicted_measured) count += p[pred] == meas;
        if (count > best_count) {
            best_count = count;
            best = p;
        }
    } while (std::next_permutation(p.begin(), p.end()));
    return best;
}

const char* instant_name(LaunchInstant i) { return i == LaunchInstant::after ? "after" : "before"; }

}  // namespace

TraceComparison compare_trace(const Workload& w, const std::vector<ExaminerLog>& logs,
                              const TraceCompareOptions& options) {
    if (logs.empty()) throw option_error("compare-trace", "give at least one examiner log");
    const std::map<int, Measured> m = measurements(w, logs);
    TraceComparison c;
    c.instant = options.instant;
    c.origin = m.begin()->second.record->launch_before;
    for (const auto& [op, x] : m) c.origin = std::min(c.origin, x.record->launch_before);

    c.workload = w;
    c.workload.expectations.clear();
    std::optional<std::string> policy = options.policy;
    if (!policy && w.scenario) policy = w.scenario->policy;
    c.workload.scenario.reset();  // the measured launch instants decide the order
    for (const auto& [op, x] : m) {
        const Time t =
            (options.instant == LaunchInstant::after ? x.record->launch_after : x.record->launch_before) - c.origin;
        c.workload.ops[op].issue = IssueSpec{};
        c.workload.ops[op].issue.at = {t, t};
    }
    place_static_copies(c.workload);
    validate_workload(c.workload);
    const Scenario sc = scenario_for(c.workload, {}, policy);
    c.policy = policy_name(sc.policy);
    c.predicted = simulate(c.workload, sc);

    // The measured schedule, over the measured kernels only.
    c.measured_workload.source = w.source;
    c.measured_workload.platform = w.platform;
    c.measured_workload.streams = w.streams;
    std::vector<Measured> rec;
    std::vector<int> to_measured(w.ops.size(), -1);
    for (std::size_t i = 0; i < c.workload.ops.size(); ++i) {
        if (!m.count(static_cast<int>(i))) continue;
        Operation op = c.workload.ops[i];
        op.position = static_cast<int>(c.measured_workload.stream_ops(op.stream).size());
        to_measured[i] = static_cast<int>(c.measured_workload.ops.size());
        c.measured_workload.ops.push_back(op);
        rec.push_back(m.at(static_cast<int>(i)));
    }
    c.measured = measured_schedule(c.measured_workload, rec, c.origin);

    std::map<std::pair<int, std::int64_t>, const BlockTiming*> predicted_block;
    for (const BlockTiming& b : c.predicted.blocks) predicted_block[{b.kernel, b.index}] = &b;
    std::vector<std::pair<int, int>> sm_pairs;
    for (const auto& [op, x] : m)
        for (std::size_t b = 0; b < x.record->block_sm.size(); ++b)
            sm_pairs.push_back({predicted_block.at({op, static_cast<std::int64_t>(b)})->sm, x.record->block_sm[b]});
    c.sm_renaming = best_renaming(w.platform.sms, sm_pairs);

    for (int mi : c.measured.launch_order) {
        const int op = static_cast<int>(std::find(to_measured.begin(), to_measured.end(), mi) - to_measured.begin());
        const ExaminerKernelRecord& r = *m.at(op).record;
        KernelComparison k;
        k.op = op;
        k.log_file = m.at(op).log->file;
        k.launch_before = r.launch_before - c.origin;
        k.launch_after = r.launch_after - c.origin;
        k.issue = c.workload.ops[op].issue.at.lo;
        k.measured_start = c.measured.ops[mi].start;
        k.measured_finish = c.measured.ops[mi].finish;
        k.predicted_start = c.predicted.ops[op].start;
        k.predicted_finish = c.predicted.ops[op].finish;
        k.blocks = r.block_count;
        for (std::int64_t b = 0; b < r.block_count; ++b) {
            const BlockTiming& p = *predicted_block.at({op, b});
            k.max_start_deviation = std::max(k.max_start_deviation, abs_time(r.block_start[b] - c.origin - p.start));
            k.max_end_deviation = std::max(k.max_end_deviation, abs_time(r.block_end[b] - c.origin - p.end));
            k.sm_matches += c.sm_renaming[p.sm] == r.block_sm[b];
        }
        c.kernels.push_back(k);
    }
    return c;
}

Json trace_comparison_json(const TraceComparison& c) {
    Json j;
    j["origin"] = exact_string(c.origin);
    j["origin_note"] = "time 0 = the earliest 'before launch' time (cuda_launch_times[0]) over all logs";
    j["issue_instant"] = instant_name(c.instant);
    j["policy"] = c.policy;
    j["sm_renaming"] = c.sm_renaming;
    Json ks = Json::array();
    for (const KernelComparison& k : c.kernels) {
        auto timing = [&](const Time& start, const Time& finish) {
            return Json{{"start", exact_string(start)},
                        {"finish", exact_string(finish)},
                        {"response", exact_string(finish - k.issue)}};
        };
        ks.push_back({{"name", c.workload.ops[k.op].name},
                      {"log", k.log_file},
                      {"launch_before", exact_string(k.launch_before)},
                      {"launch_after", exact_string(k.launch_after)},
                      {"issue", exact_string(k.issue)},
                      {"measured", timing(k.measured_start, k.measured_finish)},
                      {"predicted", timing(k.predicted_start, k.predicted_finish)},
                      {"finish_difference", exact_string(k.predicted_finish - k.measured_finish)},
                      {"max_block_start_deviation", exact_string(k.max_start_deviation)},
                      {"max_block_end_deviation", exact_string(k.max_end_deviation)},
                      {"blocks", k.blocks},
                      {"sm_matches", k.sm_matches}});
        // The deadline against what was measured: the log is the fact here.
        const std::optional<Time>& deadline = c.workload.ops[k.op].deadline;
        const Time measured = k.measured_finish - k.issue;
        add_deadline(ks.back(), deadline, deadline ? std::optional(measured <= *deadline) : std::nullopt);
    }
    j["kernels"] = ks;
    return j;
}

void print_trace_comparison(std::ostream& out, const TraceComparison& c) {
    const bool after = c.instant == LaunchInstant::after;
    out << "times in seconds; time 0 = the earliest 'before launch' time over all logs (" << human_string(c.origin)
        << " on the logs' clock)\n"
        << "issue = each kernel's '" << (after ? "after" : "before") << " launch' time (cuda_launch_times["
        << (after ? 1 : 0) << "]); response = finish - issue\n"
        << "SM placement: " << c.policy << "; simulator SM -> hardware SM:";
    for (std::size_t i = 0; i < c.sm_renaming.size(); ++i) out << ' ' << i << "->" << c.sm_renaming[i];
    out << "\n\n";
    TextTable t({"kernel", "issue", "measured finish", "predicted finish", "difference", "measured response",
                 "predicted response", "max |d start|", "max |d end|", "SM match"});
    for (const KernelComparison& k : c.kernels)
        t.add({c.workload.ops[k.op].name, k.issue, k.measured_finish, k.predicted_finish,
               Time(k.predicted_finish - k.measured_finish), Time(k.measured_finish - k.issue),
               Time(k.predicted_finish - k.issue), k.max_start_deviation, k.max_end_deviation,
               std::to_string(k.sm_matches) + "/" + std::to_string(k.blocks)});
    t.print(out);
}

}  // namespace gpuwcrt
