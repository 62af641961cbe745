#pragma once
// What the runs of one campaign showed: per-command exit histograms, failure classes (deduped,
// one reproducer each) and the summary. Thread-safe.
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "commands.hpp"
#include "limited_run.hpp"
#include "mutate.hpp"

namespace gpuwcrt::fuzz {

struct RunRecord {
    std::uint64_t index = 0;
    const Command* command = nullptr;
    std::vector<std::string> args;  // after the binary, with the run's own paths
    std::string input_path, output_path;
    Mutant mutant;
    RunOutcome outcome;
    std::string stderr_text;
    bool output_exists = false;
};

// The failure class of a run, or "" when the run is fine: exit 0..3 is fine, except an input
// error (3) that left its output file; exit 4, any other code, a signal, the CPU-time limit or
// the wall-clock backstop are failures.
std::string failure_class(const RunRecord& r);

class Findings {
public:
    Findings(std::string binary, std::string out_dir, std::uint64_t seed, Limits limits);

    // Records one run; saves a reproducer when its failure is new. Returns the failure class.
    std::string add(const RunRecord& r);

    // Saves this run's files as OUT_DIR/name whatever its outcome (for --only).
    void keep(const RunRecord& r, const std::string& name) const;

    std::uint64_t runs() const;
    std::uint64_t failures() const;
    // The full report; its last line is `fuzz: N runs, F failures`.
    std::string summary(double wall_seconds, unsigned jobs) const;

private:
    struct Class {
        std::string name, command, message;
        std::vector<std::string> reproducers;  // the first few runs of the class
        std::uint64_t count = 0;
    };
    struct PerCommand {
        std::uint64_t runs = 0;
        std::map<std::string, std::uint64_t> outcomes;  // "exit 0", "signal 11", "over limit"
        double slowest = 0;
        std::uint64_t slowest_run = 0;
        std::uint64_t late = 0;  // CPU time over its own --timeout + 1 s, but within the hard limits
    };

    std::string save_reproducer(const RunRecord& r, const std::string& cls, const std::string& name) const;

    std::string binary_, out_dir_;
    std::uint64_t seed_;
    Limits limits_;
    mutable std::mutex mutex_;
    std::uint64_t runs_ = 0, failures_ = 0;
    std::map<std::string, PerCommand> per_command_;
    std::map<std::string, Class> classes_;               // by dedupe key
    std::map<std::string, std::uint64_t> input_errors_;  // exit 3 messages, normalised: what the mutants reach
    std::vector<std::string> class_order_;
    std::vector<std::string> late_examples_;
};

}  // namespace gpuwcrt::fuzz
