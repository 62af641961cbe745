#pragma once
// Progress on stderr: nothing during the first second, then one line every 3 s, from a thread
// of its own, so that one long step (loading 10^6 kernels, a Z3 check) still reports. The line
// is the phase set last, followed by what `status` says (e.g. a warp engine's counters).
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

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

}  // namespace gpuwcrt::app
