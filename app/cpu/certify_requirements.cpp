#include "app/cpu/certify_requirements.hpp"

#include <iostream>

#include "app/assumptions/answer_assumptions.hpp"
#include "app/cli_options.hpp"
#include "app/engine_run.hpp"
#include "app/exit_codes.hpp"
#include "report/context/output_context.hpp"
#include "report/cpu/cpu_side_report.hpp"
#include "solver/cpu/cpu_side.hpp"
#include "solver/cpu/joint_refutation.hpp"
#include "solver/registry.hpp"

namespace gpuwcrt::app {
namespace {

const std::string cpu_side_argument =
    "CPU bounds by fixed-priority response-time analysis with self-suspension (suspension-oblivious and "
    "jitter-based, the smaller; an interferer waiting for the GPU counted at most by its bursts between waits of "
    "at least its frame's shortest time; a job past its period over the busy period), each task of equal priority "
    "counted as higher; GPU frame bounds by the all-time "
    "engine on the release windows those bounds prove, iterated to a fixed point (docs/theory/semantics.md §11); "
    "refutations by replayed runs of the CPU tasks and GPU frames together";

}  // namespace

int certify_requirements(const VerifyOptions& o, const Workload& w, bool bounds_given) {
    if (o.engine != default_engine)
        throw option_error("--engine", "a workload with [[cpu_task]]s is analysed by the default engine, " +
                                           std::string(default_engine) + ", alone");
    if (bounds_given)
        throw option_error("--bound",
                           "a workload with [[cpu_task]]s certifies its [[requirement]]s; state a limit "
                           "as a [[requirement]]");
    if (o.csv || !o.svg.empty())
        throw option_error(o.csv ? "--csv" : "--svg", "not available for a workload with [[cpu_task]]s");
    if (w.cpu.requirements.empty())
        throw InputError({w.source, 1, 1}, "nothing to certify: the workload has [[cpu_task]]s but no [[requirement]]");
    for (const std::string& warning : requirement_warnings(w)) std::cerr << "warning: " << warning << "\n";
    const Budget budget = run_budget(o);
    std::vector<std::string> gpu_why;
    const GpuFrameBounds gpu = [&gpu_why](const Workload& x, const Budget& b) {
        return all_time_frame_bounds_saying_why(x, b, gpu_why);
    };
    CpuSideResult r = cpu_side_fixed_point(w, gpu, budget);
    // The fixed point names the stream without a bound; the GPU analysis says why (an overload
    // with its figures, a timeout): the reader needs both.
    if (const auto s = r.unbounded_stream; s && static_cast<std::size_t>(*s) < gpu_why.size() && !gpu_why[*s].empty())
        r.reason += "; stream '" + w.streams[*s].name + "': " + gpu_why[*s];
    std::vector<RequirementAnswer> answers = requirement_answers(w, r);
    absorb_joint_runs(w, joint_run_witnesses(w, budget, open_requirements(answers)), answers);
    const CpuSideReport report{r.analysed, r.tasks, r.gpu, r.proven, r.rounds, r.reason, answers};
    std::vector<std::string> arguments{cpu_side_argument};
    for (const std::string& a : cpu_side_assumptions(w)) arguments.push_back(a);
    const std::vector<Assumption> assumptions = answer_assumptions(w, o, arguments);
    if (o.json) {
        Json body = cpu_side_json(report);
        body["assumptions"] = assumptions_json(assumptions);
        std::cout << with_context(verify_context("certify", o, w), body).dump(2) << '\n';
    } else {
        print_cpu_side(std::cout, report);
        print_assumptions(std::cout, assumptions);
    }
    bool unknown = false;
    for (const RequirementAnswer& a : answers) {
        if (a.verdict == Verdict::refuted) return exit_refuted;
        unknown = unknown || a.verdict == Verdict::unknown;
    }
    return unknown ? exit_unknown : exit_ok;
}

}  // namespace gpuwcrt::app
