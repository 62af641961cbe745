#include "solver/rta/rta_columns.hpp"

#include <new>

#include "bounds/rta/rta_workload.hpp"
#include "sim/scenario.hpp"

namespace gpuwcrt {

RtaColumns rta_columns(const Workload& w, const Budget& budget, std::chrono::milliseconds approximation_cap) {
    RtaColumns c;
    const std::size_t n = w.ops.size();
    c.file_order.resize(n);
    c.max_over_orders.resize(n);
    const RtaOutcome file = rta(w, rta_launch_order(w, launch_ranks(w, {})));
    c.scope = rta_scope_name(file.exact());
    c.reasons = file.reasons;
    for (std::size_t i = 0; i < n; ++i) c.file_order[i] = file.response_of(static_cast<int>(i));
    // An approximation's maximum is worth a short search, not minutes.
    try {
        const Budget search = file.exact() ? budget : budget.capped(approximation_cap);
        RtaMaxOverOrders m = rta_max_over_orders(w, search);
        for (std::size_t i = 0; i < n; ++i) {
            BoundedAnswer<Time, LaunchOrder>& a = m.answers[i];
            if (!w.ops[i].is_kernel() || a.exact()) continue;
            // The file order is one of the orders: its value is a lower bound on the maximum.
            const bool found_more = a.lower && (!c.file_order[i] || *a.lower > *c.file_order[i]);
            if (found_more || !c.file_order[i]) continue;
            a.lower = c.file_order[i];
            a.witness = file.order;
            a.lower_by = Provenance::rta_file_order;
        }
        c.max_over_orders = std::move(m.answers);
        if (!m.complete) c.max_note = m.note;
    } catch (const InputError& e) {  // the RTA's integers cannot hold this workload's instants
        c.max_note = e.message();
    } catch (const std::bad_alloc&) {  // --max-memory: the column is a comparison, not a verdict
        c.max_over_orders.assign(n, {});
        c.max_note = "the search ran out of memory (--max-memory)";
    }
    return c;
}

RtaColumnsJob::RtaColumnsJob(const Workload& w, const Budget& budget, std::chrono::milliseconds cap,
                             std::chrono::milliseconds reserve)
    : start_(Budget::Clock::now()), reserve_(reserve) {
    const Budget mine = budget.capped(cap).stopped_by(stop_);
    thread_ = std::thread([this, &w, mine] {
        try {
            columns_ = rta_columns(w, mine, reserve_);
        } catch (...) {  // a replay mismatch (a bug) reaches the user from finish()
            error_ = std::current_exception();
        }
        std::lock_guard lock(mutex_);
        finished_ = true;
        done_.notify_all();
    });
}

RtaColumnsJob::~RtaColumnsJob() { stop_and_join(); }

void RtaColumnsJob::stop_and_join() {
    *stop_ = true;
    if (thread_.joinable()) thread_.join();
}

RtaColumns RtaColumnsJob::finish() {
    {
        std::unique_lock lock(mutex_);
        done_.wait_until(lock, start_ + reserve_, [this] { return finished_; });
    }
    stop_and_join();
    if (error_) std::rethrow_exception(error_);
    return std::move(columns_);
}

}  // namespace gpuwcrt
