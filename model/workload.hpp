#pragma once
// Streams, kernels and copies (docs/theory/semantics.md §3).
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/frames/arrival.hpp"
#include "model/interval.hpp"
#include "model/platform.hpp"
#include "model/source_location.hpp"
#include "model/time.hpp"
#include "model/time_unit.hpp"
#include "model/time_less.hpp"

namespace gpuwcrt {

enum class Priority { high, low };  // TX2: -1 and 0; no priority means low (A1, Amert §4.2)

// A GPU context (time-slice group, one per process): the compute engine runs one context at a
// time, round-robin in file order, each for up to its `timeslice` (docs/theory/semantics.md §10).
struct GpuContext {
    std::string name;
    Time timeslice;
    SourceLocation where;
};

struct Stream {
    std::string name;
    Priority priority = Priority::low;
    bool is_null = false;
    SourceLocation where;
    Arrival arrival;  // once (one frame), or periodic or sporadic frames (docs/theory/semantics.md §9)
    int context = 0;  // index into Workload::contexts (0 when it is empty)
};

// A closed interval; lo == hi for a single value. Simulation uses hi (docs/theory/semantics.md §5).
using TimeRange = Interval<Time>;

// When the host calls the launch/copy API for an operation.
struct IssueSpec {
    enum class Kind {
        at,                 // absolute instant, or window [lo, hi] (stored now, verified later)
        after_stream_idle,  // host synchronises the stream, sleeps `delay`, then issues
        with_previous       // issued right after the stream's previous operation (same instant)
    };
    Kind kind = Kind::at;
    TimeRange at{0, 0};
    Time delay = 0;
    // after_stream_idle inside a frame of a periodic or sporadic stream (set by unroll): the
    // host starts waiting for the idle stream at the frame's release, so the operation is
    // issued at max(release, idle) + delay (docs/theory/semantics.md §9).
    std::optional<TimeRange> release;
    bool is_static() const { return kind == Kind::at; }
};

enum class OpKind { kernel, copy };

struct Operation {
    std::string name;
    OpKind kind = OpKind::kernel;
    int stream = 0;    // index into Workload::streams
    int position = 0;  // index within its stream's list
    // Kernels only.
    std::int64_t blocks = 0;      // grid size g
    std::int64_t threads = 0;     // per block, b
    std::int64_t shared_mem = 0;  // bytes per block
    std::int64_t registers = 0;   // per thread
    // Block execution time C of a kernel, or the duration of a copy.
    TimeRange time{1, 1};
    IssueSpec issue;
    std::optional<Time> deadline;  // relative to the issue time
    // Operations of the same frame that must have completed before this one joins its EE or
    // CE queue (cudaStreamWaitEvent on events recorded after them; docs/theory/semantics.md §9).
    std::vector<int> wait;
    SourceLocation where;

    bool is_kernel() const { return kind == OpKind::kernel; }
    BlockDemand demand() const { return {threads, shared_mem, registers * threads}; }
};

// Expected results recorded next to a case, each traceable to a paper sentence or a derivation.
struct Expectation {
    std::string note;
    std::vector<std::string> order;     // launch order; empty = file order
    std::optional<std::string> policy;  // SM placement policy name
    std::map<std::string, Time> start, finish, response;
    struct Block {
        std::string kernel;
        std::int64_t index = 0;
        std::optional<Time> start, end;
        std::optional<int> sm;
    };
    std::vector<Block> blocks;
    std::map<std::string, Time> rta_finish;  // thesis RTA (bounds/) for this order
    std::map<std::string, Time> wcrt;        // worst case over all scenarios
    // With periodic or sporadic streams: the frames simulated per stream (`frames = N`), the
    // names then being those of the unrolled operations (NAME#k); empty: the default horizon.
    std::optional<std::int64_t> frames;
    SourceLocation where;
};

// A [scenario] table: fixes what docs/theory/semantics.md §5 leaves open, e.g. in a counterexample written by
// `certify --counterexample`, so that `gpuwcrt simulate` reproduces it.
struct FixedScenario {
    std::vector<std::string> order;              // launch order (as --order)
    std::optional<std::string> policy;           // SM placement policy name
    std::map<std::string, std::vector<int>> sm;  // kernel -> SM of each block, in index order
    // Operation -> time of each block (a copy: its duration), each within its interval; an
    // operation not named runs at the interval's upper end (docs/theory/semantics.md §5, simulation column).
    std::map<std::string, std::vector<Time>> block_time;
    std::map<std::string, Time> issue;  // operation -> issue instant within its window
    SourceLocation where;
};

struct Workload {
    std::string source;     // file name it came from, for messages
    std::string title;      // the file's `title = "…"`, for chart headings; else ""
    std::string time_unit;  // "s", "ms", "us", "ns" when the file says (model/time_unit.hpp); else ""
    // The file's `assumptions = ["…", …]`: what its values rest on (an importer's defaults and
    // the values its options supplied), which every certificate about it repeats.
    std::vector<std::string> assumptions;
    Platform platform;
    // Empty: every stream is in one implicit context, which never switches.
    std::vector<GpuContext> contexts;
    std::vector<Stream> streams;
    std::vector<Operation> ops;  // file order
    std::vector<Expectation> expectations;
    std::optional<FixedScenario> scenario;

    std::optional<int> find_op(const std::string& name) const;  // O(ops): for a few names
    std::unordered_map<std::string, int> op_index() const;      // name -> index, for many
    std::vector<int> stream_ops(int stream) const;              // in list order
    int null_stream() const;                                    // -1 if none
    std::int64_t total_blocks() const;                          // of every kernel; <= 2^62 once loaded
    bool repeats() const;                                       // some stream is periodic or sporadic
    bool has_wait() const;                                      // some operation waits on another
    // The GPU switches between contexts: two or more (one context alone never switches).
    bool sliced() const { return contexts.size() > 1; }
    int context_count() const { return contexts.empty() ? 1 : static_cast<int>(contexts.size()); }
};

}  // namespace gpuwcrt
