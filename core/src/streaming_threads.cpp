// The streaming attention shared between threads: each takes a run of query rows (split_rows), so
// no two write the same row of out and nothing needs a lock. Threads exist only in the wasm-threads
// module (Emscripten's -pthread, __EMSCRIPTEN_PTHREADS__), which a page loads when it is
// cross-origin isolated; there Emscripten starts ATTN_THREAD_POOL workers with the module, and a call
// never asks for more (a new worker starts only when the main thread returns to the browser, which a
// call waiting in join() never does). Every other build runs the same rows on one thread.
#include <algorithm>
#include <thread>

#include "attn/streaming.hpp"

namespace attn {

namespace {
#if defined(__EMSCRIPTEN_PTHREADS__) && defined(ATTN_THREAD_POOL)
constexpr std::size_t helper_threads = ATTN_THREAD_POOL;  // besides the calling thread
#else
constexpr std::size_t helper_threads = 0;
#endif
/// Below this many multiply-adds (n_q · n_k · d) one thread is faster: starting and joining the others
/// costs about 0.1–0.2 ms, and 4M multiply-adds take about 0.4 ms in wasm.
constexpr std::size_t min_parallel_work = std::size_t(1) << 22;
}  // namespace

std::vector<std::size_t> split_rows(std::size_t n_q, std::size_t n_k, bool causal, std::size_t parts) {
    parts = std::max<std::size_t>(1, parts);
    const auto keys = [&](std::size_t i) { return causal ? std::min(n_k, i + 1) : n_k; };
    double total = 0;
    for (std::size_t i = 0; i < n_q; ++i) total += double(keys(i));
    std::vector<std::size_t> bounds{0};
    double done = 0;
    for (std::size_t i = 0; i < n_q && bounds.size() < parts; ++i) {
        done += double(keys(i));
        if (done >= total * double(bounds.size()) / double(parts)) bounds.push_back(i + 1);
    }
    while (bounds.size() <= parts) bounds.push_back(n_q);
    return bounds;
}

std::size_t streaming_max_threads() {
    if (helper_threads == 0) return 1;
    return std::min<std::size_t>(helper_threads + 1, std::max(1u, std::thread::hardware_concurrency()));
}

std::size_t streaming_threads_for(std::size_t n_q, std::size_t n_k, std::size_t d, std::size_t max_threads) {
    if (n_q < 2 || n_q * n_k * d < min_parallel_work) return 1;
    return std::max<std::size_t>(1, std::min({max_threads, streaming_max_threads(), n_q}));
}

void attention_streaming_threads(float* out, const float* q, const float* k, const float* v, std::size_t n_q,
                                 std::size_t n_k, std::size_t d, std::size_t heads, bool causal, std::size_t max_threads) {
    const std::size_t threads = streaming_threads_for(n_q, n_k, d, max_threads);
    const std::vector<std::size_t> bounds = split_rows(n_q, n_k, causal, threads);
    std::vector<std::thread> helpers;
    for (std::size_t t = 1; t < threads; ++t)
        helpers.emplace_back(attention_streaming_rows, out, q, k, v, n_q, n_k, d, heads, causal, bounds[t], bounds[t + 1]);
    attention_streaming_rows(out, q, k, v, n_q, n_k, d, heads, causal, bounds[0], bounds[1]);
    for (std::thread& helper : helpers) helper.join();
}

}  // namespace attn
