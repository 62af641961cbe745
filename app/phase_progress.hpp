#pragma once
// Progress on stderr for commands without counters of their own (simulate, rta, import-examiner,
// compare-trace): nothing during the first second, then the current phase every 3 s, from a
// thread of its own, so that one long step (loading 10^6 kernels) still reports.
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace gpuwcrt::app {

class PhaseProgress {
public:
    explicit PhaseProgress(std::string command);
    ~PhaseProgress();  // stops the thread
    PhaseProgress(const PhaseProgress&) = delete;
    PhaseProgress& operator=(const PhaseProgress&) = delete;

    void set_phase(std::string phase);  // e.g. "loading w.toml"

private:
    void report_loop();

    std::string command_, phase_;
    bool stop_ = false;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::thread thread_;
};

}  // namespace gpuwcrt::app
