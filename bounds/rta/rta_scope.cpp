#include "bounds/rta/rta_scope.hpp"

#include <limits>
#include <numeric>
#include <set>

namespace gpuwcrt {
namespace {

std::string list(const std::vector<std::string>& names) {
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i) out += (i ? ", '" : "'") + names[i] + "'";
    return out;
}

std::string range_text(const TimeRange& r) {
    std::string s(1, '[');  // appended, not "[" + …: GCC 12 warns falsely (-Wrestrict) on the latter
    s += human_string(r.lo);
    s += ", ";
    s += human_string(r.hi);
    s += ']';
    return s;
}

void block_size_reasons(const Workload& w, const OneBigSm& big, std::vector<std::string>& out) {
    std::set<std::int64_t> sizes;
    for (const Operation& o : w.ops)
        if (o.is_kernel()) sizes.insert(o.threads);
    if (sizes.size() > 1) {
        std::string s;
        for (auto b : sizes) s += (s.empty() ? "" : ", ") + std::to_string(b);
        out.push_back("mixed block sizes (" + s + " threads): the one-big-SM figure counts slots of " +
                      std::to_string(big.slot_threads) + " threads (g_max = " + std::to_string(big.g_max) +
                      ") as if a block could use slots on both SMs and free slots never fragment");
    }
    const Platform& p = w.platform;
    for (auto b : sizes)
        if (p.threads_per_sm % b != 0)
            out.push_back("block size " + std::to_string(b) + " does not divide threads_per_sm " +
                          std::to_string(p.threads_per_sm) + ": an SM holds only " +
                          std::to_string(p.threads_per_sm / b) +
                          " such blocks, and the leftover threads "
                          "of the two SMs cannot be combined as one big SM assumes");
}

// The brief's "binds": a per-SM limit other than threads would hold fewer of a kernel's blocks
// than threads_per_sm / b, so free slots of the one big SM could be unusable.
void resource_reasons(const Workload& w, std::vector<std::string>& out) {
    const Platform& p = w.platform;
    std::vector<std::string> shm, regs, resident;
    for (const Operation& o : w.ops) {
        if (!o.is_kernel()) continue;
        const std::int64_t by_threads = p.threads_per_sm / o.threads;
        const BlockDemand d = o.demand();
        if (d.shared_mem > 0 && p.shared_mem_per_sm / d.shared_mem < by_threads)
            shm.push_back(o.name + "' (" + std::to_string(p.shared_mem_per_sm / d.shared_mem) + " of " +
                          std::to_string(by_threads) + " blocks per SM fit by " + std::to_string(d.shared_mem) +
                          " B each");
        if (d.registers > 0 && p.registers_per_sm / d.registers < by_threads)
            regs.push_back(o.name + "' (" + std::to_string(p.registers_per_sm / d.registers) + " of " +
                           std::to_string(by_threads) + " blocks per SM fit by " + std::to_string(d.registers) +
                           " registers each");
        if (p.blocks_per_sm_max < by_threads)
            resident.push_back(o.name + "' (" + std::to_string(by_threads) + " blocks per SM by threads");
    }
    auto add = [&](const std::vector<std::string>& items, const std::string& what) {
        if (items.empty()) return;
        std::string s;
        for (const auto& i : items) s += (s.empty() ? "'" : "; '") + i + ")";
        out.push_back(what + " binds, which the RTA ignores: " + s);
    };
    add(shm, "shared memory (shared_mem_per_sm " + std::to_string(p.shared_mem_per_sm) + " B)");
    add(regs, "the register file (registers_per_sm " + std::to_string(p.registers_per_sm) + ")");
    add(resident, "the resident-block limit (blocks_per_sm_max " + std::to_string(p.blocks_per_sm_max) + ")");
}

void stream_reasons(const Workload& w, std::vector<std::string>& out) {
    std::vector<std::vector<int>> members(w.streams.size());  // one pass: Workload::stream_ops is O(ops)
    for (std::size_t i = 0; i < w.ops.size(); ++i) members[w.ops[i].stream].push_back(static_cast<int>(i));
    for (std::size_t s = 0; s < w.streams.size(); ++s) {
        const Stream& st = w.streams[s];
        const auto& ops = members[s];
        if (ops.empty()) continue;
        if (ops.size() > 1) {
            std::vector<std::string> names;
            for (int i : ops) names.push_back(w.ops[i].name);
            out.push_back("stream '" + st.name + "' holds " + std::to_string(ops.size()) + " operations (" +
                          list(names) +
                          "): the RTA ignores that a stream runs them one after another, and "
                          "takes a later operation's issue as the earliest the host could issue it");
        }
        if (st.priority == Priority::high)
            out.push_back("stream '" + st.name + "' has high priority: the RTA ignores priorities (A1, A2)");
        if (st.is_null)
            out.push_back("stream '" + st.name +
                          "' is the NULL stream: the RTA ignores its implicit "
                          "synchronisation (N1, N2)");
    }
}

void operation_reasons(const Workload& w, std::vector<std::string>& out) {
    std::vector<std::string> copies;
    for (const Operation& o : w.ops) {
        if (!o.is_kernel()) {
            copies.push_back(o.name);
            continue;
        }
        if (!o.time.is_point())
            out.push_back("block_time of '" + o.name + "' is the interval " + range_text(o.time) +
                          ": the RTA uses the upper end, as the simulator does, but other block times in the "
                          "interval can finish later (scheduling anomalies)");
        if (!o.wait.empty())
            out.push_back("'" + o.name + "' waits on '" + w.ops[o.wait.front()].name +
                          "' (`wait`): the RTA ignores that it cannot start before then");
        if (o.issue.kind == IssueSpec::Kind::at && !o.issue.at.is_point())
            out.push_back("issue of '" + o.name + "' is the window " + range_text(o.issue.at) +
                          ": the RTA uses the lower end, as the simulator does, but other issue instants "
                          "give other launch orders and response times");
    }
    if (!copies.empty())
        out.push_back("copies (" + list(copies) + "): the one-big-SM RTA ignores copies and reports kernels only");
}

}  // namespace

