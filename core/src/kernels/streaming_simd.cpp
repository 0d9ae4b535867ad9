// The SIMD streaming attention: streaming_kernel.hpp at four lanes (SSE here, f32x4 in
// WebAssembly), and on x86-64 the dispatch to the AVX2 + FMA and AVX-512 builds of the same
// kernel (streaming_avx2.cpp, streaming_avx512.cpp) when the CPU has them, decided once.
#include "attn/streaming.hpp"
#include "kernels/simd4.hpp"
#include "kernels/streaming_kernel.hpp"

namespace attn {

#if defined(ATTN_X86_DISPATCH)
// streaming_avx2.cpp and streaming_avx512.cpp, built with their own -m flags
void streaming_avx2(float* out, const float* q, const float* k, const float* v, std::size_t n_q, std::size_t n_k,
                    std::size_t d, std::size_t heads, bool causal, std::atomic<std::size_t>* shared);
void streaming_avx512(float* out, const float* q, const float* k, const float* v, std::size_t n_q, std::size_t n_k,
                      std::size_t d, std::size_t heads, bool causal, std::atomic<std::size_t>* shared);
#endif

namespace {

#if defined(ATTN_X86_DISPATCH)
simd_level widest() {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma")) return simd_level::avx512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return simd_level::avx2;
    return simd_level::lanes4;
}
#else
simd_level widest() { return simd_level::lanes4; }
#endif

/// The kernel at one level (shared: as streaming_kernel takes it); false, and nothing computed, when this CPU
/// or build lacks it.
bool run_at(simd_level level, float* out, const float* q, const float* k, const float* v, std::size_t n_q,
             std::size_t n_k, std::size_t d, std::size_t heads, bool causal, std::atomic<std::size_t>* shared) {
    if (static_cast<int>(level) > static_cast<int>(streaming_level())) return false;  // this CPU lacks it
    switch (level) {
        case simd_level::lanes4: streaming_kernel<4>(out, q, k, v, n_q, n_k, d, heads, causal, shared); return true;
#if defined(ATTN_X86_DISPATCH)
        case simd_level::avx2: streaming_avx2(out, q, k, v, n_q, n_k, d, heads, causal, shared); return true;
        case simd_level::avx512: streaming_avx512(out, q, k, v, n_q, n_k, d, heads, causal, shared); return true;
#else
        default: return false;
#endif
    }
    return false;
}

}  // namespace

simd_level streaming_level() {
    static const simd_level level = widest();
    return level;
}

const char* simd_level_name(simd_level level) {
    switch (level) {
        case simd_level::lanes4:
#if defined(__wasm__)
            return "wasm simd128 (4 lanes)";
#else
            return "sse (4 lanes)";
#endif
        case simd_level::avx2: return "avx2+fma (8 lanes)";
        case simd_level::avx512: return "avx512f (16 lanes)";
    }
    return "";
}

bool attention_streaming_at(simd_level level, float* out, const float* q, const float* k, const float* v,
                            std::size_t n_q, std::size_t n_k, std::size_t d, std::size_t heads, bool causal) {
    return run_at(level, out, q, k, v, n_q, n_k, d, heads, causal, nullptr);
}

void attention_streaming_shared(float* out, const float* q, const float* k, const float* v, std::size_t n_q,
                                std::size_t n_k, std::size_t d, std::size_t heads, bool causal, std::atomic<std::size_t>& next_item) {
    run_at(streaming_level(), out, q, k, v, n_q, n_k, d, heads, causal, &next_item);
}

std::size_t attention_streaming_bytes(std::size_t n_q, std::size_t n_k, std::size_t d, std::size_t heads,
                                     std::size_t threads) {
    const std::size_t dh = d / heads;
    std::size_t scratch = 0;
    switch (streaming_level()) {  // the kernel attention_streaming runs here
        case simd_level::lanes4: scratch = heap_floats_for<4, default_rows, default_pre<4>>(dh, n_k); break;
        case simd_level::avx2: scratch = heap_floats_for<8, default_rows, default_pre<8>>(dh, n_k); break;
        case simd_level::avx512: scratch = heap_floats_for<16, default_rows, default_pre<16>>(dh, n_k); break;
    }
    // q, out, k, v, and each thread's kernel buffers on the heap (a small call's fit the scratch it keeps)
    return (2 * n_q * d + 2 * n_k * d + std::max<std::size_t>(1, threads) * scratch) * sizeof(float);
}

void attention_streaming(float* out, const float* q, const float* k, const float* v, std::size_t n_q, std::size_t n_k,
                         std::size_t d, std::size_t heads, bool causal) {
    run_at(streaming_level(), out, q, k, v, n_q, n_k, d, heads, causal, nullptr);
}

long first_not_finite(const float* values, std::size_t count) {
    // a std::isfinite loop took 120–150 µs for n = 512, d = 64 (4 % of the whole call); a block pass with the
    // exponent bits compared, which the compiler did not vectorise for wasm, was 12 % of a call at n = 16
    constexpr std::size_t block = 256;
    for (std::size_t begin = 0; begin < count; begin += block) {
        const std::size_t n = std::min(block, count - begin);
        if (simd::all_finite(values + begin, n)) continue;
        for (std::size_t i = begin; i < begin + n; ++i)
            if (!std::isfinite(values[i])) return long(i);
    }
    return -1;
}

}  // namespace attn
