#include "app/frames/frames_outputs.hpp"

#include <iostream>

#include "app/cli_options.hpp"
#include "app/output_file.hpp"
#include "model/io/write_toml.hpp"
#include "sim/frames/frames_witness.hpp"
#include "sim/simulate.hpp"

namespace gpuwcrt::app {
namespace {

// The unrolled operation whose replayed response is `op`'s lower bound, in its witnessed frame.
std::optional<int> witnessed(const EngineRun& run, int op) {
    const WcrtAnswer& a = run.answers[op];
    if (!run.frames || !a.witness || !a.lower) return std::nullopt;
    return witnessed_operation(*run.frames, op, a.frame);
}

// How many hyperperiods `u` unrolled: a periodic stream's frames times its period over H.
Time hyperperiods_unrolled(const Workload& w, const FramesRun& res) {
    for (std::size_t s = 0; s < w.streams.size(); ++s)
        if (w.streams[s].arrival.repeats())
            return Time(res.unrolled->frames[s]) * w.streams[s].arrival.period / res.hyperperiod;
    return 1;
}

std::vector<std::string> witness_comments(const AllTimeFiles& f, const Workload& w, const EngineRun& run, int i) {
    const FramesRun& res = *run.frames;
    const Unrolled& u = *res.unrolled;
    const int op = *f.op;
    const WcrtAnswer& a = run.answers[op];
    const std::string frame = "frame " + std::to_string(u.origin[i].frame) + " of '" + w.ops[op].name + "' (" +
                              u.workload.ops[i].name + " here) responds in " + human_string(*a.lower);
    const std::string claim = f.bound ? "Counterexample: " + frame + " > bound " + human_string(*f.bound)
                                      : "Witness: " + frame + ", " +
                                            (a.status == WcrtStatus::exact ? "the WCRT of every frame"
                                                                           : "a lower bound on every frame's WCRT");
    const Time k = hyperperiods_unrolled(w, res);
    return {claim + " (gpuwcrt " + f.command + " " + f.source + ").",
            "The frames of " + human_string(k) + (k == 1 ? " hyperperiod" : " hyperperiods") + " of " +
                human_string(res.hyperperiod) + ", unrolled into one frame: frame k of operation NAME is NAME#k,",
            "each stream's frames one after another. The [scenario] table fixes the launch order, the SM of every",
            "block, block times and the issue instants, which place each frame's release in its jitter window; an",
            "after_stream_idle of a frame waits from its predecessor's completion for as long as this scenario's",
            "host waited from the release. 'gpuwcrt simulate' on this file reproduces the schedule."};
}

}  // namespace

void write_frames_svg(const std::string& path, const FramesChart& f, const ChartContext& ctx) {
    std::string what = "the frames";
    if (ctx.kind != ChartKind::schedule && ctx.op)
        what = f.u.workload.ops[*ctx.op].name + (ctx.kind == ChartKind::witness ? "'s witness" : "'s counterexample");
    write_output_file(path, frames_svg(f, ctx), "SVG chart of " + what);
}

bool has_witnessed_frame(const EngineRun& run, int op) { return witnessed(run, op).has_value(); }

namespace {

// The chart of f.chart_op's witnessed frame: a counterexample when it exceeds f.chart_bound.
void write_all_time_chart(const AllTimeFiles& f, const Workload& w, const EngineRun& run) {
    const std::optional<int> i = f.chart_op ? witnessed(run, *f.chart_op) : std::nullopt;
    if (!i) {
        std::cerr << "gpuwcrt " << f.command << ": no frame of any operation was replayed in time: no chart written to "
                  << f.svg << "\n";
        return;
    }
    const Unrolled& u = *run.frames->unrolled;
    const WitnessScenario& x = *run.answers[*f.chart_op].witness;
    const Time& response = *run.answers[*f.chart_op].lower;
    const Schedule s = simulate(u.workload, witness_scenario(u.workload, x));
    ChartContext ctx = f.chart_bound && response > *f.chart_bound
                           ? counterexample_chart(u.workload, *i, response, *f.chart_bound)
                           : witness_chart(u.workload, *i, response);
    if (f.chart_bound) ctx.deadline = f.chart_bound;
    ctx.window = f.window;
    write_frames_svg(f.svg, FramesChart{w, u, s, x.issue, u.workload.total_blocks() <= max_svg_blocks}, ctx);
}

}  // namespace

std::string write_all_time_files(const AllTimeFiles& f, const Workload& w, const EngineRun& run) {
    if (!f.svg.empty()) write_all_time_chart(f, w, run);
    if (f.toml.empty()) return "";
    const std::optional<int> i = f.op ? witnessed(run, *f.op) : std::nullopt;
    if (!i) {
        if (f.op)
            std::cerr << "gpuwcrt " << f.command << ": no scenario of '" << w.ops[*f.op].name
                      << "' was found in time: nothing written to " << f.toml << "\n";
        else
            std::cerr << "gpuwcrt " << f.command << ": no deadline refuted: no counterexample, nothing written to "
                      << f.toml << "\n";
        return "";
    }
    const Unrolled& u = *run.frames->unrolled;
    const WitnessScenario& x = *run.answers[*f.op].witness;
    const Time& response = *run.answers[*f.op].lower;
    TomlWriteOptions opts;
    opts.title = w.title;
    opts.comments = witness_comments(f, w, run, *i);
    const std::string what = f.bound ? "'s counterexample" : "'s witness";
    write_output_file(f.toml, workload_to_toml(frames_witness_workload(u, x), opts),
                      "workload TOML of " + u.workload.ops[*i].name + what);
    return "wrote " + f.toml + " (gpuwcrt simulate " + f.toml + " reproduces " + u.workload.ops[*i].name +
           "'s response " + human_string(response) + ")";
}

}  // namespace gpuwcrt::app
