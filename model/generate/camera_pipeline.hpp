#pragma once
// Seeded camera-perception pipelines on the Jetson TX2 (the realistic benchmark
// family of bench/camera/): S streams, stream 0 at high priority, each "copy in, K CNN-layer-like
// kernels, copy out", times in milliseconds as exact multiples of 1/100 ms. The variants are
// the uncertainty an engineer really has: each kernel's block time as a range [0.8·C, C]
// (measured worst case C, best case 20 % below), and a window [0, J] on each stream's first
// issue (frame arrival jitter). A seed draws the same shapes and worst-case times in every
// variant, so that the variants of one seed differ only in what they claim to vary.
#include <cstdint>

#include "model/workload.hpp"

namespace gpuwcrt {

struct CameraSpec {
    int streams = 3;      // 1..camera_max_streams
    int kernels = 8;      // per stream, 1..camera_max_kernels
    bool ranges = false;  // block_time = [0.8·C, C] on every kernel (copies stay fixed)
    Time jitter = 0;      // > 0: each stream's first operation is issued in [0, jitter]
};

inline constexpr int camera_max_streams = 64;
inline constexpr int camera_max_kernels = 64;

// Throws std::invalid_argument for a spec outside the limits above or a negative jitter.
// Shapes: grid 1..256 blocks (about log-uniform, as CNN layers shrink and grow), 64..1024
// threads (powers of two), 16..64 registers per thread within the TX2's 32 Ki registers per
// block, shared memory 0 or 4..48 KiB, block time 0.02..0.6 ms; copy in 0.1..1 ms, copy out
// 0.02..0.2 ms. Every block fits an SM of the TX2 on its own.
Workload camera_pipeline(const CameraSpec& spec, std::uint64_t seed);

}  // namespace gpuwcrt
