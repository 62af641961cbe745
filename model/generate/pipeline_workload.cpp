#include "model/generate/pipeline_workload.hpp"

#include <random>
#include <string>

#include "model/generate/seeded_pick.hpp"
#include "model/validate.hpp"

namespace gpuwcrt {
namespace {

struct KernelType {
    std::int64_t blocks, threads;
    Time c;
};

}  // namespace

Workload pipeline_workload(const PipelineSpec& spec, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    Workload w;
    w.source = "pipeline-" + std::to_string(seed);
    std::vector<KernelType> types;
    const std::int64_t sizes[] = {256, 512, 1024};
    for (int t = 0; t < spec.kernel_types; ++t)
        types.push_back(
            {seeded_pick(rng, 1, spec.max_blocks), sizes[seeded_pick(rng, 0, 2)], Time(seeded_pick(rng, 2, 8), 2)});
    for (int s = 0; s < spec.streams; ++s) {
        Stream st;
        st.name = "s" + std::to_string(s + 1);
        if (s == 0 && spec.high_priority) st.priority = Priority::high;
        w.streams.push_back(st);
    }
    for (int s = 0; s < spec.streams; ++s) {
        for (int i = 0; i < spec.iterations; ++i) {
            const Time release(static_cast<std::int64_t>(i) * spec.period);
            auto add = [&](const std::string& what, OpKind kind) -> Operation& {
                Operation op;
                op.kind = kind;
                op.name = what + std::to_string(s + 1) + "_" + std::to_string(i + 1);
                op.stream = s;
                op.issue.at = {release, release};  // the host issues an iteration's calls back to back
                w.ops.push_back(op);
                return w.ops.back();
            };
            auto copy = [&](const std::string& what) {
                const Time d(seeded_pick(rng, 1, 2), 2);  // 0.5 or 1
                add(what, OpKind::copy).time = {d, d};
            };
            if (spec.copies) copy("in");
            for (int k = 0; k < 2; ++k) {
                const KernelType& t = types[static_cast<std::size_t>((s + i + k) % spec.kernel_types)];
                Operation& op = add(k == 0 ? "ka" : "kb", OpKind::kernel);
                op.blocks = t.blocks;
                op.threads = t.threads;
                op.time = {t.c, t.c};
            }
            if (spec.copies) copy("out");
        }
    }
    // Streams in file order, operations of a stream in list order (Workload::ops is file order
    // and the loader numbers positions the same way).
    std::vector<int> count(w.streams.size(), 0);
    for (Operation& op : w.ops) op.position = count[op.stream]++;
    validate_workload(w);
    return w;
}

}  // namespace gpuwcrt
