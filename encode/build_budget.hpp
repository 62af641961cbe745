#pragma once
// What building an encoding may spend. Large encodings take seconds and gigabytes to build,
// so --timeout must reach into their construction: the constructors call check() inside
// every constraint family's loops (each iteration costs far more than reading the clock),
// and stop within milliseconds of the deadline instead of finishing a term nobody can solve.
#include <chrono>
#include <functional>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace gpuwcrt {

// Thrown by check() inside an encoding's constructor once the deadline has passed; the
// constructor catches it and returns an interrupted encoding, which the engine discards,
// answering "unknown (timeout)" with what it has already proven.
struct BuildDeadlinePassed : std::runtime_error {
    BuildDeadlinePassed() : std::runtime_error("the deadline passed while building the encoding") {}
};

struct BuildBudget {
    std::optional<std::chrono::steady_clock::time_point> deadline;  // nullopt = none
    std::function<void(const std::string&)> progress;             // a line for the user; may be empty

    void check() const {
        if (deadline && std::chrono::steady_clock::now() >= *deadline) throw BuildDeadlinePassed();
    }
    void say(const std::string& line) const {
        if (progress) progress(line);
    }
    // Builds an encoding's constraint families in order, announcing each; false when the
    // deadline passed on the way (what was built stays: the encoding marks itself interrupted).
    bool build(std::initializer_list<std::pair<const char*, std::function<void()>>> families) const {
        try {
            for (const auto& [name, family] : families) {
                say(name);
                family();
            }
        } catch (const BuildDeadlinePassed&) {
            return false;
        }
        return true;
    }
};

}  // namespace gpuwcrt
