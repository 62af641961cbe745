#include "app/warp_progress.hpp"

#include <chrono>
#include <iostream>
#include <sstream>

namespace gpuwcrt::app {

WarpProgress::WarpProgress(std::string command, const WarpBudget& budget)
    : command_(std::move(command)), budget_(budget), thread_([this] { report_loop(); }) {}

WarpProgress::~WarpProgress() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

void WarpProgress::set_context(std::string context) {
    std::lock_guard lock(mutex_);
    context_ = std::move(context);
}

void WarpProgress::report_loop() {
    using namespace std::chrono;
    const auto start = steady_clock::now();
    auto next = start + seconds(1);
    std::unique_lock lock(mutex_);
    while (!wake_.wait_until(lock, next, [this] { return stop_; })) {
        std::ostringstream line;
        line << "gpuwcrt " << command_ << ": ";
        if (!context_.empty()) line << context_ << ", ";
        line << budget_.phase.load();
        if (const auto n = budget_.states.load()) line << ", " << n << " states";
        if (const auto n = budget_.checks.load()) line << ", " << n << " solver checks";
        line << ", " << duration_cast<seconds>(steady_clock::now() - start).count() << " s\n";
        std::cerr << line.str() << std::flush;
        next += seconds(3);
    }
}

}  // namespace gpuwcrt::app
