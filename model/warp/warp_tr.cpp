#include "model/warp/warp_tr.hpp"

#include <stdexcept>

namespace gpuwcrt {

WarpMachine fermi_machine(const FermiUnits& u) {
    WarpMachine m;
    m.warp_size = u.warp_size;
    m.units = {{"cuda", u.cuda}, {"ldst", u.ldst}};
    m.classes = {{'C', 0, u.latency_c}, {'L', 1, u.latency_l}, {'S', 1, u.latency_s}};
    m.issue_limit = u.issue_limit;
    return m;
}

WarpProgram tr_program(const WarpMachine& m) {
    const int c = m.class_index('C'), l = m.class_index('L'), s = m.class_index('S');
    if (c < 0 || l < 0 || s < 0) throw std::invalid_argument("the TR program needs classes C, L and S");
    return {{c}, {l, l, c}, {s}};
}

WarpProblem tr_problem(int warps, int rep, WarpFairness f, const FermiUnits& u) {
    WarpProblem p;
    p.machine = fermi_machine(u);
    p.program = tr_program(p.machine);
    p.warps = warps;
    p.rep = rep;
    p.fairness = f;
    return p;
}

bool is_tr_program(const WarpMachine& m, const WarpProgram& p) {
    const int c = m.class_index('C'), l = m.class_index('L'), s = m.class_index('S');
    if (c < 0 || l < 0 || s < 0) return false;
    return p.prologue == std::vector<int>{c} && p.body == std::vector<int>{l, l, c} &&
           p.epilogue == std::vector<int>{s};
}

int warps_for_threads(long long threads, int warp_size) {
    if (threads < 1 || warp_size < 1) throw std::invalid_argument("threads and warp size must be positive");
    return static_cast<int>((threads + warp_size - 1) / warp_size);
}

long long finishing_time_conjecture(int warps, int rep) {
    const long long w = warps;
    return 3 * w + 2 + 2 * w * (rep - 1);
}

std::string conjecture_verdict(long long ft, long long worst) {
    if (worst == ft) return "holds (tight)";
    if (worst < ft) return "holds (FT exceeds the worst case by " + std::to_string(ft - worst) + ")";
    return "refuted (worst case exceeds FT by " + std::to_string(worst - ft) + ")";
}

}  // namespace gpuwcrt
