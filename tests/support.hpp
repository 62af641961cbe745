#pragma once
// Helpers shared by the test executables.
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "encode/block/block_problem.hpp"
#include "model/generate/random_workload.hpp"
#include "model/io/load_toml.hpp"
#include "sim/scenario.hpp"
#include "sim/schedule.hpp"

namespace gpuwcrt::test {

// Path of a file in the source tree, e.g. source_path("cases/thesis/example.toml").
std::string source_path(const std::string& relative);

struct CliRun {
    int exit_code = -1;
    std::string out, err;
};

// Runs the built `gpuwcrt` binary with `args` (each shell-quoted) and optional standard input.
CliRun run_cli(const std::vector<std::string>& args, const std::string& stdin_text = "");

// Starts the built gpuwcrt with `args` in a child process, its stdout and stderr written to
// `out` and `err`; returns the child's pid (the caller waits for it), -1 when fork failed.
int spawn_cli(const std::vector<std::string>& args, const std::string& out, const std::string& err);

// Loads a workload given as TOML text (name "test.toml" in messages).
Workload workload_from(const std::string& toml);

// Every block-level workload case under cases/, sorted (cases/raravi2010 holds warp-level
// programs, docs/theory/semantics.md §8, which are not workloads).
std::vector<std::string> workload_case_files();

// The bytes of a file ("" when it cannot be read: the assertions on its content then fail).
std::string slurp(const std::string& path);

bool contains(const std::string& text, const std::string& part);
// How often `part` occurs in `text`, overlaps included.
std::size_t occurrences(const std::string& text, const std::string& part);

// What makes an SVG chart unreadable, one message each: two texts that overlap, a text outside
// the canvas, a launch arrow through a text, a text cut with "…" whose whole is in no tooltip, a
// lane title that runs into the lanes. A text's box is the one the chart promises
// (report/gantt_layout.hpp): each character 0.66 font sizes wide (a bold lane title a tenth
// wider), 0.8 font sizes above the baseline and 0.25 below. Empty: readable.
std::vector<std::string> svg_text_problems(const std::string& svg);

// Runs tests/validate_json.py on `text` against docs/schema/SCHEMA.json: its exit code (0 valid,
// 1 invalid, 77 python3-jsonschema missing, so that the caller can skip) and what it printed.
std::pair<int, std::string> validate_json_text(const std::string& schema, const std::string& text);

// num/den as an exact time.
Time fraction(int num, int den);

// A fresh temporary directory for one test; removed by the OS eventually (under /tmp).
std::string temp_dir();
// Writes `text` to DIR/NAME (bytes as given) and returns the path.
std::string write_file(const std::string& dir, const std::string& name, const std::string& text);

// A random workload of `kernels` kernels issued together, one stream each (the bench/wcrt
// family), written to a file, with K1's busy-time bound (docs/theory/encoding.md, "Horizon").
struct SimultaneousCase {
    std::string file;
    Time k1_upper;   // K1's busy-time bound
    Time k1_proven;  // the least upper bound on K1 proven without a search: busy-time or interference
};
SimultaneousCase simultaneous_kernels_file(int kernels, std::uint64_t seed);

// One random concrete scenario of `w`: random same-instant ranks, block times and window
// instants on `grid` steps of each range (interior points included), and under Policy::chooser
// (any SM, docs/theory/semantics.md §5) a random fitting SM for every block; another policy places the blocks itself.
Schedule random_scenario(const Workload& w, std::mt19937_64& rng, int grid, Policy policy = Policy::chooser);

// Small workloads with block-time intervals or issue windows (or both, in 3 of 4 seeds) and,
// by bits of the seed, copies, priorities, the NULL stream, after_stream_idle, several
// operations per stream and 1..3 SMs: small enough for grid enumeration when
// grid_combinations is small.
RandomWorkloadSpec ranges_spec(std::uint64_t seed);

// The operations of the frames tests' workloads (2–3 streams, ranged block times, copies,
// after_stream_idle, sometimes a high-priority stream), drawn from `rng`; the tests give the
// streams their arrivals.
RandomWorkloadSpec frames_spec(std::mt19937_64& rng, int extra_kernels);
// With chance 1/`one_in` per operation, a wait on the first operation of an earlier stream of
// the same period (waits pair frames of one period; earlier streams keep them acyclic).
void add_same_period_waits(Workload& w, std::mt19937_64& rng, int one_in);

// Combinations of grid values that enumeration goes through (times launch orders and SMs).
std::int64_t grid_combinations(const BlockProblem& p);

// The placement policy the differential tests give workload `seed`: any SM, most room and
// first fit in turn.
Policy policy_for(std::uint64_t seed);

// How many seeded workloads a fast differential test draws: all `n` in a normal build, a quarter
// under the sanitizers, whose tier looks for memory errors and undefined behaviour on the same
// code paths rather than for more counterexamples, and runs each workload several times slower.
// Under the sanitizers: a fast test's checks that the seeds drew every feature hold for the full
// count, checked in the normal build, not for the sanitizers' share.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool sanitized = true;
#else
inline constexpr bool sanitized = false;
#endif

constexpr std::uint64_t seeded(std::uint64_t n) {
#if defined(__SANITIZE_ADDRESS__)
    return n < 4 ? n : n / 4;
#else
    return n;
#endif
}

}  // namespace gpuwcrt::test
