#include "app/phase_progress.hpp"

#include <chrono>
#include <iostream>

namespace gpuwcrt::app {

PhaseProgress::PhaseProgress(std::string command, std::function<std::string()> status)
    : command_(std::move(command)), status_(std::move(status)), thread_([this] { report_loop(); }) {}

PhaseProgress::~PhaseProgress() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

void PhaseProgress::set_phase(std::string phase) {
    std::lock_guard lock(mutex_);
    phase_ = std::move(phase);
}

void PhaseProgress::report_loop() {
    using namespace std::chrono;
    const auto start = steady_clock::now();
    auto next = start + seconds(1);
    std::unique_lock lock(mutex_);
    while (!wake_.wait_until(lock, next, [this] { return stop_; })) {
        std::string what = phase_;
        if (status_) what += (what.empty() ? "" : ", ") + status_();
        std::cerr << "gpuwcrt " + command_ + ": " + what + ", " +
                         std::to_string(duration_cast<seconds>(steady_clock::now() - start).count()) + " s\n"
                  << std::flush;
        next += seconds(3);
    }
}

}  // namespace gpuwcrt::app
