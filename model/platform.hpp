#pragma once
// The GPU (docs/theory/semantics.md §2). Defaults are the Jetson TX2 (Pascal, compute 6.2); every limit can be
// overridden.
#include <algorithm>
#include <cstdint>

#include "model/time.hpp"

namespace gpuwcrt {

struct Platform {
    int sms = 2;
    std::int64_t threads_per_sm = 2048;
    std::int64_t threads_per_block_max = 1024;
    std::int64_t shared_mem_per_sm = 65536;
    std::int64_t shared_mem_per_block_max = 49152;
    std::int64_t registers_per_sm = 65536;
    std::int64_t registers_per_block_max = 32768;
    std::int64_t blocks_per_sm_max = 32;
    int copy_engines = 1;
    // What a switch between GPU contexts costs, no context running meanwhile (docs/theory/semantics.md
    // §10). Only a workload with two or more contexts switches; for one the loader sets the
    // default (model/contexts/context_switch.hpp) when the file gives none and says so in its
    // assumptions.
    Time context_switch = 0;
};

// What one block occupies on its SM while it runs.
struct BlockDemand {
    std::int64_t threads = 0;
    std::int64_t shared_mem = 0;
    std::int64_t registers = 0;
};

// Per-SM occupancy; a block fits when every sum stays within the platform's limit.
struct SmUsage {
    std::int64_t threads = 0;
    std::int64_t shared_mem = 0;
    std::int64_t registers = 0;
    std::int64_t blocks = 0;

    bool fits(const BlockDemand& d, const Platform& p) const {
        return threads + d.threads <= p.threads_per_sm && shared_mem + d.shared_mem <= p.shared_mem_per_sm &&
               registers + d.registers <= p.registers_per_sm && blocks + 1 <= p.blocks_per_sm_max;
    }
    // How many more blocks of this demand the SM could take now (the most-room policy's measure).
    std::int64_t room_for(const BlockDemand& d, const Platform& p) const {
        std::int64_t n = p.blocks_per_sm_max - blocks;
        auto limit = [&](std::int64_t used, std::int64_t need, std::int64_t cap) {
            if (need > 0) n = std::min(n, (cap - used) / need);
        };
        limit(threads, d.threads, p.threads_per_sm);
        limit(shared_mem, d.shared_mem, p.shared_mem_per_sm);
        limit(registers, d.registers, p.registers_per_sm);
        return n < 0 ? 0 : n;
    }
    void add(const BlockDemand& d) {
        threads += d.threads;
        shared_mem += d.shared_mem;
        registers += d.registers;
        ++blocks;
    }
    void remove(const BlockDemand& d) {
        threads -= d.threads;
        shared_mem -= d.shared_mem;
        registers -= d.registers;
        --blocks;
    }
    bool operator==(const SmUsage&) const = default;
};

}  // namespace gpuwcrt
