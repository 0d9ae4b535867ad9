// The helper threads a call may share its work with: the one pool of the wasm-threads build (Emscripten's -pthread,
// __EMSCRIPTEN_PTHREADS__ and ATTN_THREAD_POOL), which a page loads when it is cross-origin isolated; there
// Emscripten starts ATTN_THREAD_POOL workers with the module, the first call starts its helper threads on them
// once (a new worker starts only when the main thread returns to the browser, which a call waiting for its
// helpers never does), and every call after wakes the same helpers. Every other build runs every part on the
// calling thread. The streaming attention (streaming_threads.cpp) and the op library (ops/ops.cpp) share it.
// Internal to the library.
#pragma once

#include <cstddef>
#include <functional>

namespace attn::parallel {

/// How many threads a call may use: its own and the pool's helpers, at most the cores (1 but in the wasm-threads build).
std::size_t max_threads();
/// Runs work(0) on the calling thread and work(1) … work(parts − 1) on helpers, and returns when all are done
/// (parts beyond max_threads() are not run: each part takes items until none is left, so part 0 takes what the
/// others would have). The work must not throw (a helper's
/// exception ends the module; the caller's would leave helpers running on its locals), nor allocate where the
/// memory could grow: the caller's thread is the one whose JavaScript sees the module's memory.
void run(std::size_t parts, const std::function<void(std::size_t)>& work);

}  // namespace attn::parallel
