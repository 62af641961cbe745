#include "solver/exact/ordered_chunks.hpp"

#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <vector>

namespace gpuwcrt::exact {

void run_ordered_chunks(std::size_t count, int threads, std::size_t window,
                        const std::function<void(std::size_t, ChunkOutput&)>& expand,
                        const std::function<bool(std::size_t, ChunkOutput&)>& merge) {
    auto on_this_thread = [&] {
        for (std::size_t c = 0; c < count; ++c) {
            ChunkOutput out;
            expand(c, out);
            if (!merge(c, out)) return;
        }
    };
    if (threads <= 1 || count <= 1) return on_this_thread();
    if (window < static_cast<std::size_t>(threads)) window = static_cast<std::size_t>(threads);
    std::mutex m;
    std::condition_variable to_merge, to_expand;
    std::vector<std::optional<ChunkOutput>> ring(window);
    std::size_t next = 0, merged = 0;
    bool stop = false;
    std::exception_ptr failure;
    auto worker = [&] {
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
    };
    std::vector<std::thread> pool;
    // Joined on every exit path below (a thread that cannot be created throws here too).
    struct Joiner {
        std::vector<std::thread>& pool;
        std::mutex& m;
        std::condition_variable& cv;
        bool& stop;
        ~Joiner() {
            {
                std::lock_guard lock(m);
                stop = true;
            }
            cv.notify_all();
            for (std::thread& t : pool)
                if (t.joinable()) t.join();
        }
    } joiner{pool, m, to_expand, stop};
    // Under --max-memory (RLIMIT_AS) a thread's stack may not fit (EAGAIN): the threads that
    // did start do the work, and with none the calling thread expands every chunk itself.
    for (int i = 0; i < threads; ++i) {
        try {
            pool.emplace_back(worker);
        } catch (const std::system_error&) {
            break;
        }
    }
    if (pool.empty()) return on_this_thread();
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

}  // namespace gpuwcrt::exact