std::int64_t OneBigSm::slots_of(const Operation& kernel) const {
    std::int64_t slots = 0;
    if (__builtin_mul_overflow(kernel.blocks, kernel.threads / slot_threads, &slots))
        throw InputError(kernel.where, "kernel '" + kernel.name + "': " + std::to_string(kernel.blocks) +
                                           " blocks of " + std::to_string(kernel.threads / slot_threads) +
                                           " slots each exceed the RTA's limit of 2^63 - 1 slots per kernel");
    return slots;
}

OneBigSm one_big_sm(const Workload& w) {
    OneBigSm big;
    std::int64_t g = 0;
    for (const Operation& o : w.ops)
        if (o.is_kernel()) g = std::gcd(g, o.threads);
    big.slot_threads = g > 0 ? g : 1;
    // In 128 bits: sms × threads_per_sm can exceed 64 bits even when g_max does not.
    const __int128 g_max = static_cast<__int128>(w.platform.sms) * w.platform.threads_per_sm / big.slot_threads;
    if (g_max > std::numeric_limits<std::int64_t>::max())
        throw InputError({w.source, 0, 0}, "[platform]: sms x threads_per_sm / " + std::to_string(big.slot_threads) +
                                               " threads per slot exceeds the RTA's limit of 2^63 - 1 slots");
    big.g_max = static_cast<std::int64_t>(g_max);
    return big;
}

std::vector<std::string> rta_scope_reasons(const Workload& w) {
    std::vector<std::string> out;
    block_size_reasons(w, one_big_sm(w), out);
    resource_reasons(w, out);
    stream_reasons(w, out);
    operation_reasons(w, out);
    return out;
}

}  // namespace gpuwcrt
