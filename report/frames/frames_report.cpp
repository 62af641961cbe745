#include "report/frames/frames_report.hpp"

#include "report/context/output_context.hpp"
#include "report/schedule_table.hpp"
#include "report/text_table.hpp"
#include "sim/frames/frame_summary.hpp"

namespace gpuwcrt {
namespace {

const char* arrival_name(Arrival::Kind k) {
    switch (k) {
        case Arrival::Kind::periodic:
            return "periodic";
        case Arrival::Kind::sporadic:
            return "sporadic";
        case Arrival::Kind::none:
            break;
    }
    return "once";
}

std::string met_text(const FrameWorst& f, const Operation& op) {
    if (!op.deadline) return "-";
    if (f.missed == 0) return "yes";
    return "MISSED " + std::to_string(f.missed) + "/" + std::to_string(f.frames);
}

Json horizon_json(const Workload& original, const Horizon& h) {
    switch (h.kind) {
        case Horizon::Kind::frames:
            return {{"kind", "frames"}, {"frames", h.frames}};
        case Horizon::Kind::until:
            return {{"kind", "until"}, {"until", exact_string(h.until)}};
        case Horizon::Kind::hyperperiods:
            return {{"kind", "hyperperiods"},
                    {"hyperperiods", h.frames},
                    {"hyperperiod", exact_string(hyperperiod(original))}};
        case Horizon::Kind::hyperperiod:
            break;
    }
    return {{"kind", "hyperperiod"}, {"hyperperiod", exact_string(hyperperiod(original))}};
}

}  // namespace

std::string horizon_text(const Workload& original, const Horizon& h) {
    switch (h.kind) {
        case Horizon::Kind::frames:
            return std::to_string(h.frames) + (h.frames == 1 ? " frame" : " frames") +
                   " of each periodic or sporadic stream";
        case Horizon::Kind::until:
            return "every frame released by " + human_string(h.until);
        case Horizon::Kind::hyperperiods:
            return std::to_string(h.frames) + " hyperperiods (" + human_string(hyperperiod(original)) +
                   " each) of frames";
        case Horizon::Kind::hyperperiod:
            break;
    }
    return "one hyperperiod (" + human_string(hyperperiod(original)) +
           ") of frames; --frames N or --until T for another horizon";
}

void print_frames_table(std::ostream& out, const Workload& original, const Horizon& h, const Unrolled& u,
                        const Schedule& s, bool with_blocks) {
    const Workload& w = u.workload;
    if (const auto unit = time_unit_name(w.time_unit)) out << "times in " << *unit << "\n";
    out << "simulated: " << horizon_text(original, h) << "\n\n";
    TextTable ops(
        {"operation", "frame", "kind", "stream", "release", "issue", "start", "finish", "response", "deadline", "met"});
    for (int i : s.launch_order) {
        const Operation& o = w.ops[i];
        const OpTiming& t = s.ops[i];
        const Time response = s.response(i);
        const std::string met = !o.deadline ? "-" : !time_less(*o.deadline, response) ? "yes" : "MISSED";
        ops.add({o.name, std::to_string(u.origin[i].frame), o.is_kernel() ? "kernel" : "copy", w.streams[o.stream].name,
                 u.origin[i].release.lo, t.issue, t.start, t.finish, response, o.deadline, met});
    }
    ops.print(out);
    out << "\nworst response of each operation over its frames:\n";
    TextTable worst({"operation", "frames", "worst response", "in frame", "deadline", "met"});
    for (const FrameWorst& f : worst_per_operation(original, u, s)) {
        const Operation& op = original.ops[f.op];
        worst.add({op.name, std::to_string(f.frames), f.response, std::to_string(u.origin[f.worst].frame), op.deadline,
                   met_text(f, op)});
    }
    worst.print(out);
    if (with_blocks) print_block_table(out, w, s);
}

void add_frames_json(Json& out, const Workload& original, const Horizon& h, const Unrolled& u, const Schedule& s) {
    Json& ops = out["operations"];
    for (std::size_t n = 0; n < s.launch_order.size(); ++n) {
        const FrameOrigin& f = u.origin[s.launch_order[n]];
        ops[n]["origin"] = original.ops[f.op].name;
        ops[n]["frame"] = f.frame;
        ops[n]["release"] = exact_string(f.release.lo);
    }
    out["horizon"] = horizon_json(original, h);
    Json streams = Json::array();
    for (std::size_t i = 0; i < original.streams.size(); ++i) {
        const Arrival& a = original.streams[i].arrival;
        Json st = {{"name", original.streams[i].name}, {"arrival", arrival_name(a.kind)}};
        st["period"] = a.repeats() ? Json(exact_string(a.period)) : Json(nullptr);
        st["offset"] = exact_string(a.offset);
        st["jitter"] = exact_string(a.jitter);
        st["frames"] = u.frames[i];
        streams.push_back(std::move(st));
    }
    out["streams"] = std::move(streams);
    Json summary = Json::array();
    for (const FrameWorst& f : worst_per_operation(original, u, s)) {
        const Operation& op = original.ops[f.op];
        Json j = {{"name", op.name},
                  {"frames", f.frames},
                  {"worst_response", exact_string(f.response)},
                  {"worst_frame", u.origin[f.worst].frame}};
        add_deadline(j, op.deadline, op.deadline ? std::optional(f.missed == 0) : std::nullopt);
        j["missed"] = f.missed;
        summary.push_back(std::move(j));
    }
    out["summary"] = std::move(summary);
}

}  // namespace gpuwcrt
