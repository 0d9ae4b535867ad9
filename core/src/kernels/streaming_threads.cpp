// The streaming attention shared between threads: each takes the next of the call's items (one head's
// block of query rows) from one atomic counter (attention_streaming_shared), so no two write the same row
// of out, nothing needs a lock, and a helper that wakes late or runs on a busier core takes fewer items.
// (Halves fixed in advance scaled 1.5× on two cores in Chromium: n = 512 took 1.32–1.36 ms against one thread's
// 2.0, n = 1024 5.2 against 7.8; with items from the counter 1.02–1.22 and 3.75–3.9 ms, d = 64.) The threads are
// the library's one helper pool (kernels/parallel.hpp), in the wasm-threads module only.
#include <algorithm>
#include <atomic>

#include "attn/streaming.hpp"
#include "kernels/parallel.hpp"

namespace attn {

namespace {
/// Below this many multiply-adds (n_q · n_k · d) one thread is faster: starting and joining the others
/// costs about 0.1–0.2 ms, and 4M multiply-adds take about 0.4 ms in wasm.
constexpr std::size_t min_parallel_work = std::size_t(1) << 22;
}  // namespace

std::size_t streaming_max_threads() { return parallel::max_threads(); }

std::size_t streaming_threads_for(std::size_t n_q, std::size_t n_k, std::size_t d, std::size_t max_threads) {
    if (n_q < 2 || n_q * n_k * d < min_parallel_work) return 1;
    return std::max<std::size_t>(1, std::min({max_threads, streaming_max_threads(), n_q}));
}

void attention_streaming_threads(float* out, const float* q, const float* k, const float* v, std::size_t n_q,
                                 std::size_t n_k, std::size_t d, std::size_t heads, bool causal, std::size_t max_threads) {
    const std::size_t threads = streaming_threads_for(n_q, n_k, d, max_threads);
    if (threads == 1) return attention_streaming(out, q, k, v, n_q, n_k, d, heads, causal);  // nothing to share
    std::atomic<std::size_t> next_item{0};
    parallel::run(threads, [&](std::size_t) { attention_streaming_shared(out, q, k, v, n_q, n_k, d, heads, causal, next_item); });
}

}  // namespace attn
