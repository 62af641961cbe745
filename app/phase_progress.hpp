#pragma once
// Progress on stderr, from a thread of its own so that one long step (loading 10^6 kernels, a
// Z3 check) still reports; the one progress type of the commands. Two kinds of command use it:
// - by phases (set_phase): nothing during the first second, then every 3 s the phase set last,
//   followed by what `status` says (e.g. a warp engine's counters);
// - by lines (watch, say: wcrt, certify, rta-check): the engines' lines when they happen and,
//   whenever nothing was said for `every`, a line from the run's counters (the step running,
//   operations decided, the worst open operation's proven bounds, states stored), never more
//   than a line per `every` of its own. Nothing during the first `quiet`: a run that ends by
//   then prints nothing.
// Either kind repeats a line that says what the last one said only after `unchanged_every`: a
// line is news when a count or a bound in it moved; the same line every second is noise that
// hides the one that matters, and one every few seconds still shows the run is alive.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "common/budget.hpp"
#include "common/progress.hpp"

namespace gpuwcrt::app {

class Progress {
public:
    explicit Progress(std::string command, std::function<std::string()> status = {});
    ~Progress();  // stops the thread
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    static constexpr std::chrono::milliseconds quiet{700}, every{900}, unchanged_every{5000};

    void set_phase(std::string phase);  // e.g. "loading w.toml", "point 3/16 (…)"
    // Ticks from now on with the counters of `budget` (shared with its slices).
    void watch(const Budget& budget);
    void say(const std::string& line);
    std::chrono::milliseconds elapsed() const;
    ProgressSink sink();  // say(), for an engine

private:
    void print(const std::string& line);  // mutex_ held
    void phase_loop();
    void tick_loop();
    std::string counters_line() const;  // mutex_ held
    // Whether `what` is to be printed now, and if so remembered as the last line said.
    bool due(const std::string& what, std::chrono::steady_clock::time_point now);

    std::string command_, phase_, last_what_;
    std::function<std::string()> status_;
    std::chrono::steady_clock::time_point start_, last_;
    std::optional<Budget> budget_;
    bool stop_ = false;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::thread thread_;
};

// A warp run's status: what runs and its counters (states stored / solver checks), read from `budget`.
std::function<std::string()> counters_status(const Budget& budget);

}  // namespace gpuwcrt::app
