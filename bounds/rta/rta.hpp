#pragma once
// The thesis response-time analysis (Paredes Zevallos 2019, §3.4–3.6; docs/theory/semantics.md §7) on "one big SM"
// of g_max block slots, for kernels given in launch order. Exact rational time throughout.
#include <cstdint>
#include <optional>
#include <vector>

#include "model/time.hpp"

namespace gpuwcrt {

// One kernel as the analysis sees it: `slots` block slots, each held for `c`, from `release` on.
struct RtaKernel {
    Time release;
    Time c;
    std::int64_t slots = 0;
};

// Algorithm 2 (bounds/rta/algorithm2.hpp) with h kept ordered by time (equal times merged, as
// the thesis' updateH does), so that each minimum is at hand instead of costing O(n) (thesis
// §3.7). Extension (ours, docs/theory/semantics.md §7): before kernel i, t_a = max(t_a, r_i) and every entry of h at
// or below the new t_a is merged into g_f — the slots that have become free by the release.
// Returns f_i for each kernel, in the given order. Requires g_max >= 1 and every slots >= 1.
std::vector<Time> rta_algorithm2(const std::vector<RtaKernel>& kernels, std::int64_t g_max);

// True when the thesis' closed form (§3.6) applies: every C equal and every release equal.
bool rta_closed_form_applies(const std::vector<RtaKernel>& kernels);

// Thesis eq. 3.8–3.15 for equal C and a common release: the state (t_a, g_f) is updated per
// kernel in O(1). Two corrections keep it equal to Algorithm 2: K = ⌊(g_i − g_f − 1)/g_max⌋ (the
// thesis' ⌊(g_i − g_f)/g_max⌋ gives f one C too late when g_i − g_f is a multiple of g_max), and
// g_i = g_f takes the first branch (the thesis' α = (sgn(g_i − g_f) + 1)/2 is 1/2 there).
// nullopt when it does not apply.
std::optional<std::vector<Time>> rta_closed_form(const std::vector<RtaKernel>& kernels, std::int64_t g_max);

}  // namespace gpuwcrt
