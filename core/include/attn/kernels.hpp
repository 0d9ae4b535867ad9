// The hot loops of attention as raw-pointer kernels, each in two twins:
// attn::simd (explicit 4-lane float vectors: SSE natively, f32x4 in WebAssembly)
// and attn::scalar (the slow, obvious oracle the tests compare against).
//
// Argument order follows llm.c: outputs first, then inputs, then sizes.
// All buffers are dense and row-major; nothing is aligned beyond float.
#pragma once

#include <cstddef>

namespace attn {

/// @brief One complete set of kernels, so a whole forward pass can run on either twin.
struct kernel_set {
    const char* name;
    /// out (m, n) = a (m, k) · b (k, n): projections and weights·V.
    void (*matmul)(float* out, const float* a, const float* b, std::size_t m, std::size_t k, std::size_t n);
    /// out (m, n) = a (m, k) · b (n, k)ᵀ: the q·kᵀ scores.
    void (*matmul_bt)(float* out, const float* a, const float* b, std::size_t m, std::size_t k, std::size_t n);
    /// Numerically stable softmax of every row of in (rows, cols), keeping each sub-step:
    /// row_max (rows), exp = e^(in - row_max) (rows, cols), row_sum (rows), weights = exp / row_sum (rows, cols).
    void (*softmax_rows)(float* weights, float* exp, float* row_max, float* row_sum,
                         const float* in, std::size_t rows, std::size_t cols);
};

/// @brief One head of softmax(q·kᵀ/√d)·v on raw buffers, the four steps compute_trace takes,
/// without keeping a trace: what the benchmarks time. q, k, v, out (n, d); scores, exp, weights
/// (n, n); row_max, row_sum (n). weights may be scores (softmax_rows reads a row before writing it).
void attention_forward(float* out, float* scores, float* exp, float* weights, float* row_max, float* row_sum,
                       const float* q, const float* k, const float* v, std::size_t n, std::size_t d,
                       const kernel_set& kernels);

/// @brief The explicit-SIMD kernels (the default everywhere).
const kernel_set& simd_kernels();
/// @brief The scalar twins: plain loops, one multiply-add at a time.
const kernel_set& scalar_kernels();

namespace simd {
void matmul(float* out, const float* a, const float* b, std::size_t m, std::size_t k, std::size_t n);
void matmul_bt(float* out, const float* a, const float* b, std::size_t m, std::size_t k, std::size_t n);
void softmax_rows(float* weights, float* exp, float* row_max, float* row_sum,
                  const float* in, std::size_t rows, std::size_t cols);
}  // namespace simd

namespace scalar {
void matmul(float* out, const float* a, const float* b, std::size_t m, std::size_t k, std::size_t n);
void matmul_bt(float* out, const float* a, const float* b, std::size_t m, std::size_t k, std::size_t n);
void softmax_rows(float* weights, float* exp, float* row_max, float* row_sum,
                  const float* in, std::size_t rows, std::size_t cols);
}  // namespace scalar

}  // namespace attn
