#pragma once
// Time-indexed ("order-encoded") block-level encoding: for every block b and instant t,
// a literal "b has started by t". Every time comparison becomes a literal, resources become
// pseudo-Boolean sums of literals, and a response bound is one literal, so Z3's SAT core
// (QF_FD) works on it directly and a bound search needs no re-encoding. Same models as the
// event encoding (block_encoding.hpp); docs/encoding.md compares the two.
#include <map>
#include <optional>
#include <tuple>
#include <vector>

#include <z3++.h>

#include "encode/block_encoding.hpp"

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
    z3::expr joined(int k, std::int64_t t) const;             // in the EE queue by t (G1, G2, G4)
    z3::expr earlier(const Block& a, const Block& b) const;
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

    void declare_variables();
    void rule_launch_order_is_total();
    void rule_x1_g3_fifo_dispatch();
    void rule_g2_join_and_ee_order();
    void rule_r_resources_fit();
    void rule_greedy_dispatch();
    void rule_placement_policy();

    z3::context& ctx_;
    const BlockProblem& p_;
    BlockEncodingOptions o_;
    bool interrupted_ = false;
    z3::expr_vector constraints_;
    std::vector<std::vector<z3::expr>> before_;
    std::vector<std::vector<std::vector<z3::expr>>> on_;       // [k][j][m]
    std::vector<std::vector<std::vector<z3::expr>>> started_;  // [k][j][t - issue_k]
    std::vector<Block> blocks_;
    std::vector<std::vector<std::vector<std::vector<z3::expr>>>> running_on_;  // [k][j][m][t - issue_k]
    std::map<std::tuple<int, std::int64_t, std::size_t, std::int64_t>, z3::expr> usage_at_least_;
};

}  // namespace gpuwcrt
