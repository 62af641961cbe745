#pragma once
// Warp-level model of SPEC §8 (Raravi & Andersson TR): pure types, header-only, so that both
// the SMT encoding (encode/, which does not link bounds/) and the explicit engine (bounds/)
// can use them. Cycles and counts are plain integers: nothing here is a rational time.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpuwcrt {

enum class WarpFairness { subblock, strict, none };

inline std::string to_string(WarpFairness f) {
    switch (f) {
        case WarpFairness::subblock: return "subblock";
        case WarpFairness::strict: return "strict";
        case WarpFairness::none: return "none";
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

    // Levels (SPEC §8): prologue 0, body copy j at level j, epilogue at rep (subblock),
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
