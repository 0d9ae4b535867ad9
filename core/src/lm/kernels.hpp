// The language model's dense loops, written so the compiler vectorises them (every inner loop is a
// contiguous y += a·x, never a float reduction, which needs fast-math to vectorise). Natively each is
// also built for AVX2 + FMA and picked at run time (target_clones); in WebAssembly they are f32x4.
#pragma once

#include <cstddef>

namespace attn::lm::kern {

/// @brief out (m, n) += a (m, k) · b (k, n).
void matmul_acc(float* out, const float* a, const float* b, std::size_t m, std::size_t k, std::size_t n);
/// @brief out (k, n) += a (m, k)ᵀ · b (m, n): a weight's gradient, inᵀ · d_out.
void matmul_at_acc(float* out, const float* a, const float* b, std::size_t m, std::size_t k, std::size_t n);
/// @brief out (cols, rows) = in (rows, cols)ᵀ.
void transpose(float* out, const float* in, std::size_t rows, std::size_t cols);
/// @brief out (rows, out_dim) = in (rows, in_dim) · w (in_dim, out_dim) + b (b may be null).
void linear(float* out, const float* in, const float* w, const float* b, std::size_t rows, std::size_t in_dim,
            std::size_t out_dim);
/// @brief LayerNorm of every row over its d values (biased variance), keeping mean and 1/σ per row.
void layernorm(float* out, float* mean, float* rstd, const float* in, const float* w, const float* b,
               std::size_t rows, std::size_t d, float eps);
/// @brief out = GELU(in) elementwise, 0.5·z·(1 + erf(z/√2)) with erf to 4.2e-7 (out may be in).
void gelu_rows(float* out, const float* in, std::size_t n);
/// @brief grad ·= GELU′(pre) elementwise: the backward pass through the activation.
void gelu_grad_times(float* grad, const float* pre, std::size_t n);

}  // namespace attn::lm::kern
