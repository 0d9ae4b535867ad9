// Similarity scores e_ij between every query and every key, per head (seed 000, step 1),
// and the scaling stage of scaled dot-product attention.
#pragma once

#include "attn/kernels.hpp"
#include "attn/spec.hpp"

namespace attn {

/// @brief e_ij = q_i·k_j for every head: (h, n_q, d_h), (h, n_k, d_h) -> (h, n_q, n_k).
tensor3 score_dot(const tensor3& q, const tensor3& k, const kernel_set& kernels = simd_kernels());

/// @brief e_ij = tanh(q_i·W1 + k_j·W2)·v (Bahdanau); W1, W2 (d_h, d_a), v (d_a) shared by all heads.
tensor3 score_additive(const tensor3& q, const tensor3& k, const matrix& w1, const matrix& w2, const vector& v,
                       const kernel_set& kernels = simd_kernels());

/// @brief e_ij = q_i·W·k_jᵀ; W (d_h, d_h) shared by all heads.
tensor3 score_bilinear(const tensor3& q, const tensor3& k, const matrix& w, const kernel_set& kernels = simd_kernels());

/// @brief The score the spec names (dot, scaled_dot's raw q·k, additive or bilinear).
tensor3 score(const spec& s, const tensor3& q, const tensor3& k, const kernel_set& kernels = simd_kernels());

/// @brief scores / √d_h (Vaswani et al.): keeps softmax out of its flat, one-hot region.
tensor3 scale(const tensor3& scores, std::size_t d_head);

}  // namespace attn
