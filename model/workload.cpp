#include "model/workload.hpp"

namespace gpuwcrt {

std::optional<int> Workload::find_op(const std::string& name) const {
    for (std::size_t i = 0; i < ops.size(); ++i)
        if (ops[i].name == name) return static_cast<int>(i);
    return std::nullopt;
}

std::unordered_map<std::string, int> Workload::op_index() const {
    std::unordered_map<std::string, int> out;
    out.reserve(ops.size());
    for (std::size_t i = 0; i < ops.size(); ++i) out.emplace(ops[i].name, static_cast<int>(i));
    return out;
}

std::vector<int> Workload::stream_ops(int stream) const {
    std::vector<int> out;
    for (std::size_t i = 0; i < ops.size(); ++i)
        if (ops[i].stream == stream) out.push_back(static_cast<int>(i));
    return out;
}

int Workload::null_stream() const {
    for (std::size_t i = 0; i < streams.size(); ++i)
        if (streams[i].is_null) return static_cast<int>(i);
    return -1;
}

std::int64_t Workload::total_blocks() const {
    std::int64_t n = 0;  // no overflow: the loader keeps the total within limits::max_total
    for (const Operation& op : ops)
        if (op.is_kernel()) n += op.blocks;
    return n;
}

bool Workload::repeats() const {
    for (const Stream& s : streams)
        if (s.arrival.repeats()) return true;
    return false;
}

bool Workload::has_wait() const {
    for (const Operation& op : ops)
        if (!op.wait.empty() || !op.wait_latest.empty()) return true;
    return false;
}

}  // namespace gpuwcrt
