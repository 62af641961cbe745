#pragma once
// Lines for the user during a long run, passed down from a command to the engines of every
// layer (an engine's steps, the exact search's levels, the SMT encoding's families); may be empty.
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>

namespace gpuwcrt {

using ProgressSink = std::function<void(const std::string&)>;

// For a caller that waits on a search without polling it (auto starts the abstraction's quick
// pass beside an exact search once it has a head start): `reached` is called from the search's
// thread when the states it stores reach `states`. Empty: nobody waits.
struct StatesSignal {
    std::uint64_t states = 0;
    std::function<void()> reached = {};
};

// The bounds of the worst operation still open, as the progress line shows them ("K3 in
// [2.5, 7.9]"): written by the engine that learns them, read by the line's thread.
class OpenBoundsText {
public:
    void set(std::string text) {
        std::lock_guard lock(mutex_);
        text_ = std::move(text);
    }
    std::string get() const {
        std::lock_guard lock(mutex_);
        return text_;
    }

private:
    mutable std::mutex mutex_;
    std::string text_;
};

}  // namespace gpuwcrt
