// Numerically stable softmax over each row, with its sub-steps kept for the page
// (seed 002: exp(scores - scores.max(axis=-1)) / sum).
#pragma once

#include "attn/kernels.hpp"
#include "attn/types.hpp"

namespace attn {

/// @brief The visible sub-steps of α_ij = exp(e_ij - m_i) / Σ_j exp(e_ij - m_i).
struct softmax_steps {
    tensor3 row_max;  // (h, n_q, 1)    m_i = max_j e_ij
    tensor3 exp;      // (h, n_q, n_k)  exp(e_ij - m_i)
    tensor3 row_sum;  // (h, n_q, 1)    Σ_j exp(e_ij - m_i)
    tensor3 weights;  // (h, n_q, n_k)  α_ij; each row sums to 1
};

/// @brief Softmax of every row of scores (h, n_q, n_k).
softmax_steps softmax(const tensor3& scores, const kernel_set& kernels = simd_kernels());

}  // namespace attn
