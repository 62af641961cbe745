#pragma once
// Parent links and each step's decisions, for every stored state (docs/theory/exact-engine.md,
// "Responses and witnesses"): record 0 stands for the initial state, every other record names
// its parent's record and the decisions of the step from it. Across processes
// (docs/theory/distributed.md) a parent may live in another process: `parent_process` then says which
// (it stays empty in one process).
#include <cstdint>
#include <vector>

#include "solver/exact/chunk_output.hpp"

namespace gpuwcrt::exact {

struct Records {
    std::vector<std::uint32_t> parent;
    std::vector<std::uint32_t> parent_process;
    std::vector<std::uint64_t> begin{0};
    std::vector<int> decisions;

    std::uint32_t add(std::uint32_t from, const int* choice, std::size_t count) {
        parent.push_back(from);
        decisions.insert(decisions.end(), choice, choice + count);
        begin.push_back(decisions.size());
        return static_cast<std::uint32_t>(parent.size() - 1);
    }
    std::uint32_t add(std::uint32_t from, const std::vector<int>& choice) {
        return add(from, choice.data(), choice.size());
    }
    std::uint32_t add(std::uint32_t process, std::uint32_t from, const int* choice, std::size_t count) {
        parent_process.push_back(process);
        return add(from, choice, count);
    }
    std::size_t size() const { return parent.size(); }
    std::size_t bytes() const {
        return parent.capacity() * 4 + parent_process.capacity() * 4 + begin.capacity() * 8 + decisions.capacity() * 4;
    }
    std::vector<int> step(std::uint32_t r) const {
        return {decisions.begin() + static_cast<long>(begin[r]), decisions.begin() + static_cast<long>(begin[r + 1])};
    }
    // In one process: the decisions of every step from the initial state to record `to`.
    std::vector<std::vector<int>> path(std::uint32_t to) const {
        std::vector<std::vector<int>> steps;
        for (std::uint32_t r = to; r != 0; r = parent[r]) steps.push_back(step(r));
        return {steps.rbegin(), steps.rend()};
    }
};

// The largest response found for one operation and the step that produced it (its parent's
// record and the step's decisions).
struct Best {
    bool found = false;
    bool seeded = false;  // the seeding beam run's answer (kept and replayed by the caller)
    std::int64_t response = 0;
    std::uint64_t path = 0;  // path_hash.hpp: the canonical choice among equal responses
    std::uint32_t process = 0, parent = 0;
    std::vector<int> last_step;

    // Whether a response `r` reached by path `h` takes this one's place: a larger one, or an equal
    // one first in the canonical order (path_hash.hpp). The seeding run's answer stays on a tie:
    // it is the same for any number of threads and processes.
    bool improved_by(std::int64_t r, std::uint64_t h) const {
        if (!found || r > response) return true;
        return r == response && !seeded && h < path;
    }
};

// The responses of an expanded chunk taken into `best` where they improve on it; `process`: the
// one holding their parents' records (0 in one process).
inline void take_responses(const ChunkOutput& out, std::uint32_t process, std::vector<Best>& best) {
    for (const ChunkOutput::Response& r : out.responses) {
        Best& b = best[static_cast<std::size_t>(r.op)];
        if (b.improved_by(r.response, r.path))
            b = {true, false, r.response, r.path, process, r.from, out.choice(r.choice_at, r.choice_len)};
    }
}

}  // namespace gpuwcrt::exact
