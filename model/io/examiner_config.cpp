#include "model/io/examiner_config.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <iterator>
#include <set>

#include "model/checked_int.hpp"
#include "model/input_limits.hpp"
#include "model/io/examiner_actions.hpp"
#include "model/io/located_json.hpp"
#include "model/name_policy.hpp"
#include "model/io/read_input.hpp"
#include "model/validate.hpp"

namespace gpuwcrt {
namespace {

const Time ns_per_second = 1000000000;
constexpr std::int64_t bytes_per_int = 4;  // the plugins count shared memory and copies in uint32_t

// The keys the examiner itself accepts (parse_config.c, VerifyGlobalConfigKeys /
// VerifyBenchmarkConfigKeys): anything else it rejects, and so do we.
const std::initializer_list<const char*> global_keys = {
    "name",     "max_iterations", "max_time",  "use_processes",        "cuda_device", "base_result_directory",
    "pin_cpus", "benchmarks",     "do_warmup", "sync_every_iteration", "comment"};
const std::initializer_list<const char*> benchmark_keys = {"filename",
                                                           "log_name",
                                                           "label",
                                                           "thread_count",
                                                           "block_count",
                                                           "data_size",
                                                           "additional_info",
                                                           "max_iterations",
                                                           "max_time",
                                                           "release_time",
                                                           "cpu_core",
                                                           "stream_priority",
                                                           "mps_thread_percentage",
                                                           "sm_mask",
                                                           "comment"};
// multikernel.so's per-kernel entries (its header comment plus the copy counts of the RTSS'17
// version used for Fig. 3).
const std::initializer_list<const char*> multikernel_keys = {
    "kernel_label",       "duration",      "block_count",    "thread_count", "delay",
    "shared_memory_size", "copy_in_count", "copy_out_count", "sm_mask",      "comment"};

std::string plugin_of(const std::string& filename) {
    const auto slash = filename.find_last_of('/');
    return slash == std::string::npos ? filename : filename.substr(slash + 1);
}

class ExaminerConfigImporter {
public:
    ExaminerConfigImporter(const JsonValue& root, const ExaminerImportOptions& options)
        : root_(root), options_(options) {}

    ExaminerImport run(const std::string& name) {
        json_object(root_, "the config");
        json_only_keys(root_, global_keys, "the config");
        out_.scenario_name = json_string(json_required(root_, "name", "the config"), "'name'");
        json_number(json_required(root_, "max_time", "the config"), "'max_time'");
        global_iterations_ = &json_required(root_, "max_iterations", "the config");
        json_integer(*global_iterations_, "'max_iterations'");
        // do_warmup runs each benchmark once before the measured iteration and
        // sync_every_iteration aligns iterations after the first: neither changes the one
        // iteration imported here.
        for (const char* key : {"pin_cpus", "use_processes", "do_warmup", "sync_every_iteration"})
            if (const JsonValue* v = root_.get(key)) json_boolean(*v, std::string("'") + key + "'");
        if (const JsonValue* v = root_.get("use_processes"); v && v->boolean)
            throw InputError(v->where,
                             "use_processes = true runs each benchmark in its own process (address "
                             "space); the TX2 rules modelled here hold for tasks sharing one address "
                             "space (Amert et al. §4.3), so such a config cannot be imported");
        const JsonValue& list = json_array(json_required(root_, "benchmarks", "the config"), "'benchmarks'");
        if (list.items.empty()) throw InputError(list.where, "'benchmarks' is empty");
        out_.workload.source = name;
        order_null_stream(list);
        for (std::size_t i = 0; i < list.items.size(); ++i) benchmark(*slot_[i], i);
        if (out_.workload.ops.empty()) throw InputError(root_.where, "the config has no kernel");
        validate_workload(out_.workload);
        return std::move(out_);
    }

private:
    // Benchmarks on the NULL stream are separate host threads sharing one stream queue; the
    // stream's list order is their release order (stable for equal releases), while every other
    // benchmark keeps its place in the file.
    void order_null_stream(const JsonValue& list) {
        std::vector<const JsonValue*> nulls;
        for (const JsonValue& b : list.items) {
            slot_.push_back(&b);
            if (b.is_object() && uses_null_stream(b)) nulls.push_back(&b);
        }
        std::stable_sort(nulls.begin(), nulls.end(),
                         [&](const JsonValue* a, const JsonValue* b) { return release_of(*a) < release_of(*b); });
        std::size_t k = 0;
        for (auto& s : slot_)
            if (s->is_object() && uses_null_stream(*s)) s = nulls[k++];
    }

