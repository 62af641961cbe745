#include "solver/rta_orders/falsify.hpp"

#include <algorithm>
#include <functional>
#include <sstream>

#include "bounds/rta_workload.hpp"
#include "model/load_toml.hpp"
#include "solver/enumerate.hpp"
#include "solver/rta_orders/max_over_orders.hpp"
#include "sim/simulate.hpp"

namespace gpuwcrt::rta_orders {
namespace {

using Clock = std::chrono::steady_clock;

struct KernelChoice {
    std::int64_t blocks, threads, shared_mem, registers, c;
};

std::string to_toml(const FalsifyGrid& g, const std::vector<KernelChoice>& ks) {
    std::ostringstream t;
    if (!g.platform_toml.empty()) t << "[platform]\n" << g.platform_toml << "\n";
    for (std::size_t i = 0; i < ks.size(); ++i)
        t << "\n[[kernel]]\nname = \"K" << i + 1 << "\"\nblocks = " << ks[i].blocks << "\nthreads = " << ks[i].threads
          << "\nshared_mem = " << ks[i].shared_mem << "\nregisters = " << ks[i].registers
          << "\nblock_time = " << ks[i].c << "\n";
    return t.str();
}

// Every kernel list of `kernels` kernels whose blocks sum to `total`, in a fixed order.
void for_each_workload(const FalsifyGrid& g, int kernels, std::int64_t total,
                       const std::function<bool(const std::vector<KernelChoice>&)>& visit) {
    std::vector<KernelChoice> ks;
    std::function<bool(std::int64_t)> rec = [&](std::int64_t left) -> bool {
        if (static_cast<int>(ks.size()) == kernels) return left != 0 || visit(ks);
        const int still = kernels - static_cast<int>(ks.size()) - 1;
        for (std::int64_t b = 1; b <= std::min<std::int64_t>(g.max_blocks, left - still); ++b)
            for (auto th : g.threads)
                for (auto sh : g.shared_mem)
                    for (auto r : g.registers)
                        for (auto c : g.block_time) {
                            ks.push_back({b, th, sh, r, c});
                            const bool go_on = rec(left - b);
                            ks.pop_back();
                            if (!go_on) return false;
                        }
        return true;
    };
    rec(total);
}

void keep_largest(std::optional<FalsifyFinding>& best, const FalsifyFinding& f) {
    if (!best || f.tx2 / f.rta > best->tx2 / best->rta) best = f;
}

}  // namespace

std::vector<FalsifyGrid> falsify_grids() {
    std::vector<FalsifyGrid> g;
    g.push_back({"mixed-block-sizes", "", {512, 1024}, {0}, {0}, {1, 2}, 3, 4});
    g.push_back({"non-dividing-block-size", "", {768}, {0}, {0}, {1, 2}, 3, 4});
    g.push_back({"shared-memory", "", {256}, {0, 32768}, {0}, {1, 2}, 3, 4});
    g.push_back({"registers", "", {256}, {0}, {0, 128}, {1, 2}, 3, 4});
    g.push_back({"resident-blocks", "blocks_per_sm_max = 2", {256}, {0}, {0}, {1, 2}, 3, 4});
    return g;
}

FalsifyResult falsify(const FalsifyGrid& grid, std::optional<Clock::time_point> deadline) {
    FalsifyResult out;
    bool stopped = false;
    const std::int64_t most = static_cast<std::int64_t>(grid.max_kernels) * grid.max_blocks;
    for (std::int64_t total = 1; total <= most && !stopped; ++total)
        for (int n = 1; n <= grid.max_kernels && !stopped; ++n)
            for_each_workload(grid, n, total, [&](const std::vector<KernelChoice>& ks) {
                if (deadline && Clock::now() >= *deadline) return !(stopped = true);
                ++out.workloads;
                const std::string toml = to_toml(grid, ks);
                Workload w;
                try {
                    w = load_workload_text(toml, "falsify.toml");
                } catch (const InputError&) {
                    return true;  // e.g. a block that fits on no SM: not a workload
                }
                // All orders: RTA max over orders against the exhaustive WCRT (orders and SMs).
                EngineOptions eo;
                if (deadline) eo.timeout = std::max(std::chrono::milliseconds(1),
                                                    std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - Clock::now()));
                const EnumerationResult all = enumerate_wcrt(w, eo);
                const RtaMaxOverOrders m = rta_max_over_orders(w, RtaOrdersEngine::search, deadline);
                if (!all.complete || !m.complete) return !(stopped = true);
                // Fixed order: the file order, RTA(order) against the simulator (default policy).
                const RtaOutcome r = rta(w, rta_launch_order(w, {}));
                const Schedule s = simulate(w, Scenario{});
                for (std::size_t i = 0; i < w.ops.size(); ++i) {
                    const std::string& name = w.ops[i].name;
                    const Time rta_max = *m.response[i], tx2 = *all.wcrt[i].wcrt;
                    if (tx2 > rta_max) {
                        const FalsifyFinding f{toml, name, rta_max, tx2};
                        if (!out.all_orders) out.all_orders = f;
                        keep_largest(out.largest_all, f);
                    }
                    const Time rta_f = *r.response_of(static_cast<int>(i)), sim = s.response(static_cast<int>(i));
                    if (sim > rta_f) {
                        const FalsifyFinding f{toml, name, rta_f, sim};
                        if (!out.fixed_order) out.fixed_order = f;
                        keep_largest(out.largest_fixed, f);
                    }
                }
                return true;
            });
    out.complete = !stopped;
    return out;
}

}  // namespace gpuwcrt::rta_orders
