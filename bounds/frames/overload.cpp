#include "bounds/frames/overload.hpp"

#include <array>

namespace gpuwcrt {
namespace {

// A kernel's blocks run at most `at_once` at a time (what fits on the empty SMs), so it takes at
// least ceil(blocks / at_once) block times from its join to its completion.
Time least_duration(const Operation& op, const Platform& p) {
    if (!op.is_kernel()) return op.time.lo;
    const std::int64_t at_once = std::max<std::int64_t>(1, SmUsage{}.room_for(op.demand(), p)) * p.sms;
    return op.time.lo * ((op.blocks + at_once - 1) / at_once);
}

// Whether the host of stream `s` waits for the stream to be idle in every frame: then the work
// it has issued and not completed is at most what it issued since its last such wait, whatever
// the releases, and it issues the next frame's operations only as the GPU serves it. Its
// releases may outrun the GPU for ever while every response, counted from the operation's own
// issue, stays bounded: such a stream's frames prove no overload.
bool overload_host_paced(const Workload& w, int s) {
    for (const int op : w.stream_ops(s))
        if (w.ops[op].issue.kind == IssueSpec::Kind::after_stream_idle) return true;
    return false;
}

// Time-sliced contexts share the compute engine one at a time, and a context holds it whenever
// one of its kernels runs: per unit of time at least the slowest of its streams' kernels one
// after another (least durations per period). Switches are left out: one needs two contexts
// with work, which least durations do not show.
std::optional<Overload> find_context_overload(const Workload& w) {
    Time held = 0;
    for (std::size_t c = 0; c < w.contexts.size(); ++c) {
        Time most = 0;
        for (std::size_t s = 0; s < w.streams.size(); ++s) {
            const Arrival& a = w.streams[s].arrival;
            if (!a.repeats() || w.streams[s].context != static_cast<int>(c) ||
                overload_host_paced(w, static_cast<int>(s)))
                continue;
            Time kernels = 0;
            for (const int op : w.stream_ops(static_cast<int>(s)))
                if (w.ops[op].is_kernel()) kernels += least_duration(w.ops[op], w.platform);
            most = std::max<Time>(most, kernels / a.period);
        }
        held += most;
    }
    if (held <= 1) return std::nullopt;
    return Overload{-1, "the time-sliced contexts need the GPU " + human_string(held) +
                            " of the time on average (per context, its slowest stream's kernels one after another at "
                            "their least durations, per period), and it runs one context at a time"};
}

}  // namespace

std::optional<Overload> find_overload(const Workload& w) {
    const Platform& p = w.platform;
    // Per stream: its frames run one after another (the stream's FIFO), each at least the sum
    // of its operations' least durations. When that exceeds the period, frame n completes at
    // least n times the excess after its release, in every scenario.
    for (std::size_t s = 0; s < w.streams.size(); ++s) {
        const Arrival& a = w.streams[s].arrival;
        if (!a.repeats() || overload_host_paced(w, static_cast<int>(s))) continue;
        Time frame = 0;
        for (const int op : w.stream_ops(static_cast<int>(s))) frame += least_duration(w.ops[op], p);
        if (frame > a.period)
            return Overload{static_cast<int>(s), "stream '" + w.streams[s].name + "' needs at least " +
                                                     human_string(frame) +
                                                     " per frame (its operations one after another, each at its least "
                                                     "duration), and a frame is released every " +
                                                     human_string(a.period)};
    }
    // The GPU as a whole: per unit of time, each resource of the SMs serves at most its capacity
    // times the SMs (a block holds its threads, shared memory, registers and slot while it runs),
    // and the copy engines serve at most their number. Only the streams whose host never waits
    // count: their operations are issued at their releases whatever the GPU does, so work issued
    // and not served grows without bound; a host-paced stream issues only as it is served.
    const std::array<std::int64_t, 4> cap{p.threads_per_sm, p.shared_mem_per_sm, p.registers_per_sm,
                                          p.blocks_per_sm_max};
    const std::array<const char*, 4> names{"threads", "shared memory", "registers", "resident blocks"};
    std::array<Time, 4> demand{};  // resource-time per unit of time, over the repeating streams
    Time copies = 0;               // copy-engine time per unit of time
    for (const Operation& op : w.ops) {
        const Arrival& a = w.streams[op.stream].arrival;
        if (!a.repeats() || overload_host_paced(w, op.stream)) continue;
        if (!op.is_kernel()) {
            copies += op.time.lo / a.period;
            continue;
        }
        const std::array<std::int64_t, 4> need{op.threads, op.shared_mem, op.registers * op.threads, 1};
        for (std::size_t r = 0; r < need.size(); ++r) demand[r] += Time(need[r]) * op.blocks * op.time.lo / a.period;
    }
    for (std::size_t r = 0; r < cap.size(); ++r)
        if (demand[r] > Time(cap[r]) * p.sms)
            return Overload{
                -1,
                std::string("the GPU is overloaded: its kernels need ") + human_string(demand[r]) + " " + names[r] +
                    " per unit of time on average (blocks x their need x their least block time, per period), and " +
                    std::to_string(p.sms) + " SMs serve " + std::to_string(cap[r] * p.sms)};
    if (copies > Time(p.copy_engines))
        return Overload{-1, "the copy engines are overloaded: the copies need " + human_string(copies) +
                                " engines on average (their least durations per period), and the GPU has " +
                                std::to_string(p.copy_engines)};
    if (w.sliced()) return find_context_overload(w);
    return std::nullopt;
}

}  // namespace gpuwcrt