    static bool uses_null_stream(const JsonValue& b) {
        const JsonValue* f = b.get("filename");
        if (!f || !f->is_string()) return false;
        if (plugin_of(f->text) == "timer_spin_default_stream.so") return true;
        const JsonValue* info = b.get("additional_info");
        const JsonValue* null = info && info->is_object() ? info->get("use_null_stream") : nullptr;
        return plugin_of(f->text) == "stream_action.so" && null && null->type == JsonValue::Type::boolean &&
               null->boolean;
    }

    static Time release_of(const JsonValue& b) {
        const JsonValue* r = b.get("release_time");
        return r ? json_number(*r, "'release_time'") : Time(0);
    }

    void benchmark(const JsonValue& b, std::size_t index) {
        json_object(b, "a benchmark");
        json_only_keys(b, benchmark_keys, "a benchmark");
        const JsonValue& file = json_required(b, "filename", "a benchmark");
        const std::string plugin = plugin_of(json_string(file, "'filename'"));
        const auto& supported = examiner_supported_plugins();
        if (std::find(supported.begin(), supported.end(), plugin) == supported.end()) {
            std::string list;
            for (const auto& p : supported) list += (list.empty() ? "" : ", ") + p;
            throw InputError(file.where, "unsupported benchmark plugin " + quoted_name(plugin) +
                                             ": its GPU work is not a fixed set of timed kernels (supported: " + list +
                                             ")");
        }
        // Required by the examiner even where the plugin ignores them.
        const JsonValue& threads = json_required(b, "thread_count", "a benchmark");
        const JsonValue& blocks = json_required(b, "block_count", "a benchmark");
        json_number(json_required(b, "data_size", "a benchmark"), "'data_size'");
        if (const JsonValue* v = b.get("log_name")) json_string(*v, "'log_name'");
        mps_percentage(b);
        no_sm_mask(b);
        for (const char* key : {"cpu_core", "max_time"})
            if (const JsonValue* v = b.get(key)) json_number(*v, std::string("'") + key + "'");
        single_iteration(b);
        const std::string label = b.get("label")
                                      ? label_name(*b.get("label"), "'label'")
                                      : plugin.substr(0, plugin.size() - 3) + " " + std::to_string(index + 1);
        Time release = 0;
        if (const JsonValue* r = b.get("release_time")) {
            release = json_number(*r, "'release_time'");
            if (release < 0) throw InputError(r->where, "'release_time' must be >= 0");
        }
        const int stream = stream_for(b, label);
        const JsonValue* info = b.get("additional_info");
        if (!info) throw InputError(b.where, plugin + " needs 'additional_info' (" + info_format(plugin) + ")");
        if (plugin == "multikernel.so") {  // its kernels give their own dimensions
            multikernel(*info, stream, release);
            return;
        }
        if (plugin == "stream_action.so") {
            stream_actions(read_stream_actions(*info), threads, blocks, stream, release);
            return;
        }
        Operation k = kernel_op(label, stream, b.where, threads, blocks);
        k.issue.at = {release, release};
        if (plugin == "sharedmem_timer_spin.so") {
            sharedmem_info(*info, k);
        } else {
            k.time = point(spin_time(*info, "'additional_info'"));
        }
        add(std::move(k));
    }

