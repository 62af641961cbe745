#include "solver/z3/z3_session.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <new>
#include <stdexcept>
#include <system_error>
#include <thread>

namespace gpuwcrt {
namespace {

bool stop_waiting = false;            // Z3Session::stop_waiting_at_deadline
std::atomic<int> abandoned_count{0};  // Z3Session::abandoned_checks

}  // namespace

// Z3 answers a context it cannot allocate under its memory limit (or --max-memory's arena)
// with a null handle, and z3::context() passes that on to Z3_set_error_handler, a crash. A
// context made and freed just before the session's own tells: then it is memory exhaustion,
// which the engines report as unknown (memory limit).
Z3Session::ContextProbe::ContextProbe() {
    Z3_config config = Z3_mk_config();
    if (!config) throw std::bad_alloc();
    Z3_context c = Z3_mk_context_rc(config);
    Z3_del_config(config);
    if (!c) throw std::bad_alloc();
    Z3_del_context(c);
}

namespace {

z3::solver make_solver(z3::context& ctx, const std::string& logic) {
    return logic.empty() ? z3::solver(ctx) : z3::solver(ctx, logic.c_str());
}

}  // namespace

std::string to_string(Answer a) {
    switch (a) {
        case Answer::sat:
            return "sat";
        case Answer::unsat:
            return "unsat";
        case Answer::unknown:
            return "unknown";
    }
    return "?";
}

std::string to_string(UnknownReason r) {
    switch (r) {
        case UnknownReason::none:
            return "none";
        case UnknownReason::timeout:
            return "timeout";
        case UnknownReason::memory:
            return "memory limit";
        case UnknownReason::incomplete:
            return "incomplete";
        case UnknownReason::other:
            return "other";
    }
    return "?";
}

bool is_memory_exhaustion(const z3::exception& e) {
    const std::string m = e.msg();
    return m.find("memory") != std::string::npos;  // "out of memory", "max. memory exceeded"
}

Z3Session::Z3Session(const SolverOptions& options) : solver_(make_solver(ctx_, options.logic)), options_(options) {
    apply_parameters();
    set_deadline_from_now(options.timeout);
    const auto& end = options.budget.deadline;
    if (end && (!deadline_ || *end < *deadline_)) deadline_ = end;
}

void Z3Session::apply_parameters() {
    z3::params p(ctx_);
    p.set("random_seed", options_.random_seed);
    // Z3 4.8.12's native pseudo-Boolean propagator in the SAT core (sat.pb.solver=solver)
    // answered unsat on a satisfiable block-schedule instance (tests/test_wcrt.cpp, seed 122,
    // checked against the simulator and Z3's SMT core); encoding PB constraints as clauses
    // does not. docs/theory/encoding.md, "Solver".
    const char* pb = std::getenv("GPUWCRT_SAT_PB");
    p.set("sat.pb.solver", ctx_.str_symbol(pb ? pb : "circuit"));
    // The SAT core stops with "max. memory exceeded" (unknown, memory) once Z3's allocations pass
    // this, so that a search stays inside the budget instead of meeting --max-memory's hard limit.
    // Z3 counts less than the process holds for it (bench/RESULTS.md, "memory"): three quarters.
    if (options_.logic == "QF_FD")
        p.set("max_memory", static_cast<unsigned>(std::min<std::size_t>(options_.budget.memory_bytes / 4 * 3 >> 20,
                                                                        std::numeric_limits<unsigned>::max())));
    // For experiments and benchmarks only: "name=value,name=value" of Boolean, unsigned or
    // symbol parameters (e.g. "sat.restart=luby"), applied last.
    if (const char* extra = std::getenv("GPUWCRT_Z3_PARAMS")) {
        std::string all = extra;
        for (std::size_t at = 0; at < all.size();) {
            std::size_t end = all.find(',', at);
            if (end == std::string::npos) end = all.size();
            const std::string item = all.substr(at, end - at);
            at = end + 1;
            const std::size_t eq = item.find('=');
            if (eq == std::string::npos) continue;
            const std::string name = item.substr(0, eq), value = item.substr(eq + 1);
            if (value == "true" || value == "false") p.set(name.c_str(), value == "true");
            else if (!value.empty() && std::all_of(value.begin(), value.end(), ::isdigit))
                p.set(name.c_str(), static_cast<unsigned>(std::stoul(value)));
            else p.set(name.c_str(), ctx_.str_symbol(value.c_str()));
        }
    }
    solver_.set(p);
}

void Z3Session::fresh_solver() {
    solver_ = make_solver(ctx_, options_.logic);
    apply_parameters();
}

void Z3Session::set_deadline_from_now(std::optional<std::chrono::milliseconds> budget) {
    deadline_.reset();
    if (budget) deadline_ = std::chrono::steady_clock::now() + *budget;
}

std::optional<std::chrono::milliseconds> Z3Session::remaining() const {
    using namespace std::chrono;
    if (!deadline_) return std::nullopt;
    auto left = duration_cast<milliseconds>(*deadline_ - steady_clock::now());
    return std::max(left, milliseconds(0));
}

void Z3Session::apply_timeout() {
    z3::params p(ctx_);
    // Z3 takes milliseconds as an unsigned; UINT_MAX means no limit.
    unsigned ms = 4294967295u;
    if (auto left = remaining()) ms = static_cast<unsigned>(std::max<long long>(1, left->count()));
    p.set("timeout", ms);
    solver_.set(p);
}

CheckResult Z3Session::classify(z3::check_result r) {
    CheckResult out;
    if (r == z3::sat) out.answer = Answer::sat;
    else if (r == z3::unsat) out.answer = Answer::unsat;
    else {
        out.answer = Answer::unknown;
        out.reason_text = solver_.reason_unknown();
        const std::string& t = out.reason_text;
        if (t.find("memory") != std::string::npos) out.reason = UnknownReason::memory;
        else if (t.find("timeout") != std::string::npos || t.find("canceled") != std::string::npos ||
                 (remaining() && remaining()->count() == 0))
            out.reason = UnknownReason::timeout;
        else if (t.find("incomplete") != std::string::npos || t.find("(sat.giveup") != std::string::npos)
            out.reason = UnknownReason::incomplete;
        else out.reason = UnknownReason::other;
        if (std::getenv("GPUWCRT_DEBUG")) std::fprintf(stderr, "z3 unknown: %.200s\n", t.c_str());
    }
    return out;
}

void Z3Session::stop_waiting_at_deadline(bool stop) { stop_waiting = stop; }

int Z3Session::abandoned_checks() { return abandoned_count.load(); }

CheckResult Z3Session::check() {
    return guarded([this] { return solver_.check(); });
}

CheckResult Z3Session::check(const z3::expr_vector& assumptions) {
    // A copy: the check may outlive the caller's vector (run_until_deadline).
    return guarded([this, a = assumptions] { return solver_.check(a); });
}

CheckResult Z3Session::guarded(std::function<z3::check_result()> run) {
    if (auto left = remaining(); left && left->count() == 0)
        return {Answer::unknown, UnknownReason::timeout, "timeout before the check started"};
    try {
        apply_timeout();
        if (!stop_waiting || !options_.owner_leaks_if_abandoned || !deadline_) return classify(run());
        const std::optional<z3::check_result> r = run_until_deadline(std::move(run));
        if (r) return classify(*r);
        abandoned_ = true;
        ++abandoned_count;
        return {Answer::unknown, UnknownReason::timeout, "Z3 did not stop at the deadline; check abandoned"};
    } catch (const z3::exception& e) {
        if (!is_memory_exhaustion(e)) throw;
        return {Answer::unknown, UnknownReason::memory, e.msg()};
    } catch (const std::system_error& e) {
        // Z3 starts a timer thread inside a check; under --max-memory (RLIMIT_AS) there may be no
        // address space left for its stack (EAGAIN), which escapes Z3 as this exception.
        if (e.code() != std::errc::resource_unavailable_try_again) throw;
        return {Answer::unknown, UnknownReason::memory, std::string("no memory for Z3's timer thread: ") + e.what()};
    }
}

std::optional<z3::check_result> Z3Session::run_until_deadline(std::function<z3::check_result()> run) {
    struct Shared {
        std::function<z3::check_result()> run;  // used and released by the worker thread only
        std::mutex m;
        std::condition_variable cv;
        bool done = false;
        z3::check_result result = z3::unknown;
        std::exception_ptr error;
    };
    auto shared = std::make_shared<Shared>();
    shared->run = std::move(run);
    try {
        std::thread([shared] {
            z3::check_result r = z3::unknown;
            std::exception_ptr error;
            try {
                r = shared->run();
            } catch (...) {
                error = std::current_exception();
            }
            shared->run = nullptr;  // drop the closure's Z3 references before the owner may free the context
            std::lock_guard lock(shared->m);
            shared->result = r;
            shared->error = error;
            shared->done = true;
            shared->cv.notify_all();
        }).detach();
    } catch (const std::system_error&) {  // no thread to be had: wait for Z3 as without a deadline
        const z3::check_result r = shared->run();
        shared->run = nullptr;
        return r;
    }
    std::unique_lock lock(shared->m);
    const auto grace = std::chrono::milliseconds(100);
    // In steps, so that an interrupt (SIGINT, SIGTERM) stops the check as well.
    const auto step = std::chrono::milliseconds(100);
    while (!shared->cv.wait_until(
        lock,
        std::min<std::chrono::steady_clock::time_point>(*deadline_ + grace, std::chrono::steady_clock::now() + step),
        [&] { return shared->done; })) {
        if (interrupt_requested() || std::chrono::steady_clock::now() >= *deadline_ + grace) {
            ctx_.interrupt();
            // Abandoned only when the run ends here: a check abandoned at a slice's deadline
            // would keep its solver's memory for the rest of the run. Interrupted, Z3 returns
            // soon.
            if (interrupt_requested() || options_.budget.leave_table_on_timeout) return std::nullopt;
            shared->cv.wait(lock, [&] { return shared->done; });
            break;
        }
    }
    if (shared->error) std::rethrow_exception(shared->error);
    return shared->result;
}

Time Z3Session::value(const z3::expr& e) const {
    z3::expr v = solver_.get_model().eval(e, true);
    if (v.is_int() && v.is_numeral()) return Time(BigInt(v.get_decimal_string(0)));
    if (v.is_real() && v.is_numeral()) {
        BigInt num(v.numerator().get_decimal_string(0));
        BigInt den(v.denominator().get_decimal_string(0));
        return Time(num, den);
    }
    throw std::logic_error("model value is not a numeral: " + v.to_string());
}

BigInt Z3Session::int_value(const z3::expr& e) const {
    Time t = value(e);
    if (boost::multiprecision::denominator(t) != 1) throw std::logic_error("model value is not an integer");
    return boost::multiprecision::numerator(t);
}

bool Z3Session::bool_value(const z3::expr& e) const {
    z3::expr v = solver_.get_model().eval(e, true);
    if (v.is_true()) return true;
    if (v.is_false()) return false;
    throw std::logic_error("model value is not a Boolean: " + v.to_string());
}

}  // namespace gpuwcrt
