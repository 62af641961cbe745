#pragma once
// Runs `expand(chunk, out)` for chunks 0..count-1 on `threads` threads and hands every output to
// `merge(chunk, out)` on the calling thread, strictly in chunk order (so the merged result does
// not depend on thread timing). At most `window` chunks are expanded ahead of the merge, which
// bounds the memory held in outputs. `merge` returns false to stop: chunks not yet merged are
// dropped. An exception in a worker (std::bad_alloc included) is rethrown on the calling thread.
// With threads == 1 everything runs on the calling thread, in the same order.
#include <cstddef>
#include <functional>

#include "solver/exact/chunk_output.hpp"

namespace gpuwcrt::exact {

void run_ordered_chunks(std::size_t count, int threads, std::size_t window,
                        const std::function<void(std::size_t, ChunkOutput&)>& expand,
                        const std::function<bool(std::size_t, ChunkOutput&)>& merge);

}  // namespace gpuwcrt::exact
