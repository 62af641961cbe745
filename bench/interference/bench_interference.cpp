// The interference bound's cost (bounds/interference/, docs/theory/interference.md) on camera
// pipelines of growing size: S streams × K kernels, ±20 % block times and 2 ms jitter (the
// camera family of bench/README.md), seed 1. Per size: operations, blocks, sweeps, and the
// median over `runs` of the wall time of one interference_bounds call. Its precision is measured
// against replayed lower bounds by bench/camera/run.sh (bench/RESULTS.md, "camera").
//   bench_interference [RUNS] [SxK,SxK,...]
// The same on workload files (`camera:SxK` for a camera pipeline; a file with periodic or sporadic streams is unrolled
// over one hyperperiod, as the all-time analysis does first):
//   bench_interference --files RUNS FILE...
// Every operation's bounds, one line each, exact, to compare two builds (`diff`, or
// bench/interference/compare.py, which says whether every bound is equal or tighter):
//   bench_interference --dump FILE...
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "bounds/interference/interference.hpp"
#include "model/frames/unroll.hpp"
#include "model/generate/camera_pipeline.hpp"
#include "model/io/load_toml.hpp"

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

Workload camera(const Size& s) {
    CameraSpec spec;
    spec.streams = s.streams;
    spec.kernels = s.kernels;
    spec.ranges = true;
    spec.jitter = 2;
    return camera_pipeline(spec, 1);
}

// A file, or `camera:SxK` for the camera pipeline of that size.
Workload load_one_frame(const std::string& path) {
    if (path.rfind("camera:", 0) == 0) return camera(parse_sizes(path.substr(7)).at(0));
    Workload w = load_workload_file(path);
    if (w.repeats()) w = unroll(w, Horizon::hyperperiods(1, {w.source, 0, 0})).workload;
    return w;
}

// Median wall time of `runs` calls, in ms; `b` gets the last call's bounds.
double median_ms(const Workload& w, int runs, InterferenceBounds& b) {
    std::vector<double> ms;
    for (int r = 0; r < runs; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        b = interference_bounds(w, Budget::for_timeout(std::chrono::seconds(600)));
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

std::string text(const std::optional<Time>& t) { return t ? exact_string(*t) : "-"; }

void dump(const std::string& path) {
    const Workload w = load_one_frame(path);
    const InterferenceBounds b = interference_bounds(w, Budget{});
    for (std::size_t i = 0; i < w.ops.size(); ++i) {
        std::cout << path << ' ' << w.ops[i].name << " response " << text(b.response[i]) << " done " << text(b.done[i]);
        if (i < b.ends.size()) {
            const UpperEnds& e = b.ends[i];
            std::cout << " issue " << exact_string(e.issue) << " join " << exact_string(e.join) << " behind "
                      << exact_string(e.behind) << " wait " << exact_string(e.wait) << " solo " << exact_string(e.solo);
        }
        std::cout << '\n';
    }
}

void time_files(int runs, const std::vector<std::string>& files) {
    std::cout << "| file | operations | blocks | sweeps | stopped | median ms (" << runs
              << " runs) |\n|---|---:|---:|---:|---|---:|\n";
    for (const std::string& f : files) {
        const Workload w = load_one_frame(f);
        InterferenceBounds b;
        const double ms = median_ms(w, runs, b);
        std::printf("| %s | %zu | %lld | %d | %s | %.1f |\n", f.c_str(), w.ops.size(),
                    static_cast<long long>(w.total_blocks()), b.sweeps, b.stopped ? "yes" : "no", ms);
        std::fflush(stdout);
    }
}

void time_sizes(int runs, const std::vector<Size>& sizes) {
    std::cout << "| streams x kernels | operations | blocks | sweeps | stopped | median ms (" << runs
              << " runs) |\n|---|---:|---:|---:|---|---:|\n";
    for (const Size& s : sizes) {
        const Workload w = camera(s);
        InterferenceBounds b;
        const double ms = median_ms(w, runs, b);
        std::printf("| %dx%d | %zu | %lld | %d | %s | %.1f |\n", s.streams, s.kernels, w.ops.size(),
                    static_cast<long long>(w.total_blocks()), b.sweeps, b.stopped ? "yes" : "no", ms);
        std::fflush(stdout);
    }
}

}  // namespace

int main(int argc, char** argv) {
    try {
        if (argc > 1 && std::strcmp(argv[1], "--dump") == 0) {
            for (int i = 2; i < argc; ++i) try {
                    dump(argv[i]);
                } catch (const InputError& e) {  // not a block workload (a warp file): nothing to compare
                    std::cerr << "bench_interference: skipped " << argv[i] << ": " << e.what() << "\n";
                }
            return 0;
        }
        if (argc > 2 && std::strcmp(argv[1], "--files") == 0) {
            const int runs = std::stoi(argv[2]);
            if (runs < 1) throw std::invalid_argument("RUNS is at least 1");
            time_files(runs, std::vector<std::string>(argv + 3, argv + argc));
            return 0;
        }
        const int runs = argc > 1 ? std::stoi(argv[1]) : 3;
        if (runs < 1) throw std::invalid_argument("RUNS is at least 1");
        time_sizes(runs, parse_sizes(argc > 2 ? argv[2] : "3x8,4x10,8x6,16x16,32x32"));
    } catch (const std::exception& e) {
        std::cerr << "bench_interference: " << e.what() << "\n";
        return 3;
    }
}
