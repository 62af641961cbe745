#pragma once
// Time-indexed ("order-encoded") block-level encoding: for every block b and instant t,
// a literal "b has started by t". Every time comparison becomes a literal, resources become
// pseudo-Boolean sums of literals, and a response bound is one literal, so Z3's SAT core
// (QF_FD) works on it directly and a bound search needs no re-encoding. Same models as the
// event encoding (block_encoding.hpp); docs/theory/encoding.md compares the two.
#include <map>
#include <optional>
#include <tuple>
#include <vector>

#include <z3++.h>

#include "encode/block/block_encoding.hpp"

namespace gpuwcrt {

class TimeIndexedEncoding {
public:
    TimeIndexedEncoding(z3::context& ctx, const BlockProblem& p, const BlockEncodingOptions& o);

    const z3::expr_vector& constraints() const { return constraints_; }
    // The deadline of o.budget passed while building: the encoding is incomplete and only fit
    // to be discarded. The constructor returns instead of throwing so that the caller decides
    // whether to free it: freeing millions of terms takes about as long as building them.
    bool interrupted() const { return interrupted_; }
    z3::expr before(int k, int l) const { return before_[k][l]; }
    z3::expr on_sm(int k, std::int64_t j, int m) const { return on_[k][j][m]; }
    // "Kernel k's response exceeds `bound`" (scaled integers) as one literal (or a constant).
    z3::expr response_exceeds(int k, std::int64_t bound) const;
    // Scaled start of block j of kernel k in `model`.
    std::int64_t start_in(const z3::model& model, int k, std::int64_t j) const;

    // Operation level (any operation, copies too; workload indexes). With the NULL stream,
    // priorities, copies or after_stream_idle (BlockProblem::extended) the launch order is a
    // variable of its own; otherwise these answer from the kernels' fixed issue times.
    z3::expr op_response_exceeds(int op, std::int64_t bound) const;
    std::int64_t op_issue_in(const z3::model& model, int op) const;
    std::int64_t op_finish_in(const z3::model& model, int op) const;
    z3::expr launched_before(int a, int b) const { return launch_[a][b]; }  // extended() only
    // Block-time intervals and issue windows (extended() only): the grid values in `model`.
    // Duration of block j of operation op (a copy: j = 0); the instant chosen in op's window.
    std::int64_t duration_in(const z3::model& model, int op, std::int64_t j) const;
    std::int64_t window_instant_in(const z3::model& model, int op) const;

    // Size that the encoding would have, to choose between encodings before building one.
    static std::int64_t estimated_terms(const BlockProblem& p);

private:
    struct Block {
        int k;
        std::int64_t j;
    };
    z3::expr started(const Block& b, std::int64_t t) const;  // started by t (constant outside its window)
    z3::expr started_at(const Block& b, std::int64_t t) const;
    z3::expr running(const Block& a, std::int64_t t) const;
    z3::expr block_done(const Block& b, std::int64_t t) const;               // b has ended by t (G4)
    z3::expr joined(int k, std::int64_t t) const;                            // in the EE queue by t (G1, G2, G4)
    z3::expr earlier(const Block& a, const Block& b, std::int64_t t) const;  // at b's start t
    z3::expr usage_within(const Block& b, int m, std::int64_t t, const ScaledResource& r, std::int64_t bound) const;
    z3::expr fits(const Block& b, int m, std::int64_t t, std::int64_t copies) const;
    z3::expr running_on(const Block& a, int m, std::int64_t t) const;
    struct UsageSum {  // sum of coeffs[i] * terms[i]: resource r used on SM m at t
        z3::expr_vector terms;
        std::vector<int> coeffs;
        std::int64_t total = 0;  // every term true
    };
    UsageSum usage(int m, std::int64_t t, std::size_t r) const;
    // "Resource r used on SM m at t (by every running block) is at least v" (cached literal).
    z3::expr usage_at_least(int m, std::int64_t t, std::size_t r, std::int64_t v);
    Block last(int k) const { return {k, p_.blocks[k] - 1}; }
    bool same_queue(int k, int l) const { return p_.high[k] == p_.high[l]; }  // A1: one EE queue per priority

