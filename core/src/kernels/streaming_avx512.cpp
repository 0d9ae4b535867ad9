// The streaming kernel built for AVX-512F (16 lanes): this file alone is compiled with its -m flags
// (core/CMakeLists.txt), and streaming_simd.cpp calls it only when the CPU reports them.
#include "attn/streaming.hpp"
#include "kernels/streaming_kernel.hpp"

namespace attn {

void streaming_avx512(float* out, const float* q, const float* k, const float* v, std::size_t n_q, std::size_t n_k,
                     std::size_t d, std::size_t heads, bool causal, std::atomic<std::size_t>* shared) {
    streaming_kernel<16>(out, q, k, v, n_q, n_k, d, heads, causal, shared);
}

}  // namespace attn
