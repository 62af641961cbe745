#pragma once
// The one place where gpuwcrt talks to Z3: parameters, timeouts, classification of "unknown",
// and exact reading of model values (numerator/denominator strings, never machine ints).
#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include <z3++.h>

#include "common/budget.hpp"
#include "model/time.hpp"

namespace gpuwcrt {

enum class Answer { sat, unsat, unknown };
enum class UnknownReason { none, timeout, memory, incomplete, other };

struct SolverOptions {
    // Wall-clock budget for the whole session (all checks together); nullopt = none.
    std::optional<std::chrono::milliseconds> timeout;
    // The run's budget, for a session that is one step of a longer run: the session ends at its
    // deadline or at `timeout`, whichever comes first.
    Budget budget;
    // The owner never destroys this session, nor any term of it, once abandoned() is true:
    // only then may a check be abandoned (stop_waiting_at_deadline).
    bool owner_leaks_if_abandoned = false;
    std::string logic;  // "" = Z3's default tactic; e.g. "QF_FD", "QF_LIA"
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

    // A process that ends right after its run (the CLI) sets this: in a session whose options
    // allow it (owner_leaks_if_abandoned), a check still running a
    // moment after the deadline is then interrupted and, when that deadline ends the run
    // (Budget::leave_table_on_timeout) or the run is interrupted, left to finish on its own
    // thread, and answers unknown (timeout) at once; at a slice's deadline it is awaited. Z3 returns within
    // milliseconds of its timeout in its search, but turning a large formula into clauses checks the timeout rarely (a
    // fraction of a second late on gigabyte formulas). The session must then never be destroyed (its owner leaks it:
    // abandoned()), and the process must end with std::_Exit, without static destructors under the running thread
    // (abandoned_checks()). Off by default.
    static void stop_waiting_at_deadline(bool stop);
    static int abandoned_checks();
    bool abandoned() const { return abandoned_; }

    // Remaining budget after earlier checks: one user timeout covers a whole search.
    std::optional<std::chrono::milliseconds> remaining() const;
    void set_deadline_from_now(std::optional<std::chrono::milliseconds> budget);

private:
    CheckResult classify(z3::check_result r);
    // Runs a check with the remaining budget; memory exhaustion becomes an unknown answer.
    CheckResult guarded(std::function<z3::check_result()> run);
    // run() on its own thread; nullopt when it has not returned shortly after the deadline.
    std::optional<z3::check_result> run_until_deadline(std::function<z3::check_result()> run);
    void apply_parameters();
    void apply_timeout();

    struct ContextProbe {
        ContextProbe();  // throws std::bad_alloc when Z3 cannot make a context
    };
    ContextProbe probe_;  // before ctx_: z3::context crashes on a context Z3 could not make
    z3::context ctx_;
    z3::solver solver_;
    SolverOptions options_;
    std::optional<Budget::Clock::time_point> deadline_;
    bool abandoned_ = false;
};

}  // namespace gpuwcrt
