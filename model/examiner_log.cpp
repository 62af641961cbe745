#include "model/examiner_log.hpp"

#include <fstream>
#include <iterator>

#include "model/located_json.hpp"

namespace gpuwcrt {
namespace {

std::vector<Time> times_of(const JsonValue& v, const std::string& what) {
    std::vector<Time> out;
    for (const JsonValue& x : json_array(v, what).items) out.push_back(json_number(x, what));
    return out;
}

ExaminerKernelRecord kernel_record(const JsonValue& e) {
    ExaminerKernelRecord k;
    k.where = e.where;
    k.kernel_name = json_string(json_required(e, "kernel_name", "a kernel entry"), "'kernel_name'");
    k.block_count = json_integer(json_required(e, "block_count", "a kernel entry"), "'block_count'");
    k.thread_count = json_integer(json_required(e, "thread_count", "a kernel entry"), "'thread_count'");
    if (const JsonValue* s = e.get("shared_memory")) k.shared_memory = json_integer(*s, "'shared_memory'");
    const JsonValue& launch = json_required(e, "cuda_launch_times", "a kernel entry");
    const std::vector<Time> lt = times_of(launch, "'cuda_launch_times'");
    if (lt.size() != 3)
        throw InputError(launch.where, "'cuda_launch_times' must hold 3 times (before launch, after launch, "
                                       "after sync), not " + std::to_string(lt.size()));
    k.launch_before = lt[0];
    k.launch_after = lt[1];
    k.launch_synced = lt[2];
    if (k.block_count <= 0) throw InputError(e.where, "'block_count' must be > 0");
    const JsonValue& bt = json_required(e, "block_times", "a kernel entry");
    const std::vector<Time> times = times_of(bt, "'block_times'");
    if (static_cast<std::int64_t>(times.size()) != 2 * k.block_count)
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
        throw InputError(sms.where, "'block_smids' must list one SM for each of the " +
                                        std::to_string(k.block_count) + " blocks");
    for (const JsonValue& s : sms.items) {
        const std::int64_t sm = json_integer(s, "'block_smids'");
        if (sm < 0 || sm > 1 << 20) throw InputError(s.where, "implausible SM id " + s.text);
        k.block_sm.push_back(static_cast<int>(sm));
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
    log.label = json_string(json_required(root, "label", "an examiner log"), "'label'");
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
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError({path, 0, 0}, "cannot open the file");
    std::string text(std::istreambuf_iterator<char>(in), {});
    return read_examiner_log(text, path);
}

}  // namespace gpuwcrt
