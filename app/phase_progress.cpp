#include "app/phase_progress.hpp"

#include <algorithm>
#include <chrono>
#include <iostream>

namespace gpuwcrt::app {

Progress::Progress(std::string command, std::function<std::string()> status)
    : command_(std::move(command)),
      status_(std::move(status)),
      start_(std::chrono::steady_clock::now()),
      last_(start_ + quiet - every) {
    if (status_) thread_ = std::thread([this] { phase_loop(); });  // reports the status before any phase
}

Progress::~Progress() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void Progress::set_phase(std::string phase) {
    std::lock_guard lock(mutex_);
    phase_ = std::move(phase);
    if (!thread_.joinable()) thread_ = std::thread([this] { phase_loop(); });
}

void Progress::watch(const Budget& budget) {
    std::lock_guard lock(mutex_);
    budget_ = budget;
    if (!thread_.joinable()) thread_ = std::thread([this] { tick_loop(); });
}

std::chrono::milliseconds Progress::elapsed() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start_);
}

void Progress::say(const std::string& line) {
    std::lock_guard lock(mutex_);
    if (elapsed() >= quiet) print(line);
}

ProgressSink Progress::sink() {
    return [this](const std::string& line) { say(line); };
}

void Progress::print(const std::string& line) {
    const long long ms = elapsed().count();
    std::cerr << "gpuwcrt " + command_ + " [" + std::to_string(ms / 1000) + "." + std::to_string(ms % 1000 / 100) +
                     " s] " + line + "\n"
              << std::flush;
    last_ = std::chrono::steady_clock::now();
}

bool Progress::due(const std::string& what, std::chrono::steady_clock::time_point now) {
    if (what == last_what_ && now < last_ + unchanged_every) return false;
    last_what_ = what;
    return true;
}

void Progress::phase_loop() {
    using namespace std::chrono;
    auto next = start_ + seconds(1);
    std::unique_lock lock(mutex_);
    while (!wake_.wait_until(lock, next, [this] { return stop_; })) {
        std::string what = phase_;
        if (status_) what += (what.empty() ? "" : ", ") + status_();
        next += seconds(3);
        if (!due(what, steady_clock::now())) continue;
        std::cerr << "gpuwcrt " + command_ + ": " + what + ", " +
                         std::to_string(duration_cast<seconds>(steady_clock::now() - start_).count()) + " s\n"
                  << std::flush;
        last_ = steady_clock::now();
    }
}

std::string Progress::counters_line() const {
    const RunCounters& c = budget_->counters();
    std::string line = c.phase.load();
    if (line.empty()) line = "starting";
    if (const auto n = c.operations.load())
        line += ", " + std::to_string(c.decided.load()) + " of " + std::to_string(n) + " operations decided";
    if (const std::string worst = c.worst_open.get(); !worst.empty()) line += ", worst open " + worst;
    if (const auto n = c.states.load()) line += ", " + std::to_string(n) + " states";
    if (const auto n = c.checks.load()) line += ", " + std::to_string(n) + " solver checks";
    return line;
}

void Progress::tick_loop() {
    std::unique_lock lock(mutex_);
    auto next = last_ + every;
    while (!wake_.wait_until(lock, next, [this] { return stop_; })) {
        const auto now = std::chrono::steady_clock::now();
        next = std::max(now, last_) + every;
        if (now < last_ + every) continue;  // a line was said meanwhile
        if (const std::string line = counters_line(); due(line, now)) print(line);
    }
}

std::function<std::string()> counters_status(const Budget& budget) {
    return [&budget] {
        std::string s = budget.counters().phase.load();
        if (const auto n = budget.counters().states.load()) s += ", " + std::to_string(n) + " states";
        if (const auto n = budget.counters().checks.load()) s += ", " + std::to_string(n) + " solver checks";
        return s;
    };
}

}  // namespace gpuwcrt::app