    // Operation-level literals (encode/block/time_indexed_operations.cpp), each "by instant t".
    z3::expr issued(int o, std::int64_t t) const;        // G1, after_stream_idle
    z3::expr op_finished(int o, std::int64_t t) const;   // G4, C4
    z3::expr op_joined(int o, std::int64_t t) const;     // G2 with N1/N2, C1
    z3::expr copy_started(int o, std::int64_t t) const;  // C2
    z3::expr copy_running(int o, std::int64_t t) const;
    z3::expr high_queue_done(std::int64_t t) const;  // A2: every high kernel joined by t fully dispatched by t
    // Ranges (encode/block/time_indexed_ranges.cpp): durations and window instants chosen on the grid.
    z3::expr timed_started(int o, std::int64_t j, std::int64_t t) const;  // block j of o, or copy o
    z3::expr duration_ge(int o, std::int64_t j, std::int64_t d) const;    // its duration >= d
    z3::expr ended(int o, std::int64_t j, std::int64_t t) const;          // it has ended by t
    z3::expr window_chosen_by(int o, std::int64_t t) const;               // o's window instant <= t
    void declare_range_variables();
    void rule_durations_in_intervals();  // ended by t <=> started by t - d, d its chosen duration
    void declare_operation_variables();
    void rule_g1_issue_times();                   // issue instants: at / with the predecessor / after_stream_idle
    void rule_launch_order_follows_issues();      // §5: stream order, earlier issue launched first
    void rule_g2_n1_n2_c1_joins();                // joining the EE or CE queue
    void rule_g2_ee_order_by_join_then_launch();  // FIFO EE queues: by join, ties by launch order
    void rule_a2_priority_dispatch();             // a low block starts only when no high kernel waits
    void rule_c1_c3_ce_fifo();                    // FIFO CE queue: by join, ties by launch order
    void rule_c2_copy_engines();                  // at most `copy_engines` copies at once, greedily

    void declare_variables();
    void rule_launch_order_is_total();
    void rule_x1_g3_fifo_dispatch();
    void rule_g2_join_and_ee_order();
    void rule_r_resources_fit();
    void rule_greedy_dispatch();
    void rule_placement_policy();
    // Round-robin (encode/block/time_indexed_round_robin.cpp).
    z3::expr first_at_same_instant(const Block& a, const Block& b) const;
    void rule_dispatch_sequence();      // the order in which the simulator dispatches blocks
    void rule_round_robin_placement();  // SM after the previous block's, skipping full ones

    z3::context& ctx_;
    const BlockProblem& p_;
    BlockEncodingOptions o_;
    bool interrupted_ = false;
    z3::expr_vector constraints_;
    std::vector<std::vector<z3::expr>> before_;
    std::vector<std::vector<std::vector<z3::expr>>> on_;       // [k][j][m]
    std::vector<std::vector<std::vector<z3::expr>>> started_;  // [k][j][t - issue_k]
    std::vector<Block> blocks_;
    std::vector<std::vector<z3::expr>> dispatched_before_;                     // over blocks_ indexes, round-robin only
    std::vector<std::vector<std::vector<std::vector<z3::expr>>>> running_on_;  // [k][j][m][t - issue_k]
    std::map<std::tuple<int, std::int64_t, std::size_t, std::int64_t>, z3::expr> usage_at_least_;
    std::vector<std::vector<z3::expr>> launch_;     // [a][b] over operations: a launched before b
    std::vector<std::vector<z3::expr>> ce_before_;  // [a][b] over copies: a ahead of b in the CE queue
    std::vector<std::vector<z3::expr>> issued_, joined_, copy_started_;  // [op][t - issue_lb]
    // Keyed by (operation, block; a copy: 0), only for operations whose duration varies.
    std::map<std::pair<int, std::int64_t>, std::vector<z3::expr>> duration_ge_;  // [d - lo - 1]
    std::map<std::pair<int, std::int64_t>, std::vector<z3::expr>> ended_;        // [t - start_lb - lo]
    std::vector<std::vector<z3::expr>> window_by_;  // [op][t - window lo], only for windows
};

}  // namespace gpuwcrt
