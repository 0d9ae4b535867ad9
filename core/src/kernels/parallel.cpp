// The helper pool: see parallel.hpp.
#include "kernels/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

#if defined(__EMSCRIPTEN_PTHREADS__)
#include <emscripten/threading.h>
#endif

namespace attn::parallel {

namespace {
#if defined(__EMSCRIPTEN_PTHREADS__) && defined(ATTN_THREAD_POOL)
constexpr std::size_t helper_threads = ATTN_THREAD_POOL;  // besides the calling thread
#else
constexpr std::size_t helper_threads = 0;
#endif

/// Helper threads started once. After its part of a call a helper spins for a while (spin_seconds) watching
/// for the next call, and only then sleeps on a condition variable (a futex in each worker), as
/// onnxruntime's and OpenMP's pools spin before they block: waking a sleeping worker in Chromium takes
/// tens of microseconds, a few percent of a call of n = 512, and calls made one after another (a loop, a
/// page's frames of edits) find their helpers awake. A thread started per call waited for a message to
/// reach its worker (postMessage), which under load took milliseconds: at n = 512 two threads were slower
/// than one.
class helper_pool {
public:
    /// Runs work(0) on the calling thread and work(1) … work(parts − 1) on helpers, and returns when all are done.
    void run(std::size_t parts, const std::function<void(std::size_t)>& work) {
        bool sleeping = false;
        {
            std::lock_guard<std::mutex> lock(m_);
            while (started_ + 1 < parts) {
                std::thread(&helper_pool::loop, this, started_ + 1).detach();  // the pool lives as long as the module
                ++started_;  // counted once it exists: a thread that could not start is never waited for
            }
            work_ = &work;
            parts_ = parts;
            remaining_.store(parts - 1, std::memory_order_relaxed);
            generation_.fetch_add(1, std::memory_order_release);
            sleeping = sleepers_ > 0;  // read under the lock a helper takes to sleep: no wake-up is lost
        }
        if (sleeping) wake_.notify_all();
        work(0);
        // the caller spins for the helpers' last items (at most one item each, once they are awake: a block of rows
        // of the streaming kernel, 16 pairs of a linear op's outputs, an attention head): the browser's main thread,
        // which may be the caller, cannot block anyway, and there it runs what other threads proxied to it meanwhile,
        // as Emscripten's own waits do
        while (remaining_.load(std::memory_order_acquire) != 0) {
#if defined(__EMSCRIPTEN_PTHREADS__)
            if (emscripten_is_main_browser_thread()) emscripten_main_thread_process_queued_calls();
#endif
        }
    }

private:
    static constexpr double spin_seconds = 0.002;
    static double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

    void loop(std::size_t index) {
        std::uint64_t seen = 0;
        for (;;) {
            // spin until the next call or spin_seconds, reading the clock every 1024 looks
            const double until = now() + spin_seconds;
            for (unsigned looks = 1; generation_.load(std::memory_order_acquire) == seen; ++looks)
                if (looks % 1024 == 0 && now() > until) break;
            const std::function<void(std::size_t)>* work = nullptr;
            {
                std::unique_lock<std::mutex> lock(m_);
                if (generation_.load(std::memory_order_relaxed) == seen) {
                    ++sleepers_;
                    wake_.wait(lock, [&] { return generation_.load(std::memory_order_relaxed) != seen; });
                    --sleepers_;
                }
                // the generation, its parts and its work read together, under the lock run() writes them in
                seen = generation_.load(std::memory_order_relaxed);
                if (index < parts_) work = work_;  // else this call has fewer parts
            }
            if (work) {
                (*work)(index);
                remaining_.fetch_sub(1, std::memory_order_release);
            }
        }
    }
    std::mutex m_;
    std::condition_variable wake_;
    const std::function<void(std::size_t)>* work_ = nullptr;  // these three and sleepers_ under m_
    std::size_t started_ = 0, parts_ = 0, sleepers_ = 0;
    std::atomic<std::uint64_t> generation_{0};  // written under m_, read while spinning
    std::atomic<std::size_t> remaining_{0};     // helpers whose part of this call is not done
};

helper_pool& helpers() {
    static helper_pool* pool = new helper_pool;  // never destroyed: its threads wait for the module's whole life
    return *pool;
}

}  // namespace

std::size_t max_threads() {
    if (helper_threads == 0) return 1;
    return std::min<std::size_t>(helper_threads + 1, std::max(1u, std::thread::hardware_concurrency()));
}

void run(std::size_t parts, const std::function<void(std::size_t)>& work) {
    parts = std::min(parts, max_threads());  // never more than the pool: a thread beyond it would never start
    if (parts <= 1) {
        for (std::size_t p = 0; p < parts; ++p) work(p);
        return;
    }
    helpers().run(parts, work);
}

}  // namespace attn::parallel
