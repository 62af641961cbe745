// The interference bound's cost (bounds/interference/, docs/interference.md) on camera
// pipelines of growing size: S streams × K kernels, ±20 % block times and 2 ms jitter (the
// camera family of bench/README.md), seed 1. Per size: operations, blocks, sweeps, and the
// median over `runs` of the wall time of one interference_bounds call. Its precision is measured
// against replayed lower bounds by bench/camera/run.sh (bench/RESULTS.md, "camera").
//   bench_interference [RUNS] [SxK,SxK,...]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "bounds/interference/interference.hpp"
#include "model/generate/camera_pipeline.hpp"

using namespace gpuwcrt;

namespace {

struct Size {
    int streams = 0, kernels = 0;
};

std::vector<Size> parse_sizes(const std::string& text) {
    std::vector<Size> out;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');) {
        const auto x = item.find('x');
        if (x == std::string::npos) throw std::invalid_argument("a size is SxK, e.g. 8x6: '" + item + "'");
        out.push_back({std::stoi(item.substr(0, x)), std::stoi(item.substr(x + 1))});
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        const int runs = argc > 1 ? std::stoi(argv[1]) : 3;
        const std::vector<Size> sizes = parse_sizes(argc > 2 ? argv[2] : "3x8,4x10,8x6,16x16,32x32");
        if (runs < 1) throw std::invalid_argument("RUNS is at least 1");
        std::cout << "| streams x kernels | operations | blocks | sweeps | stopped | median ms (" << runs
                  << " runs) |\n|---|---:|---:|---:|---|---:|\n";
        for (const Size& s : sizes) {
            CameraSpec spec;
            spec.streams = s.streams;
            spec.kernels = s.kernels;
            spec.ranges = true;
            spec.jitter = 2;
            const Workload w = camera_pipeline(spec, 1);
            std::vector<double> ms;
            InterferenceBounds b;
            for (int r = 0; r < runs; ++r) {
                const auto t0 = std::chrono::steady_clock::now();
                b = interference_bounds(w, Budget::for_timeout(std::chrono::seconds(600)));
                ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
            }
            std::sort(ms.begin(), ms.end());
            std::printf("| %dx%d | %zu | %lld | %d | %s | %.1f |\n", s.streams, s.kernels, w.ops.size(),
                        static_cast<long long>(w.total_blocks()), b.sweeps, b.stopped ? "yes" : "no",
                        ms[ms.size() / 2]);
            std::fflush(stdout);
        }
    } catch (const std::exception& e) {
        std::cerr << "bench_interference: " << e.what() << "\n";
        return 3;
    }
}
