#include "solver/exact/ordered_chunks.hpp"

#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <vector>

namespace gpuwcrt::exact {
namespace {

using Expand = std::function<void(std::size_t, ChunkOutput&)>;
using Merge = std::function<bool(std::size_t, ChunkOutput&)>;

void on_this_thread(std::size_t count, const Expand& expand, const Merge& merge) {
    for (std::size_t c = 0; c < count; ++c) {
        ChunkOutput out;
        expand(c, out);
        if (!merge(c, out)) return;
    }
}

// What the workers and the merging thread share, guarded by `m`: the ring of at most `window`
// outputs expanded ahead of the merge.
struct Pipeline {
    Pipeline(std::size_t count, std::size_t window, const Expand& expand)
        : count(count), window(window), expand(expand), ring(window) {}

    const std::size_t count, window;
    const Expand& expand;
    std::mutex m;
    std::condition_variable to_merge, to_expand;
    std::vector<std::optional<ChunkOutput>> ring;
    std::size_t next = 0, merged = 0;
    bool stop = false;
    std::exception_ptr failure;

    void work() {
        for (;;) {
            std::size_t c;
            {
                std::unique_lock lock(m);
                to_expand.wait(lock, [&] { return stop || next >= count || next < merged + window; });
                if (stop || next >= count) return;
                c = next++;
            }
            ChunkOutput out;
            std::exception_ptr error;
            try {
                expand(c, out);
            } catch (...) {
                error = std::current_exception();
            }
            std::lock_guard lock(m);
            if (error) {
                if (!failure) failure = error;
                stop = true;
                to_expand.notify_all();
            } else {
                ring[c % window] = std::move(out);
            }
            to_merge.notify_one();
        }
    }

    void merge_in_order(const Merge& merge) {
        for (std::size_t c = 0; c < count; ++c) {
            ChunkOutput out;
            {
                std::unique_lock lock(m);
                to_merge.wait(lock, [&] { return failure || ring[c % window].has_value(); });
                if (failure) std::rethrow_exception(failure);
                out = std::move(*ring[c % window]);
                ring[c % window].reset();
                merged = c + 1;
            }
            to_expand.notify_all();
            if (!merge(c, out)) return;
        }
    }
};

// Joins the workers on every exit path (a thread that cannot be created throws too).
struct Joiner {
    std::vector<std::thread>& pool;
    Pipeline& q;
    ~Joiner() {
        {
            std::lock_guard lock(q.m);
            q.stop = true;
        }
        q.to_expand.notify_all();
        for (std::thread& t : pool)
            if (t.joinable()) t.join();
    }
};

}  // namespace

void run_ordered_chunks(std::size_t count, int threads, std::size_t window, const Expand& expand, const Merge& merge) {
    if (threads <= 1 || count <= 1) return on_this_thread(count, expand, merge);
    if (window < static_cast<std::size_t>(threads)) window = static_cast<std::size_t>(threads);
    Pipeline q(count, window, expand);
    std::vector<std::thread> pool;
    Joiner joiner{pool, q};
    // Under --max-memory (RLIMIT_AS) a thread's stack may not fit (EAGAIN): the threads that
    // did start do the work, and with none the calling thread expands every chunk itself.
    for (int i = 0; i < threads; ++i) {
        try {
            pool.emplace_back([&q] { q.work(); });
        } catch (const std::system_error&) {
            break;
        }
    }
    if (pool.empty()) return on_this_thread(count, expand, merge);
    q.merge_in_order(merge);
}

}  // namespace gpuwcrt::exact
