#include "model/io/load_toml.hpp"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <iterator>
#include <set>
#include <sstream>
#include <unordered_map>

#include "model/input_limits.hpp"
#include "model/io/array_of_tables.hpp"
#include "model/io/cpu/read_cpu.hpp"
#include "model/frames/frame_name.hpp"
#include "model/io/contexts/read_contexts.hpp"
#include "model/io/frames/read_frames.hpp"
#include "model/name_policy.hpp"
#include "model/io/read_input.hpp"
#include "model/io/toml_reader.hpp"
#include "model/validate.hpp"

namespace gpuwcrt {
namespace {

// Counts and sizes up to `max` (model/input_limits.hpp), so that every product stays in 64 bits.
std::int64_t positive_integer(const TomlReader& r, const TomlNode& n, const char* key,
                              std::int64_t max = limits::max_resource) {
    std::int64_t v = r.integer(n, key);
    if (v <= 0) r.fail(n, std::string("'") + key + "' must be > 0, got " + std::to_string(v));
    return r.integer_in(n, key, 1, max);
}

std::int64_t nonnegative_integer(const TomlReader& r, const TomlNode& n, const char* key,
                                 std::int64_t max = limits::max_resource) {
    std::int64_t v = r.integer(n, key);
    if (v < 0) r.fail(n, std::string("'") + key + "' must be >= 0, got " + std::to_string(v));
    return r.integer_in(n, key, 0, max);
}

void read_platform(const TomlReader& r, const TomlTable& t, Platform& p) {
    r.only_keys(t,
                {"sms", "threads_per_sm", "threads_per_block_max", "shared_mem_per_sm", "shared_mem_per_block_max",
                 "registers_per_sm", "registers_per_block_max", "blocks_per_sm_max", "copy_engines", "context_switch"},
                "[platform]");
    // Each value is range-checked before the cast, so the cast never changes it.
    auto set = [&](const char* key, auto& field, std::int64_t max = limits::max_resource) {
        if (const TomlNode* n = t.get(key))
            field = static_cast<std::remove_reference_t<decltype(field)>>(positive_integer(r, *n, key, max));
    };
    set("sms", p.sms, limits::max_sms);
    set("threads_per_sm", p.threads_per_sm);
    set("threads_per_block_max", p.threads_per_block_max);
    set("shared_mem_per_sm", p.shared_mem_per_sm);
    set("shared_mem_per_block_max", p.shared_mem_per_block_max);
    set("registers_per_sm", p.registers_per_sm);
    set("registers_per_block_max", p.registers_per_block_max);
    set("blocks_per_sm_max", p.blocks_per_sm_max);
    set("copy_engines", p.copy_engines, limits::max_copy_engines);
}

Priority read_priority(const TomlReader& r, const TomlNode& n) {
    if (auto i = n.value_exact<std::int64_t>()) {
        if (*i == -1) return Priority::high;
        if (*i == 0) return Priority::low;
    } else if (auto s = n.value_exact<std::string>()) {
        if (*s == "high") return Priority::high;
        if (*s == "low" || *s == "none") return Priority::low;
    }
    r.fail(n, "'priority' must be \"high\" (-1), \"low\" (0) or \"none\" (= low on the TX2)");
}

// Names seen so far, so that each lookup is O(1): with one stream per kernel, scanning the
// streams or operations for every new one would be quadratic in the workload's size.
struct SeenNames {
    std::unordered_map<std::string, int> streams, ops;
    std::vector<int> null_stream;  // per context
};

void read_streams(const TomlReader& r, Workload& w, SeenNames& seen) {
    const TomlArray* arr = array_of_tables(r, "stream");
    if (!arr) return;
    for (const TomlNode& node : *arr) {
        const TomlTable& t = *node.as_table();
        r.only_keys(t, {"name", "priority", "null", "period", "min_interarrival", "offset", "jitter", "context"},
                    "[[stream]]");
        Stream s;
        s.where = r.where(t);
        s.name = r.name(r.required(t, "name", "[[stream]]"), "name", "stream name");
        if (const TomlNode* p = t.get("priority")) s.priority = read_priority(r, *p);
        if (const TomlNode* n = t.get("null")) s.is_null = r.boolean(*n, "null");
        s.arrival = read_arrival(r, t);
        s.context = read_stream_context(r, t, w);
        auto same = seen.streams.find(s.name);
        const int twice = same == seen.streams.end() ? -1 : same->second;
        seen.null_stream.resize(w.context_count(), -1);
        const int null_too = s.is_null ? seen.null_stream[s.context] : -1;
        if (twice >= 0 && (null_too < 0 || twice <= null_too)) {
            const Stream& other = w.streams[twice];
            throw InputError(s.where, "stream '" + s.name + "' is declared twice (first at " + other.where.str() + ")");
        }
        if (null_too >= 0) {
            const Stream& other = w.streams[null_too];
            throw InputError(s.where, "a second NULL stream '" + s.name +
                                          "': a GPU context has one NULL stream (first: '" + other.name + "' at " +
                                          other.where.str() + ")");
        }
        if (s.is_null) seen.null_stream[s.context] = static_cast<int>(w.streams.size());
        seen.streams.emplace(s.name, static_cast<int>(w.streams.size()));
        w.streams.push_back(std::move(s));
    }
}

// Operations keep their order of appearance in the file, kernels and copies interleaved,
// because that is the order of the CUDA calls in each stream.
struct RawOp {
    const TomlTable* table;
    OpKind kind;
};

void read_issue(const TomlReader& r, const TomlTable& t, Operation& op, bool first_in_stream) {
    const TomlNode* issue = t.get("issue");
    const TomlNode* idle = t.get("after_stream_idle");
    if (issue && idle) r.fail(*idle, "give either 'issue' or 'after_stream_idle', not both");
    if (issue) {
        op.issue.kind = IssueSpec::Kind::at;
        op.issue.at = r.time_range(*issue, "issue");
        if (op.issue.at.lo.sign() < 0) r.fail(*issue, "'issue' must be >= 0");
    } else if (idle) {
        op.issue.kind = IssueSpec::Kind::after_stream_idle;
        op.issue.delay = r.time(*idle, "after_stream_idle");
        if (op.issue.delay.sign() < 0) r.fail(*idle, "'after_stream_idle' must be >= 0");
    } else {
        op.issue.kind = first_in_stream ? IssueSpec::Kind::at : IssueSpec::Kind::with_previous;
    }
}

void read_deadline(const TomlReader& r, const TomlTable& t, Operation& op) {
    if (const TomlNode* d = t.get("deadline")) {
        op.deadline = r.time(*d, "deadline");
        if (op.deadline->sign() <= 0) r.fail(*d, "'deadline' must be > 0");
    }
}

int stream_for(const TomlReader& r, const TomlTable& t, Workload& w, const std::string& op_name, SeenNames& seen) {
    if (const TomlNode* s = t.get("stream")) {
        std::string name = r.name(*s, "stream", "stream");
        if (auto it = seen.streams.find(name); it != seen.streams.end()) return it->second;
        r.fail(*s, "unknown stream '" + name + "' (declare it with [[stream]] name = \"" + name + "\")");
    }
    if (!w.contexts.empty())
        r.fail(t, "'" + op_name +
                      "' has no 'stream': with [[context]] tables every operation is in a [[stream]] "
                      "that names its context");
    // No stream given: the operation gets a low-priority stream of its own, named after it.
    if (!seen.streams.try_emplace(op_name, static_cast<int>(w.streams.size())).second)
        r.fail(t,
               "'" + op_name + "' has no 'stream' but a stream of that name exists; say stream = \"" + op_name + "\"");
    Stream s;
    s.name = op_name;
    s.where = r.where(t);
    w.streams.push_back(std::move(s));
    return static_cast<int>(w.streams.size()) - 1;
}

Operation read_op(const TomlReader& r, const RawOp& raw, Workload& w, std::vector<int>& count, SeenNames& seen) {
    const TomlTable& t = *raw.table;
    const bool kernel = raw.kind == OpKind::kernel;
    const std::string what = kernel ? "[[kernel]]" : "[[copy]]";
    if (kernel)
        r.only_keys(t,
                    {"name", "stream", "blocks", "threads", "shared_mem", "registers", "block_time", "issue",
                     "after_stream_idle", "deadline", "wait"},
                    what);
    else r.only_keys(t, {"name", "stream", "duration", "issue", "after_stream_idle", "deadline", "wait"}, what);
    Operation op;
    op.kind = raw.kind;
    op.where = r.where(t);
    op.name = r.name(r.required(t, "name", what), "name", "operation name");
    // read_ops appends it next.
    if (auto [prev, fresh] = seen.ops.try_emplace(op.name, static_cast<int>(w.ops.size())); !fresh)
        r.fail(t, "operation name '" + op.name + "' is used twice (first at " + w.ops[prev->second].where.str() + ")");
    op.stream = stream_for(r, t, w, op.name, seen);
    count.resize(w.streams.size(), 0);
    op.position = count[op.stream]++;
    const char* time_key = kernel ? "block_time" : "duration";
    const TomlNode& tn = r.required(t, time_key, what);
    op.time = r.time_range(tn, time_key);
    if (op.time.lo.sign() <= 0)
        r.fail(tn, std::string("'") + time_key + "' must be > 0 (got " + human_string(op.time.lo) + ")");
    if (kernel) {
        op.blocks = positive_integer(r, r.required(t, "blocks", what), "blocks", limits::max_blocks);
        op.threads = positive_integer(r, r.required(t, "threads", what), "threads");
        if (const TomlNode* n = t.get("shared_mem")) op.shared_mem = nonnegative_integer(r, *n, "shared_mem");
        if (const TomlNode* n = t.get("registers")) op.registers = nonnegative_integer(r, *n, "registers");
    }
    read_issue(r, t, op, op.position == 0);
    read_deadline(r, t, op);
    return op;
}

void read_ops(const TomlReader& r, Workload& w, SeenNames& seen) {
    std::vector<RawOp> raw;
    for (auto [key, kind] : {std::pair{"kernel", OpKind::kernel}, std::pair{"copy", OpKind::copy}})
        if (const TomlArray* arr = array_of_tables(r, key))
            for (const TomlNode& n : *arr) raw.push_back({n.as_table(), kind});
    std::stable_sort(raw.begin(), raw.end(), [](const RawOp& a, const RawOp& b) {
        const auto &pa = a.table->source().begin, &pb = b.table->source().begin;
        return pa.line != pb.line ? pa.line < pb.line : pa.column < pb.column;
    });
    // Reserved, so that no operation or stream is copied as the vectors grow.
    std::size_t own_streams = 0;
    for (const RawOp& op : raw) own_streams += op.table->contains("stream") ? 0 : 1;
    w.streams.reserve(w.streams.size() + own_streams);
    w.ops.reserve(raw.size());
    seen.streams.reserve(w.streams.size() + own_streams);
    seen.ops.reserve(raw.size());
    std::vector<int> count;
    std::vector<const TomlTable*> tables;
    tables.reserve(raw.size());
    for (const RawOp& op : raw) {
        w.ops.push_back(read_op(r, op, w, count, seen));
        tables.push_back(op.table);
    }
    read_waits(r, tables, seen.ops, w);  // a wait may name an operation further down the file
}

std::map<std::string, Time> read_time_map(const TomlReader& r, const Workload& w, const TomlNode& n, const char* key) {
    std::map<std::string, Time> out;
    for (auto&& [k, v] : r.table(n, key)) {
        if (!frame_name_origin(w, k.str()))
            throw InputError(r.where(k), "expectation names unknown operation " + quoted_name(k.str()));
        out[std::string(k.str())] = r.time(v, key);
    }
    return out;
}

Expectation::Block read_expected_block(const TomlReader& r, const Workload& w, const TomlNode& n) {
    const TomlTable& t = r.table(n, "block");
    r.only_keys(t, {"kernel", "index", "start", "end", "sm"}, "expected block");
    Expectation::Block b;
    b.kernel = r.string(r.required(t, "kernel", "expected block"), "kernel");
    const auto op = frame_name_origin(w, b.kernel);
    if (!op || !w.ops[*op].is_kernel()) r.fail(t, "expectation names unknown kernel " + quoted_name(b.kernel));
    b.index = nonnegative_integer(r, r.required(t, "index", "expected block"), "index", w.ops[*op].blocks - 1);
    if (const TomlNode* v = t.get("start")) b.start = r.time(*v, "start");
    if (const TomlNode* v = t.get("end")) b.end = r.time(*v, "end");
    if (const TomlNode* v = t.get("sm")) b.sm = static_cast<int>(nonnegative_integer(r, *v, "sm", w.platform.sms - 1));
    return b;
}

// With periodic or sporadic streams an expectation is about the frames simulated (`frames`,
// else the default horizon) and names unrolled operations; no analysis covers frames yet.
void read_expected_frames(const TomlReader& r, const TomlTable& t, const Workload& w, Expectation& e) {
    const TomlNode* frames = t.get("frames");
    if (!w.repeats()) {
        if (frames) r.fail(*frames, "'frames' needs a periodic or sporadic stream in the workload");
        return;
    }
    if (frames) e.frames = positive_integer(r, *frames, "frames", limits::max_frames);
    for (const char* key : {"rta_finish", "wcrt"})
        if (const TomlNode* n = t.get(key))
            r.fail(*n, std::string("'") + key +
                           "' in a workload with periodic or sporadic streams: no analysis covers frames yet");
}

void read_expectations(const TomlReader& r, Workload& w) {
    const TomlArray* arr = array_of_tables(r, "expect");
    if (!arr) return;
    for (const TomlNode& node : *arr) {
        const TomlTable& t = *node.as_table();
        r.only_keys(t,
                    {"note", "order", "policy", "start", "finish", "response", "block", "rta_finish", "wcrt", "frames"},
                    "[[expect]]");
        Expectation e;
        e.where = r.where(t);
        read_expected_frames(r, t, w, e);
        if (const TomlNode* n = t.get("note")) e.note = r.string(*n, "note");
        if (const TomlNode* n = t.get("order"))
            for (const TomlNode& name : r.array(*n, "order")) e.order.push_back(r.string(name, "order"));
        if (const TomlNode* n = t.get("policy")) e.policy = r.string(*n, "policy");
        if (const TomlNode* n = t.get("start")) e.start = read_time_map(r, w, *n, "start");
        if (const TomlNode* n = t.get("finish")) e.finish = read_time_map(r, w, *n, "finish");
        if (const TomlNode* n = t.get("response")) e.response = read_time_map(r, w, *n, "response");
        if (const TomlNode* n = t.get("rta_finish")) e.rta_finish = read_time_map(r, w, *n, "rta_finish");
        if (const TomlNode* n = t.get("wcrt")) e.wcrt = read_time_map(r, w, *n, "wcrt");
        if (const TomlNode* n = t.get("block"))
            for (const TomlNode& b : r.array(*n, "block")) e.blocks.push_back(read_expected_block(r, w, b));
        w.expectations.push_back(std::move(e));
    }
}

std::string range_text(const TimeRange& x) {
    std::string s = "[";
    s += human_string(x.lo);
    s += ", ";
    s += human_string(x.hi);
    return s + "]";
}

// [scenario] block_time = { K1 = [1, 1.5] } and issue = { K2 = 0.5 }: one concrete value per
// block (a copy: its duration) inside its interval, and an issue instant inside its window.
void read_scenario_times(const TomlReader& r, const TomlTable& t, const Workload& w, const SeenNames& seen,
                         FixedScenario& f) {
    auto op_of = [&](const TomlKey& k, const char* what) {
        const std::string name(k.str());
        auto found = seen.ops.find(name);
        if (found == seen.ops.end())
            throw InputError(r.where(k),
                             std::string("[scenario] ") + what + " names unknown operation " + quoted_name(name));
        return found->second;
    };
    if (const TomlNode* n = t.get("block_time")) {
        for (auto&& [k, v] : r.table(*n, "block_time")) {
            const Operation& op = w.ops[op_of(k, "block_time")];
            const TomlArray& a = r.array(v, "block_time");
            const std::int64_t count = op.is_kernel() ? op.blocks : 1;
            if (static_cast<std::int64_t>(a.size()) != count)
                r.fail(v, "[scenario] block_time for '" + op.name + "' lists " + std::to_string(a.size()) +
                              " times but it has " + std::to_string(count) +
                              (op.is_kernel() ? " blocks" : " duration"));
            std::vector<Time> times;
            for (const TomlNode& x : a) {
                times.push_back(r.time(x, "block_time"));
                if (times.back() < op.time.lo || times.back() > op.time.hi)
                    r.fail(x, "[scenario] block_time " + human_string(times.back()) + " of '" + op.name +
                                  "' is outside its interval " + range_text(op.time));
            }
            f.block_time[op.name] = std::move(times);
        }
    }
    if (const TomlNode* n = t.get("issue")) {
        for (auto&& [k, v] : r.table(*n, "issue")) {
            const Operation& op = w.ops[op_of(k, "issue")];
            const Time at = r.time(v, "issue");
            if (op.issue.kind != IssueSpec::Kind::at || at < op.issue.at.lo || at > op.issue.at.hi)
                r.fail(v, "[scenario] issue " + human_string(at) + " of '" + op.name +
                              "' is outside its issue window " +
                              (op.issue.kind == IssueSpec::Kind::at
                                   ? range_text(op.issue.at)
                                   : std::string("(it has none: it is issued after its stream)")));
            f.issue[op.name] = at;
        }
    }
}

void read_scenario(const TomlReader& r, const TomlTable& t, Workload& w, const SeenNames& seen) {
    if (w.repeats())
        r.fail(t,
               "[scenario] in a workload with periodic or sporadic streams is not supported: it would fix one "
               "frame's choices; `gpuwcrt simulate --order` orders the operations of every frame (NAME#k)");
    r.only_keys(t, {"order", "policy", "sm", "block_time", "issue"}, "[scenario]");
    FixedScenario f;
    f.where = r.where(t);
    if (const TomlNode* n = t.get("order"))
        for (const TomlNode& name : r.array(*n, "order")) {
            f.order.push_back(r.name(name, "order", "[scenario] order: name"));
            if (!w.find_op(f.order.back()))
                r.fail(name, "[scenario] order names unknown operation " + quoted_name(f.order.back()));
        }
    if (const TomlNode* n = t.get("policy")) f.policy = r.string(*n, "policy");
    if (const TomlNode* n = t.get("sm")) {
        for (auto&& [k, v] : r.table(*n, "sm")) {
            const std::string name(k.str());
            auto found = seen.ops.find(name);
            std::optional<int> op;
            if (found != seen.ops.end()) op = found->second;
            if (!op || !w.ops[*op].is_kernel())
                throw InputError(r.where(k), "[scenario] sm names unknown kernel " + quoted_name(name));
            const TomlArray& a = r.array(v, "sm");
            if (static_cast<std::int64_t>(a.size()) != w.ops[*op].blocks)
                r.fail(v, "[scenario] sm for '" + name + "' lists " + std::to_string(a.size()) +
                              " SMs but the kernel has " + std::to_string(w.ops[*op].blocks) + " blocks");
            std::vector<int> sms;
            for (const TomlNode& x : a) {
                std::int64_t v2 = nonnegative_integer(r, x, "sm");
                if (v2 >= w.platform.sms)
                    r.fail(x, "SM " + std::to_string(v2) + " does not exist (the platform has " +
                                  std::to_string(w.platform.sms) + ")");
                sms.push_back(static_cast<int>(v2));
            }
            f.sm[name] = std::move(sms);
        }
    }
    read_scenario_times(r, t, w, seen, f);
    w.scenario = std::move(f);
}

}  // namespace

Workload load_workload_text(const std::string& text, const std::string& name) {
    TomlReader r(text, name);
    r.only_keys(r.root(),
                {"platform", "context", "stream", "kernel", "copy", "scenario", "expect", "title", "source",
                 "time_unit", "assumptions", "cpu", "cpu_task", "requirement"},
                "the file");
    Workload w;
    w.source = name;
    if (const TomlNode* p = r.root().get("platform")) read_platform(r, r.table(*p, "platform"), w.platform);
    read_contexts(r, w);
    SeenNames seen;
    read_streams(r, w, seen);
    read_cpu_side(r, seen.streams, w);  // before the operations: a driven stream's waits pair its frames
    read_ops(r, w, seen);
    if (w.ops.empty()) throw InputError({name, 1, 1}, "the workload has no [[kernel]] or [[copy]]");
    validate_workload(w);
    if (const TomlNode* n = r.root().get("scenario")) read_scenario(r, r.table(*n, "scenario"), w, seen);
    read_expectations(r, w);
    if (const TomlNode* t = r.root().get("title")) w.title = r.string(*t, "title");
    if (const TomlNode* a = r.root().get("assumptions"))
        for (const TomlNode& item : r.array(*a, "assumptions")) {
            w.assumptions.push_back(r.string(item, "assumptions"));
            if (w.assumptions.back().find_first_not_of(" \t") == std::string::npos)
                r.fail(item, "an assumption is a sentence: this one is empty");
        }
    if (const TomlNode* u = r.root().get("time_unit")) {
        w.time_unit = r.string(*u, "time_unit");
        if (!time_unit_name(w.time_unit)) r.fail(*u, "time_unit must be \"s\", \"ms\", \"us\" or \"ns\"");
    }
    settle_context_switch(r, w);
    return w;
}

Workload load_workload_file(const std::string& path) {
    return load_workload_text(read_input_file(path), path == "-" ? "<stdin>" : path);
}

}  // namespace gpuwcrt
