#pragma once
// Wall-clock helpers shared by the warp benchmarks (timings of the tool, not schedule time).
#include <algorithm>
#include <chrono>
#include <vector>

namespace gpuwcrt::bench {

using Clock = std::chrono::steady_clock;

inline long long us_since(Clock::time_point t0) {
    return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - t0).count();
}

inline long long median(std::vector<long long> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace gpuwcrt::bench