    // The examiner applies the percentage only to benchmarks it runs as processes under MPS
    // (task_host.c SetMPSResourceLimit); those are refused (use_processes), so as threads the
    // benchmark keeps the whole GPU.
    void mps_percentage(const JsonValue& b) {
        const JsonValue* v = b.get("mps_thread_percentage");
        if (!v) return;
        const Time p = json_number(*v, "'mps_thread_percentage'");
        if (p <= 0 || p > 100)
            throw InputError(v->where, "'mps_thread_percentage' must be in (0, 100], got " + v->text);
        if (p < 100 && !mps_noted_) {
            out_.notes.push_back(
                "mps_thread_percentage: the examiner applies it only to processes under MPS; benchmarks run as "
                "threads (use_processes = false) keep every SM");
            mps_noted_ = true;
        }
    }

    // sm_mask (libsmctrl) disables TPCs for a kernel; the model lets every kernel use every SM
    // of the TX2, so a mask is read only to accept one that disables nothing.
    static void no_sm_mask(const JsonValue& object) {
        const JsonValue* v = object.get("sm_mask");
        if (!v) return;
        const std::string text = json_string(*v, "'sm_mask'");
        const std::optional<std::uint64_t> disabled = disabled_tpcs(text);
        if (!disabled)
            throw InputError(v->where, "'sm_mask' " + quoted_name(text.substr(0, 40)) +
                                           " is not a hexadecimal mask of at most 64 bits (optionally after '~')");
        if (*disabled != 0)
            throw InputError(v->where, "'sm_mask' " + quoted_name(text) +
                                           " keeps the kernel off some SMs (TPC partitioning); the model lets "
                                           "every kernel use every SM, so this config cannot be imported without "
                                           "changing its schedule (a mask of 0 is accepted)");
    }

    // The examiner's reading (strtoull base 16, '~' inverts), strict about stray characters.
    static std::optional<std::uint64_t> disabled_tpcs(const std::string& text) {
        std::size_t i = 0;
        const bool inverted = !text.empty() && text[0] == '~';
        if (inverted) ++i;
        if (text.compare(i, 2, "0x") == 0 || text.compare(i, 2, "0X") == 0) i += 2;
        if (i == text.size()) return std::nullopt;
        std::uint64_t mask = 0;
        for (; i < text.size(); ++i) {
            const char c = text[i];
            const int digit = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                              : (c >= 'a' && c <= 'f')                    ? c - 'a' + 10
                              : (c >= 'A' && c <= 'F')                    ? c - 'A' + 10
                                                                          : -1;
            if (digit < 0 || (mask >> 60) != 0) return std::nullopt;
            mask = (mask << 4) | static_cast<std::uint64_t>(digit);
        }
        return inverted ? ~mask : mask;
    }

    void single_iteration(const JsonValue& b) {
        const JsonValue* sync = root_.get("sync_every_iteration");
        if (b.get("max_iterations") && sync && sync->boolean)  // the examiner refuses it too
            throw InputError(b.member("max_iterations")->key_where,
                             "a benchmark's own 'max_iterations' needs sync_every_iteration = false (the "
                             "examiner refuses the pair: benchmarks with other counts never meet)");
        const JsonValue* it = b.get("max_iterations") ? b.get("max_iterations") : global_iterations_;
        const std::int64_t n = json_integer(*it, "'max_iterations'");
        if (n != 1)
            throw InputError(it->where, "max_iterations = " + std::to_string(n) +
                                            ": only single-iteration benchmarks can be imported (each "
                                            "iteration is a new job whose release depends on the previous one)");
    }

