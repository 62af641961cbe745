#pragma once
// Block-level SMT encoding of the TX2 rules (docs/theory/semantics.md §4) over all scenarios (docs/theory/semantics.md
// §5): its models are exactly the schedules of the workload under some launch order and SM placement.
// docs/theory/encoding.md gives the variables, the constraint families and the proof.
#include <optional>
#include <vector>

#include <z3++.h>

#include "encode/block/block_problem.hpp"
#include "encode/build_families.hpp"
#include "sim/scenario.hpp"

namespace gpuwcrt {

struct BlockEncodingOptions {
    Policy policy = Policy::chooser;  // chooser = any SM where the block fits
    bool symmetry_breaking = true;
    // Kernel (problem index) whose response is the objective: it is kept out of the
    // identical-kernel symmetry breaking, which would otherwise fix its relative order.
    std::optional<int> objective_kernel;
    Budget budget;          // once it runs out the constructor stops: interrupted()
    ProgressSink progress;  // announces each constraint family; may be empty
};

class BlockEncoding {
public:
    BlockEncoding(z3::context& ctx, const BlockProblem& p, const BlockEncodingOptions& o);

    const z3::expr_vector& constraints() const { return constraints_; }
    // The deadline of o.budget passed while building: the encoding is incomplete and only fit
    // to be discarded. The constructor returns instead of throwing so that the caller decides
    // whether to free it: freeing millions of terms takes about as long as building them.
    bool interrupted() const { return interrupted_; }
    z3::expr before(int k, int l) const;  // kernel k enters the EE queue before kernel l
    z3::expr start(int k, std::int64_t j) const { return start_[k][j]; }
    z3::expr end(int k, std::int64_t j) const;
    z3::expr on_sm(int k, std::int64_t j, int m) const { return on_[k][j][m]; }
    z3::expr join(int k) const { return join_[k]; }
    z3::expr finish(int k) const { return end(k, p_.blocks[k] - 1); }
    z3::expr response(int k) const { return finish(k) - ctx_.int_val(p_.issue[k]); }
    // The interface the solver layer shares with TimeIndexedEncoding (scaled integers).
    z3::expr response_exceeds(int k, std::int64_t bound) const { return response(k) > num(bound); }
    std::int64_t start_in(const z3::model& model, int k, std::int64_t j) const;

private:
    struct Block {
        int k;
        std::int64_t j;
    };
    z3::expr num(std::int64_t v) const { return ctx_.int_val(static_cast<int64_t>(v)); }
    // Dispatched before block b in the FIFO sequence (constant true/false or an order literal).
    z3::expr earlier(const Block& a, const Block& b) const;
    // Sum over earlier blocks on SM m with `running` of demand, compared with a bound: the
    // resource arithmetic every fit/blocked/room test shares.
    z3::expr usage_within(const Block& b, int m, std::size_t r, bool running_at_start, std::int64_t bound) const;
    z3::expr fits(const Block& b, int m, std::int64_t copies) const;  // `copies` more blocks fit
    z3::expr fits_just_before(const Block& b, int m) const;           // at start(b) - epsilon

    void declare_variables();
    void rule_launch_order_is_total();      // a total order of EE-queue entry (§5)
    void rule_g1_g2_g4_join_times();        // joins when issued and its stream predecessor completed
    void rule_g2_ee_order_follows_joins();  // FIFO EE queue: ordered by join time, ties by launch order
    void rule_x1_g3_fifo_dispatch();        // only the head kernel dispatches; blocks in index order
    void rule_r_resources_fit();            // R1-R3, registers, resident blocks on the chosen SM
    void rule_greedy_dispatch();            // a block starts as soon as it is eligible and fits
    void rule_placement_policy();           // most-room / round-robin / first-fit, if fixed
    void rule_round_robin_block(const Block& b);

    z3::context& ctx_;
    const BlockProblem& p_;
    BlockEncodingOptions o_;
    bool interrupted_ = false;
    z3::expr_vector constraints_;
    std::vector<std::vector<z3::expr>> before_;  // [k][l], k != l
    std::vector<z3::expr> join_;
    std::vector<std::vector<z3::expr>> start_;            // [k][j]
    std::vector<std::vector<std::vector<z3::expr>>> on_;  // [k][j][m]
    std::vector<Block> blocks_;
};

}  // namespace gpuwcrt
