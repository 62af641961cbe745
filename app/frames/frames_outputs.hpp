#pragma once
// The files written over frames: the chart of `simulate` and, for wcrt and certify on periodic
// streams, the chart and the replayable TOML of a lower bound's witness (a frame of the
// unrolled workload).
#include <string>

#include "report/frames/frames_chart.hpp"
#include "solver/engine.hpp"

namespace gpuwcrt::app {

void write_frames_svg(const std::string& path, const FramesChart& f, const ChartContext& ctx);

struct AllTimeFiles {
    std::string command;  // "wcrt" or "certify", for the header and the messages
    std::string source;   // the workload file, named in the header
    std::string svg;      // --svg; empty: none
    std::string toml;     // wcrt --witness, certify --counterexample; empty: none
    // wcrt: the operation whose witness is written; certify: the refuted operation (the first in
    // file order), its bound in `bound`.
    std::optional<int> op;
    std::optional<Time> bound;
    // The operation --svg charts (app/chart_choice.hpp), its bound (certify's, else its
    // deadline) and the window (--svg-window; none: around its witnessed frame).
    std::optional<int> chart_op = {};
    std::optional<Time> chart_bound = {};
    std::optional<TimeWindow> window = {};
};

// Whether the all-time answer of `op` in `run` (the all-time engine's) has a witnessed frame to
// chart or write.
bool has_witnessed_frame(const EngineRun& run, int op);

// Writes what `f` asks for about `f.op`'s lower bound in `run`; the line to print after the
// table ("wrote F (gpuwcrt simulate F reproduces …)"), or "" when no TOML was written. Says on
// stderr when there is no witness to write (no scenario found, nothing refuted).
std::string write_all_time_files(const AllTimeFiles& f, const Workload& w, const EngineRun& run);

}  // namespace gpuwcrt::app