    int stream_for(const JsonValue& b, const std::string& label) {
        Workload& w = out_.workload;
        const JsonValue* prio = b.get("stream_priority");
        if (uses_null_stream(b)) {
            if (prio)
                throw InputError(prio->where,
                                 "the NULL stream has no priority; remove 'stream_priority' from a benchmark on "
                                 "the NULL stream");
            if (w.null_stream() >= 0) return w.null_stream();
            Stream s;
            s.name = unique_stream_name("NULL stream");
            s.is_null = true;
            s.where = b.where;
            w.streams.push_back(s);
            return static_cast<int>(w.streams.size()) - 1;
        }
        Stream s;
        s.name = unique_stream_name(label);
        s.where = b.where;
        // CUDA clamps priorities into the device's range, [-1, 0] on the TX2; none means 0 (A1).
        if (prio && json_integer(*prio, "'stream_priority'") <= -1) s.priority = Priority::high;
        w.streams.push_back(s);
        return static_cast<int>(w.streams.size()) - 1;
    }

    std::string unique_stream_name(const std::string& wanted) const {
        auto taken = [&](const std::string& n) {
            for (const Stream& s : out_.workload.streams)
                if (s.name == n) return true;
            return false;
        };
        std::string n = wanted;
        for (int k = 2; taken(n); ++k) n = wanted + " #" + std::to_string(k);
        return n;
    }

    std::string unique_op_name(const std::string& wanted) const {
        std::string n = wanted;
        for (int k = 2; out_.workload.find_op(n); ++k) n = wanted + " #" + std::to_string(k);
        return n;
    }

    static std::string info_format(const std::string& plugin) {
        if (plugin == "sharedmem_timer_spin.so")
            return "{\"duration\": <ns>, \"shared_memory_size\": <32-bit integers>}";
        if (plugin == "multikernel.so") return "a list of kernels";
        return "the block time in ns";
    }

    static TimeRange point(const Time& t) { return {t, t}; }

    // A label as an operation or stream name (model/name_policy.hpp): ',' '=' and edge blanks
    // are mapped (with a note in the output), anything else the policy forbids is an error here.
    std::string label_name(const JsonValue& v, const std::string& what) {
        const std::string label = json_string(v, what);
        bool changed = false;
        const std::string name = name_from_label(label, changed);
        if (auto problem = name_problem(name))
            throw InputError(v.where, what + " " + quoted_name(label) + " " + *problem);
        if (changed)
            out_.notes.push_back("label '" + label + "' is named '" + name +
                                 "': a name has no ',' or '=' (they separate names in --order and --bound) and no "
                                 "blanks at its ends");
        return name;
    }

    // A spin duration in ns as exact seconds. Older examiner versions passed it as a string.
    static Time spin_time(const JsonValue& v, const std::string& what) {
        Time ns;
        if (v.is_string()) {
            const TimeLiteral t = read_time_literal(v.text);
            if (!t.value)
                throw InputError(v.where, what + ": " + quoted_name(v.text.substr(0, 60)) + " " + t.problem +
                                              " (a number of nanoseconds)");
            ns = *t.value;
        } else {
            ns = json_number(v, what);
        }
        if (ns <= 0) throw InputError(v.where, what + ": the spin duration must be > 0 ns");
        return ns / ns_per_second;
    }

    static std::int64_t shared_bytes(const JsonValue& v, const std::string& what, bool zero_allowed) {
        const std::int64_t count = json_integer(v, what);
        if (!((zero_allowed && count == 0) || count == 4096 || count == 8192 || count == 10240))
            throw InputError(v.where, what + " = " + v.text + ": the plugin supports " + (zero_allowed ? "0, " : "") +
                                          "4096, 8192 or 10240 (32-bit integers)");
        return count * bytes_per_int;
    }

    Operation kernel_op(const std::string& name, int stream, const SourceLocation& where, const JsonValue& threads,
                        const JsonValue& blocks) {
        Operation k;
        k.kind = OpKind::kernel;
        k.name = unique_op_name(name);
        k.stream = stream;
        k.where = where;
        k.threads = examiner_dimension(threads, "'thread_count'", limits::max_resource, true, out_.notes);
        k.blocks = examiner_dimension(blocks, "'block_count'", limits::max_blocks, true, out_.notes);
        return k;
    }

