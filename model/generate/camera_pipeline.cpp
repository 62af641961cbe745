#include "model/generate/camera_pipeline.hpp"

#include <algorithm>
#include <random>
#include <stdexcept>
#include <string>

#include "model/generate/seeded_pick.hpp"
#include "model/validate.hpp"

namespace gpuwcrt {
namespace {

Time centi(std::int64_t hundredths) { return Time(hundredths, 100); }

// A CNN layer: the grid is drawn as 2^e blocks roughly (e uniform in 0..8), so small and large
// layers are equally common, as in a network whose feature maps shrink layer by layer.
void draw_kernel(std::mt19937_64& rng, Operation& op) {
    const int e = static_cast<int>(seeded_pick(rng, 0, 8));
    op.blocks = e == 0 ? 1 : seeded_pick(rng, (std::int64_t{1} << (e - 1)) + 1, std::int64_t{1} << e);
    op.threads = std::int64_t{64} << seeded_pick(rng, 0, 4);  // 64..1024
    // Registers in steps of 8 up to what one block may hold (TX2: 32 Ki per block).
    const std::int64_t max_regs = std::min<std::int64_t>(64, Platform{}.registers_per_block_max / op.threads);
    op.registers = 8 * seeded_pick(rng, 2, max_regs / 8);
    // A third of the layers use no shared memory; the others 4..48 KiB in 4 KiB steps.
    op.shared_mem = seeded_pick(rng, 0, 2) == 0 ? 0 : 4096 * seeded_pick(rng, 1, 12);
    const Time c = centi(seeded_pick(rng, 2, 60));
    op.time = {c, c};
}

}  // namespace

Workload camera_pipeline(const CameraSpec& spec, std::uint64_t seed) {
    if (spec.streams < 1 || spec.streams > camera_max_streams)
        throw std::invalid_argument("camera pipeline: streams must be in 1.." + std::to_string(camera_max_streams));
    if (spec.kernels < 1 || spec.kernels > camera_max_kernels)
        throw std::invalid_argument("camera pipeline: kernels must be in 1.." + std::to_string(camera_max_kernels));
    if (spec.jitter < 0) throw std::invalid_argument("camera pipeline: jitter must not be negative");
    std::mt19937_64 rng(seed);
    Workload w;
    w.source = "camera-" + std::to_string(seed);
    w.time_unit = "ms";
    for (int s = 0; s < spec.streams; ++s) {
        Stream st;
        st.name = "s" + std::to_string(s);
        if (s == 0) st.priority = Priority::high;
        w.streams.push_back(st);
    }
    for (int s = 0; s < spec.streams; ++s) {
        const std::string prefix = "s" + std::to_string(s) + "_";
        int position = 0;
        auto add = [&](const std::string& name, OpKind kind) -> Operation& {
            Operation op;
            op.kind = kind;
            op.name = prefix + name;
            op.stream = s;
            op.position = position++;
            // The host issues a frame's calls back to back: the first at the frame's arrival,
            // the others with it.
            if (op.position == 0) op.issue.at = {0, spec.jitter};
            else op.issue.kind = IssueSpec::Kind::with_previous;
            w.ops.push_back(op);
            return w.ops.back();
        };
        const Time in = centi(seeded_pick(rng, 10, 100));
        add("in", OpKind::copy).time = {in, in};
        for (int k = 1; k <= spec.kernels; ++k) draw_kernel(rng, add("k" + std::to_string(k), OpKind::kernel));
        const Time out = centi(seeded_pick(rng, 2, 20));
        add("out", OpKind::copy).time = {out, out};
    }
    if (spec.ranges)
        for (Operation& op : w.ops)
            if (op.is_kernel()) op.time.lo = op.time.hi * Time(4, 5);
    validate_workload(w);
    return w;
}

}  // namespace gpuwcrt
