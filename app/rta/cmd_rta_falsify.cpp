// gpuwcrt rta-falsify: the smallest workload of a stated grid where the thesis RTA
// under-estimates the TX2, per scope reason (solver/rta/falsify.hpp).
#include <iostream>
#include <memory>

#include "app/cli_options.hpp"
#include "app/commands.hpp"
#include "app/exit_codes.hpp"
#include "app/verification.hpp"
#include "report/context/output_context.hpp"
#include "report/json.hpp"
#include "solver/rta/falsify.hpp"

namespace gpuwcrt::app {
namespace {

struct FalsifyOptions {
    std::string reason = "all";
    int kernels = 3;
    int blocks = 4;
    std::optional<std::string> timeout;
    bool json = false;
};

std::string grid_text(const rta_orders::FalsifyGrid& g) {
    auto list = [](const std::vector<std::int64_t>& v) {
        std::string s;
        for (auto x : v) s += (s.empty() ? "" : ",") + std::to_string(x);
        return "{" + s + "}";
    };
    if (!g.description.empty())
        return "1.." + std::to_string(g.max_kernels) + " operations, 1.." + std::to_string(g.max_blocks) +
               " blocks per kernel, TX2 platform, 1024-thread blocks; " + g.description +
               "; workloads with another RTA scope reason left out";
    return "1.." + std::to_string(g.max_kernels) + " kernels (one stream each, issued at 0), 1.." +
           std::to_string(g.max_blocks) + " blocks each, threads " + list(g.threads) + ", shared_mem " +
           list(g.shared_mem) + ", registers " + list(g.registers) + ", block_time " + list(g.block_time) +
           (g.platform_toml.empty() ? ", TX2 platform" : ", TX2 platform with " + g.platform_toml);
}

Json finding_json(const std::optional<rta_orders::FalsifyFinding>& f) {
    if (!f) return nullptr;
    return {{"kernel", f->kernel},
            {"rta", exact_string(f->rta)},
            {"tx2", exact_string(f->tx2)},
            {"ratio", exact_string(f->tx2 / f->rta)},
            {"workload", f->toml}};
}

void print_finding(const char* what, const std::optional<rta_orders::FalsifyFinding>& f) {
    if (!f) {
        std::cout << "  " << what << ": none in the grid\n";
        return;
    }
    std::cout << "  " << what << ": kernel " << f->kernel << ", RTA " << human_string(f->rta) << " < TX2 "
              << human_string(f->tx2) << " (ratio " << human_string(f->tx2 / f->rta) << ")\n";
    std::string line;  // the workload, indented; blank lines stay empty
    for (char c : f->toml) {
        if (c != '\n') {
            line += c;
            continue;
        }
        std::cout << (line.empty() ? "" : "    ") << line << "\n";
        line.clear();
    }
}

int run_falsify(const FalsifyOptions& o) {
    std::vector<rta_orders::FalsifyGrid> grids;
    for (auto g : rta_orders::falsify_grids())
        if (o.reason == "all" || o.reason == g.reason) {
            g.max_kernels = o.kernels;
            g.max_blocks = o.blocks;
            grids.push_back(g);
        }
    if (grids.empty()) throw option_error("--reason", "unknown reason '" + o.reason + "'");
    const Budget budget = Budget::for_timeout(o.timeout ? std::optional(parse_timeout(*o.timeout)) : std::nullopt);
    Json all = Json::array();
    bool incomplete = false;
    for (const auto& g : grids) {
        const rta_orders::FalsifyResult r = rta_orders::falsify(g, budget);
        incomplete = incomplete || !r.complete;
        if (o.json) {
            all.push_back({{"reason", g.reason},
                           {"grid", grid_text(g)},
                           {"workloads", r.workloads},
                           {"outside_grid", r.outside},
                           {"complete", r.complete},
                           {"smallest_fixed_order", finding_json(r.fixed_order)},
                           {"smallest_all_orders", finding_json(r.all_orders)},
                           {"largest_ratio_fixed_order", finding_json(r.largest_fixed)},
                           {"largest_ratio_all_orders", finding_json(r.largest_all)}});
            continue;
        }
        std::cout << g.reason << ": grid " << grid_text(g) << "; " << r.workloads << " workloads checked"
                  << (r.outside ? " (" + std::to_string(r.outside) + " more visited: outside the grid)" : std::string())
                  << (r.complete ? " (the whole grid)" : " (stopped by --timeout: 'smallest' holds only for those)")
                  << "\n";
        print_finding("smallest, fixed order", r.fixed_order);
        print_finding("smallest, all orders", r.all_orders);
        print_finding("largest ratio, fixed order", r.largest_fixed);
        print_finding("largest ratio, all orders", r.largest_all);
    }
    if (o.json) {
        OutputContext context{"rta-falsify", "", Json::object(), std::nullopt};
        context.options = {{"reason", o.reason},
                           {"kernels", o.kernels},
                           {"blocks", o.blocks},
                           {"timeout", o.timeout ? Json(*o.timeout) : Json(nullptr)}};
        std::cout << with_context(context, Json{{"reasons", all}}).dump(2) << "\n";
    }
    return incomplete ? exit_unknown : exit_ok;
}

}  // namespace

void add_rta_falsify_command(CLI::App& cli, Action& action) {
    auto o = std::make_shared<FalsifyOptions>();
    CLI::App* sub =
        cli.add_subcommand("rta-falsify",
                           "Search a stated parameter grid, by increasing total number of blocks, for the smallest\n"
                           "workload where the thesis RTA under-estimates the TX2: for the file order (RTA(order) <\n"
                           "simulated response) and over all orders (RTA max over orders < TX2 WCRT over orders and\n"
                           "SM placements), per scope reason; also the largest ratio TX2 / RTA in the grid. Every\n"
                           "workload before the smallest one was checked and is safe. For block-time intervals and\n"
                           "issue windows the TX2 value is a replayed schedule with each range at one of its ends,\n"
                           "printed with the [scenario] that reproduces it. Exit 0, or 2 when --timeout stopped a\n"
                           "grid early (docs/theory/rta/rta-soundness.md).");
    sub->add_option("--reason", o->reason,
                    "all (default), mixed-block-sizes, non-dividing-block-size, shared-memory, registers,\n"
                    "resident-blocks, several-operations-per-stream, priorities, null-stream, copies,\n"
                    "block-time-intervals, issue-windows");
    sub->add_option(
           "--kernels", o->kernels,
           "at most this many operations (kernels, and copies in the copies grid) per\nworkload (1..4, default 3)")
        ->check(CLI::Range(1, 4));
    sub->add_option("--blocks", o->blocks, "at most this many blocks per kernel (1..8, default 4)")
        ->check(CLI::Range(1, 8));
    sub->add_option("--timeout", o->timeout,
                    "seconds for the whole run (as wcrt; default: none, every grid to its end); a grid not\n"
                    "finished is said so");
    sub->add_flag("--json", o->json,
                  "print JSON for scripts: the run's context, then per reason its findings (times as\n"
                  "exact strings \"3/2\"; schema: docs/schema/rta-falsify.json)");
    sub->callback([o, &action] { action = [o] { return run_falsify(*o); }; });
}

}  // namespace gpuwcrt::app
