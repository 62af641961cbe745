#include "model/io/examiner_log.hpp"

#include "model/input_limits.hpp"
#include "model/io/located_json.hpp"
#include "model/name_policy.hpp"
#include "model/io/read_input.hpp"

namespace gpuwcrt {
namespace {

std::vector<Time> times_of(const JsonValue& v, const std::string& what) {
    std::vector<Time> out;
    for (const JsonValue& x : json_array(v, what).items) out.push_back(json_number(x, what));
    return out;
}

// As import-examiner names a label, so that logs match the imported workload.
std::string log_name(const JsonValue& v, const std::string& what) {
    bool changed = false;
    const std::string label = json_string(v, what);
    const std::string name = name_from_label(label, changed);
    if (auto problem = name_problem(name)) throw InputError(v.where, what + " " + quoted_name(label) + " " + *problem);
    return name;
}

std::int64_t count_in(const JsonValue& v, const std::string& what, std::int64_t lo, std::int64_t hi) {
    const std::int64_t n = json_integer(v, what);
    if (n < lo || n > hi)
        throw InputError(v.where, what + " must be between " + std::to_string(lo) + " and " + std::to_string(hi) +
                                      ", got " + v.text);
    return n;
}

ExaminerKernelRecord kernel_record(const JsonValue& e) {
    ExaminerKernelRecord k;
    k.where = e.where;
    k.kernel_name = log_name(json_required(e, "kernel_name", "a kernel entry"), "'kernel_name'");
    k.block_count = count_in(json_required(e, "block_count", "a kernel entry"), "'block_count'", 1, limits::max_blocks);
    k.thread_count =
        count_in(json_required(e, "thread_count", "a kernel entry"), "'thread_count'", 1, limits::max_resource);
    if (const JsonValue* s = e.get("shared_memory"))
        k.shared_memory = count_in(*s, "'shared_memory'", 0, limits::max_resource);
    const JsonValue& launch = json_required(e, "cuda_launch_times", "a kernel entry");
    const std::vector<Time> lt = times_of(launch, "'cuda_launch_times'");
    if (lt.size() != 3)
        throw InputError(launch.where,
                         "'cuda_launch_times' must hold 3 times (before launch, after launch, "
                         "after sync), not " +
                             std::to_string(lt.size()));
    k.launch_before = lt[0];
    k.launch_after = lt[1];
    k.launch_synced = lt[2];
    const JsonValue& bt = json_required(e, "block_times", "a kernel entry");
    const std::vector<Time> times = times_of(bt, "'block_times'");
    if (times.size() % 2 != 0 || static_cast<std::int64_t>(times.size() / 2) != k.block_count)
        throw InputError(bt.where, "'block_times' must hold a start and an end for each of the " +
                                       std::to_string(k.block_count) + " blocks, found " +
                                       std::to_string(times.size()) + " times");
    for (std::size_t i = 0; i < times.size(); i += 2) {
        if (times[i + 1] < times[i])
            throw InputError(bt.where, "block " + std::to_string(i / 2) + " ends before it starts");
        k.block_start.push_back(times[i]);
        k.block_end.push_back(times[i + 1]);
    }
    const JsonValue& sms = json_array(json_required(e, "block_smids", "a kernel entry"), "'block_smids'");
    if (static_cast<std::int64_t>(sms.items.size()) != k.block_count)
        throw InputError(sms.where,
                         "'block_smids' must list one SM for each of the " + std::to_string(k.block_count) + " blocks");
    for (const JsonValue& s : sms.items) {
        k.block_sm.push_back(static_cast<int>(count_in(s, "an SM id in 'block_smids'", 0, limits::max_sms - 1)));
        k.block_sm_where.push_back(s.where);
    }
    return k;
}

}  // namespace

ExaminerLog read_examiner_log(const std::string& text, const std::string& name) {
    const JsonValue root = parse_located_json(text, name);
    json_object(root, "an examiner log");
    ExaminerLog log;
    log.file = name;
    log.where = root.where;
    log.label = log_name(json_required(root, "label", "an examiner log"), "'label'");
    // "times" holds an empty object, CPU-side entries (copy_in_times, execute_times, …) and
    // one entry per kernel; only kernel entries carry "kernel_name".
    for (const JsonValue& e : json_array(json_required(root, "times", "an examiner log"), "'times'").items) {
        json_object(e, "an entry of 'times'");
        if (e.get("kernel_name")) log.kernels.push_back(kernel_record(e));
    }
    if (log.kernels.empty()) throw InputError(root.where, "the log records no kernel (no 'kernel_name' in 'times')");
    return log;
}

ExaminerLog read_examiner_log_file(const std::string& path) {
    return read_examiner_log(read_input_file(path), path == "-" ? "<stdin>" : path);
}

void check_block_sms(const ExaminerKernelRecord& k, int sms) {
    for (std::size_t b = 0; b < k.block_sm.size(); ++b)
        if (k.block_sm[b] >= sms)
            throw InputError(k.block_sm_where[b], "block " + std::to_string(b) + " of '" + k.kernel_name +
                                                      "' ran on SM " + std::to_string(k.block_sm[b]) +
                                                      ", but the workload's platform has " + std::to_string(sms) +
                                                      " SMs (0.." + std::to_string(sms - 1) + ")");
}

}  // namespace gpuwcrt
