#pragma once
// Warp-level model of docs/theory/semantics.md §8 (Raravi & Andersson TR): pure types, header-only, so that both
// the SMT encoding (encode/, which does not link bounds/) and the explicit engine (bounds/)
// can use them. Cycles and counts are plain integers: nothing here is a rational time.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpuwcrt {

enum class WarpFairness { subblock, strict, none };

inline std::string to_string(WarpFairness f) {
    switch (f) {
        case WarpFairness::subblock:
            return "subblock";
        case WarpFairness::strict:
            return "strict";
        case WarpFairness::none:
            return "none";
    }
    return "?";
}

inline std::optional<WarpFairness> parse_warp_fairness(const std::string& s) {
    if (s == "subblock") return WarpFairness::subblock;
    if (s == "strict") return WarpFairness::strict;
    if (s == "none") return WarpFairness::none;
    return std::nullopt;
}

struct WarpUnit {
    std::string name;
    int capacity = 1;  // warp-instructions per cycle
};

struct WarpClass {
    char letter = '?';  // printed in the schedule (C, L, S in the TR)
    int unit = 0;       // index into WarpMachine::units
    int latency = 1;    // cycles from issuing this instruction to the warp's next issue
};

struct WarpMachine {
    int warp_size = 16;
    std::vector<WarpUnit> units;
    std::vector<WarpClass> classes;
    std::optional<int> issue_limit;  // total warp-instructions per cycle over all units

    int class_index(char letter) const {
        for (std::size_t i = 0; i < classes.size(); ++i)
            if (classes[i].letter == letter) return static_cast<int>(i);
        return -1;
    }
};

// Straight-line program: prologue, `rep` copies of body, epilogue (class indices).
struct WarpProgram {
    std::vector<int> prologue, body, epilogue;
};

// One flattened instruction of the program, with its fairness level.
struct WarpInstr {
    int cls = 0;
    int unit = 0;
    int latency = 1;
    int level = 0;
};

struct WarpProblem {
    WarpMachine machine;
    WarpProgram program;
    int warps = 1;
    int rep = 1;
    WarpFairness fairness = WarpFairness::subblock;

    // Levels (docs/theory/semantics.md §8): prologue 0, body copy j at level j, epilogue at rep (subblock),
    // rep + 1 (strict); everything at 0 without fairness.
    std::vector<WarpInstr> instructions() const {
        std::vector<WarpInstr> out;
        auto push = [&](int cls, int level) {
            const WarpClass& c = machine.classes.at(static_cast<std::size_t>(cls));
            out.push_back({cls, c.unit, c.latency, fairness == WarpFairness::none ? 0 : level});
        };
        for (int c : program.prologue) push(c, 0);
        for (int j = 1; j <= rep; ++j)
            for (int c : program.body) push(c, j);
        for (int c : program.epilogue) push(c, fairness == WarpFairness::strict ? rep + 1 : rep);
        return out;
    }

    int max_latency() const {
        int m = 1;
        for (const auto& c : machine.classes) m = std::max(m, c.latency);
        return m;
    }
};

// Documented limits of the warp model (docs/reference/warp.md), checked on every
// input before an engine runs: counts stay inside the engines' 16-bit counters, every
// makespan inside an int, and every point inside them answers (possibly "unknown" at the
// timeout or memory limit) instead of overflowing.
namespace warp_limits {
inline constexpr int warp_size = 1024;
inline constexpr int warps = 4096;
inline constexpr int rep = 10000;
inline constexpr int capacity = 4096;  // per unit and the total issue limit
inline constexpr int latency = 1024;
inline constexpr long long program_length = 10000;  // prologue + rep x body + epilogue
// W x (sum of the program's latencies): no schedule is longer (each cycle some warp issues
// or every unfinished warp waits), so this bounds every makespan.
inline constexpr long long cycles = 1'000'000'000;
}  // namespace warp_limits

// Length of the flattened program, or nullopt above warp_limits::program_length.
inline std::optional<long long> warp_program_length(const WarpProgram& p, long long rep) {
    const auto n = [](const std::vector<int>& v) { return static_cast<long long>(v.size()); };
    const long long cap = warp_limits::program_length;
    if (rep < 0 || n(p.prologue) > cap || n(p.body) > cap || n(p.epilogue) > cap) return std::nullopt;
    if (!p.body.empty() && rep > cap / n(p.body)) return std::nullopt;
    const long long total = n(p.prologue) + rep * n(p.body) + n(p.epilogue);
    return total <= cap ? std::optional<long long>(total) : std::nullopt;
}

// Cycles of the whole program for one warp when every instruction waits its full latency.
inline long long warp_program_cycles(const WarpMachine& m, const WarpProgram& p, long long rep) {
    const auto sum = [&](const std::vector<int>& v) {
        long long s = 0;
        for (int c : v) s += m.classes.at(static_cast<std::size_t>(c)).latency;
        return s;
    };
    return sum(p.prologue) + rep * sum(p.body) + sum(p.epilogue);  // <= 10^4 x 1024 within the limits
}

// Per-warp schedule in the layout of the TR's Fig. 3–5: rows[w][c - 1] is the letter of the
// instruction warp w issues in cycle c, or '.' when it issues nothing.
struct WarpSchedule {
    std::vector<std::string> rows;
    int makespan() const {
        int m = 0;
        for (const auto& r : rows)
            for (std::size_t c = 0; c < r.size(); ++c)
                if (r[c] != '.') m = std::max(m, static_cast<int>(c) + 1);
        return m;
    }
};

}  // namespace gpuwcrt
