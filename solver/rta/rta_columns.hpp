#pragma once
// The RTA columns of `wcrt`: the thesis RTA for the file order, and maximised over every launch
// order by the search (max_over_orders.hpp), computed beside the WCRT engines.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "common/budget.hpp"
#include "model/workload.hpp"
#include "solver/rta/max_over_orders.hpp"

namespace gpuwcrt {

// Indexed like w.ops. A kernel the search leaves undecided has an unknown max_over_orders, its
// interval: `lower` an order's replayed value, at least the file order's (then the file order
// witnesses it), and `upper` proven. Outside the thesis' exactness scope ("approximation") the
// search gets `approximation_cap` at most: the maximum of an approximation is worth no long search.
struct RtaColumns {
    std::vector<std::optional<Time>> file_order;
    std::vector<BoundedAnswer<Time, LaunchOrder>> max_over_orders;
    std::string scope;  // rta_scope_name (bounds/rta/rta_scope.hpp)
    std::vector<std::string> reasons;
    std::string max_note;  // why max_over_orders is missing, if it is (for some or all kernels)
};
RtaColumns rta_columns(const Workload& w, const Budget& budget, std::chrono::milliseconds approximation_cap);

// The RTA columns beside the engines, on a thread of their own, under `budget` capped at `cap`
// (--rta-timeout) from the start: never starved by the engines. finish() lets the search go on
// until `reserve` after the start at most, then stops it: never holding the run once the WCRT
// work is done. A search stopped so answers its kernels by intervals.
class RtaColumnsJob {
public:
    RtaColumnsJob(const Workload& w, const Budget& budget, std::chrono::milliseconds cap,
                  std::chrono::milliseconds reserve);
    ~RtaColumnsJob();
    RtaColumnsJob(const RtaColumnsJob&) = delete;
    RtaColumnsJob& operator=(const RtaColumnsJob&) = delete;
    RtaColumns finish();

private:
    void stop_and_join();

    std::shared_ptr<std::atomic<bool>> stop_ = std::make_shared<std::atomic<bool>>(false);
    Budget::Clock::time_point start_;
    std::chrono::milliseconds reserve_;
    RtaColumns columns_;
    std::exception_ptr error_;
    std::mutex mutex_;
    std::condition_variable done_;
    bool finished_ = false;
    std::thread thread_;
};
// The RTA's reserved time in wcrt: how long it may go on once the engines are done, and all an
// approximation's search gets. The bench family's searches take milliseconds.
inline constexpr std::chrono::milliseconds default_rta_reserve{1000};

}  // namespace gpuwcrt
