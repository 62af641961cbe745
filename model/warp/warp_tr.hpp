#pragma once
// The TR's Fermi SM, its program template and its finishing-time conjecture (docs/theory/semantics.md §8).
#include <optional>
#include <string>

#include "model/warp/warp_model.hpp"

namespace gpuwcrt {

struct FermiUnits {
    int warp_size = 16;
    int cuda = 2;  // CUDA warp-instructions per cycle
    int ldst = 1;  // LOAD/STORE warp-instructions per cycle (shared by L and S)
    std::optional<int> issue_limit;
    int latency_c = 1, latency_l = 1, latency_s = 1;
};

WarpMachine fermi_machine(const FermiUnits& u = {});
WarpProgram tr_program(const WarpMachine& m);  // C, (L L C)×rep, S
bool is_tr_program(const WarpMachine& m, const WarpProgram& p);
// W warps running the TR program `rep` times on the Fermi SM with units `u`.
WarpProblem tr_problem(int warps, int rep, WarpFairness f = WarpFairness::subblock, const FermiUnits& u = {});

int warps_for_threads(long long threads, int warp_size);

// FT(n, rep) = 3⌈n/16⌉ + 2 + 2⌈n/16⌉(rep − 1), with the warp count W = ⌈n / warp size⌉.
long long finishing_time_conjecture(int warps, int rep);

// "holds (tight)", "holds (FT exceeds the worst case by k)", "refuted (worst case exceeds FT by k)".
std::string conjecture_verdict(long long ft, long long worst);
inline bool verdict_refutes(long long ft, long long worst) { return worst > ft; }

}  // namespace gpuwcrt