    void sharedmem_info(const JsonValue& info, Operation& k) const {
        if (info.is_string()) {  // older versions: "<ns>,<count>"
            const auto comma = info.text.find(',');
            if (comma == std::string::npos)
                throw InputError(info.where, "'additional_info' must be \"<ns>,<shared 32-bit integers>\"");
            JsonValue ns = info, count = info;
            ns.text = info.text.substr(0, comma);
            count.type = JsonValue::Type::number;
            count.text = info.text.substr(comma + 1);
            k.time = point(spin_time(ns, "'additional_info' duration"));
            k.shared_mem = shared_bytes(count, "'additional_info' shared memory", false);
            return;
        }
        json_object(info, "'additional_info' of sharedmem_timer_spin.so");
        json_only_keys(info, {"duration", "shared_memory_size"}, "'additional_info'");
        k.time = point(spin_time(json_required(info, "duration", "'additional_info'"), "'duration'"));
        k.shared_mem =
            shared_bytes(json_required(info, "shared_memory_size", "'additional_info'"), "'shared_memory_size'", false);
    }

    Operation copy_op(const std::string& name, int stream, const JsonValue& count_value) {
        const std::int64_t count = examiner_positive(count_value, "'" + name + "' count", limits::max_resource);
        Operation c;
        c.kind = OpKind::copy;
        c.name = unique_op_name(name);
        c.stream = stream;
        c.where = count_value.where;
        if (!options_.copy_bandwidth)
            throw InputError(count_value.where, "copy '" + name + "' of " + std::to_string(count) +
                                                    " 32-bit integers (" + std::to_string(count * bytes_per_int) +
                                                    " bytes) needs a duration: give --copy-bandwidth BYTES_PER_S");
        c.time = point(Time(count * bytes_per_int) / *options_.copy_bandwidth);
        out_.notes.push_back("copy '" + c.name + "': " + std::to_string(count * bytes_per_int) + " bytes / " +
                             human_string(*options_.copy_bandwidth) +
                             " B/s (--copy-bandwidth) = " + human_string(c.time.lo) + " s");
        return c;
    }

    // One stream: for each kernel [copy in] kernel [copy out]. `delay` makes the host
    // synchronise the stream and sleep before the kernel's first operation (multikernel.cu
    // Execute()); the first kernel's delay starts at the release, when the stream is idle.
    void multikernel(const JsonValue& info, int stream, const Time& release) {
        json_array(info, "'additional_info' of multikernel.so");
        if (info.items.empty()) throw InputError(info.where, "multikernel.so needs at least one kernel");
        for (std::size_t i = 0; i < info.items.size(); ++i) {
            const JsonValue& e = json_object(info.items[i], "a multikernel.so kernel");
            json_only_keys(e, multikernel_keys, "a multikernel.so kernel");
            no_sm_mask(e);
            const std::string label =
                label_name(json_required(e, "kernel_label", "a multikernel.so kernel"), "'kernel_label'");
            Operation k = kernel_op(label, stream, e.where, json_required(e, "thread_count", "a multikernel.so kernel"),
                                    json_required(e, "block_count", "a multikernel.so kernel"));
            k.time = point(spin_time(json_required(e, "duration", "a multikernel.so kernel"), "'duration'"));
            if (const JsonValue* s = e.get("shared_memory_size"))
                k.shared_mem = shared_bytes(*s, "'shared_memory_size'", true);
            Time delay = 0;
            if (const JsonValue* d = e.get("delay")) {
                delay = json_number(*d, "'delay'");
                if (delay < 0) throw InputError(d->where, "'delay' must be >= 0");
            }
            std::vector<Operation> group;
            const JsonValue* in = e.get("copy_in_count");
            const JsonValue* out = e.get("copy_out_count");
            if (in && json_integer(*in, "'copy_in_count'") < 0)
                throw InputError(in->where, "'copy_in_count' must be >= 0");
            if (out && json_integer(*out, "'copy_out_count'") < 0)
                throw InputError(out->where, "'copy_out_count' must be >= 0");
            if (in && json_integer(*in, "'copy_in_count'") > 0)
                group.push_back(copy_op(label + " copy in", stream, *in));
            group.push_back(std::move(k));
            if (out && json_integer(*out, "'copy_out_count'") > 0)
                group.push_back(copy_op(label + " copy out", stream, *out));
            for (std::size_t g = 0; g < group.size(); ++g) {
                IssueSpec& is = group[g].issue;
                if (g > 0) is.kind = IssueSpec::Kind::with_previous;
                else if (i == 0) is.at = point(release + delay);
                else if (delay > 0) {
                    is.kind = IssueSpec::Kind::after_stream_idle;
                    is.delay = delay;
                } else is.kind = IssueSpec::Kind::with_previous;
                add(std::move(group[g]));
            }
        }
    }

