#pragma once
// Progress on stderr: nothing during the first second, then one line every 3 s, from a thread
// of its own, so that one long step (loading 10^6 kernels, a Z3 check) still reports. The line
// is the phase set last, followed by what `status` says (e.g. a warp engine's counters).
#include <chrono>
#include <condition_variable>
#include <functional>
#include <optional>
#include <mutex>
#include <string>
#include <thread>

#include "common/budget.hpp"

namespace gpuwcrt::app {

class PhaseProgress {
public:
    explicit PhaseProgress(std::string command, std::function<std::string()> status = {});
    ~PhaseProgress();  // stops the thread
    PhaseProgress(const PhaseProgress&) = delete;
    PhaseProgress& operator=(const PhaseProgress&) = delete;

    void set_phase(std::string phase);  // e.g. "loading w.toml"

private:
    void report_loop();

    std::string command_, phase_;
    std::function<std::string()> status_;
    bool stop_ = false;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::thread thread_;
};

// Progress of wcrt, certify and rta-check on stderr: the engines' lines when they happen and,
// whenever nothing was said for `every`, a line from the run's counters (the step running,
// operations decided, states stored), so that a run longer than a second is never silent for
// a second. Nothing during the first `quiet`: a run that ends by then prints nothing.
class Progress {
public:
    explicit Progress(std::string command);
    ~Progress();  // stops the thread
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    static constexpr std::chrono::milliseconds quiet{700}, every{900};

    // Ticks from now on with the counters of `budget` (shared with its slices).
    void watch(const Budget& budget);
    void say(const std::string& line);
    std::chrono::milliseconds elapsed() const;
    std::function<void(const std::string&)> sink();  // say(), for an engine

private:
    void print(const std::string& line);  // mutex_ held
    void tick_loop();

    std::string command_;
    std::chrono::steady_clock::time_point start_, last_;
    std::optional<Budget> budget_;
    bool stop_ = false;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::thread thread_;
};

}  // namespace gpuwcrt::app
