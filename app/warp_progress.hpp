#pragma once
// Progress of a long warp run on stderr: nothing during the first second, then one line every
// few seconds (what runs, states stored / solver checks, elapsed), read from a WarpBudget's
// counters by a thread of its own, so that a long Z3 check or search still reports.
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "bounds/warp_budget.hpp"

namespace gpuwcrt::app {

class WarpProgress {
public:
    WarpProgress(std::string command, const WarpBudget& budget);
    ~WarpProgress();  // stops the thread
    WarpProgress(const WarpProgress&) = delete;
    WarpProgress& operator=(const WarpProgress&) = delete;

    void set_context(std::string context);  // e.g. "point 3/16 (threads 48, rep 2)"

private:
    void report_loop();

    std::string command_;
    const WarpBudget& budget_;
    std::string context_;
    bool stop_ = false;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::thread thread_;
};

}  // namespace gpuwcrt::app