    // One stream: each kernel launched `delay` seconds after the previous launch (the host sleeps
    // between launches and never waits for the stream: stream_action.cu Execute()).
    void stream_actions(const ExaminerStreamActions& actions, const JsonValue& threads, const JsonValue& blocks,
                        int stream, const Time& release) {
        Time at = release;
        for (std::size_t i = 0; i < actions.kernels.size(); ++i) {
            const ExaminerKernelAction& a = actions.kernels[i];
            Operation k = kernel_op(label_name(*a.label, "'label'"), stream, a.action->where,
                                    a.threads ? *a.threads : threads, a.blocks ? *a.blocks : blocks);
            k.time = point(spin_time(*a.duration, "'duration'"));
            if (a.shared) k.shared_mem = shared_bytes(*a.shared, "'shared_memory_size'", true);
            at += a.delay;
            if (i > 0 && a.delay == 0) k.issue.kind = IssueSpec::Kind::with_previous;
            else k.issue.at = point(at);
            add(std::move(k));
        }
    }

    void add(Operation op) {
        Workload& w = out_.workload;
        op.position = static_cast<int>(w.stream_ops(op.stream).size());
        w.ops.push_back(std::move(op));
    }

    const JsonValue& root_;
    const ExaminerImportOptions& options_;
    const JsonValue* global_iterations_ = nullptr;
    std::vector<const JsonValue*> slot_;
    bool mps_noted_ = false;
    ExaminerImport out_;
};

}  // namespace

const std::vector<std::string>& examiner_supported_plugins() {
    static const std::vector<std::string> plugins = {"timer_spin.so", "timer_spin_default_stream.so",
                                                     "sharedmem_timer_spin.so", "multikernel.so", "stream_action.so"};
    return plugins;
}

ExaminerImport import_examiner_config(const std::string& text, const std::string& name,
                                      const ExaminerImportOptions& options) {
    if (options.copy_bandwidth && *options.copy_bandwidth <= 0)
        throw option_error("--copy-bandwidth", "the copy bandwidth must be > 0 bytes/s");
    // cJSON keeps every member and cJSON_GetObjectItem returns the first: configs the examiner
    // ships repeat "comment" for multi-line comments. A repeated key that matters is refused
    // rather than silently read as its first copy.
    const JsonRepeats repeats{{"comment"},
                              "; the examiner would read only the first: remove the other to say which is meant"};
    const JsonValue root = parse_located_json(text, name, repeats);
    return ExaminerConfigImporter(root, options).run(name);
}

ExaminerImport import_examiner_file(const std::string& path, const ExaminerImportOptions& options) {
    return import_examiner_config(read_input_file(path), path == "-" ? "<stdin>" : path, options);
}

}  // namespace gpuwcrt
