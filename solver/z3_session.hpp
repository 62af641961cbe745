#pragma once
// The one place where gpuwcrt talks to Z3: parameters, timeouts, classification of "unknown",
// and exact reading of model values (numerator/denominator strings, never machine ints).
#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include <z3++.h>

#include "model/time.hpp"

namespace gpuwcrt {

enum class Answer { sat, unsat, unknown };
enum class UnknownReason { none, timeout, memory, incomplete, other };

struct SolverOptions {
    // Wall-clock budget for the whole session (all checks together); nullopt = none.
    std::optional<std::chrono::milliseconds> timeout;
    // An absolute end, for a session that is one step of a longer run; the earlier of the two counts.
    std::optional<std::chrono::steady_clock::time_point> deadline;
    std::string logic;                       // "" = Z3's default tactic; e.g. "QF_FD", "QF_LIA"
    unsigned random_seed = 0;
};

struct CheckResult {
    Answer answer = Answer::unknown;
    UnknownReason reason = UnknownReason::none;
    std::string reason_text;  // Z3's own words for unknown
};

std::string to_string(Answer a);
std::string to_string(UnknownReason r);  // memory: "memory limit"

// Z3 reports exhaustion of its memory limit (global memory_max_size, set from --max-memory) or
// of the process's address space as a z3::exception: such a run is "unknown (memory limit)".
bool is_memory_exhaustion(const z3::exception& e);

class Z3Session {
public:
    explicit Z3Session(const SolverOptions& options = {});
    Z3Session(const Z3Session&) = delete;
    Z3Session& operator=(const Z3Session&) = delete;

    z3::context& ctx() { return ctx_; }
    z3::solver& solver() { return solver_; }
    // Replaces the solver by an empty one with the same logic and parameters. Z3's QF_FD
    // solver bit-blasts bounded integers only for what it is given before its first check;
    // a new bound is asserted on a fresh solver instead.
    void fresh_solver();

    CheckResult check();
    CheckResult check(const z3::expr_vector& assumptions);
    z3::model model() const { return solver_.get_model(); }

    // Exact value of an integer or real term in the last model (model completion on).
    Time value(const z3::expr& e) const;
    BigInt int_value(const z3::expr& e) const;
    bool bool_value(const z3::expr& e) const;

    // Remaining budget after earlier checks: one user timeout covers a whole search.
    std::optional<std::chrono::milliseconds> remaining() const;
    void set_deadline_from_now(std::optional<std::chrono::milliseconds> budget);

private:
    CheckResult classify(z3::check_result r);
    // Runs a check with the remaining budget; memory exhaustion becomes an unknown answer.
    CheckResult guarded(const std::function<z3::check_result()>& run);
    void apply_parameters();
    void apply_timeout();

    z3::context ctx_;
    z3::solver solver_;
    SolverOptions options_;
    std::optional<std::chrono::steady_clock::time_point> deadline_;
};

}  // namespace gpuwcrt
