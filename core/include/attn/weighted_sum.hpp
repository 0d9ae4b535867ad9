// The weighted sum of values (seed 000, step 3): c_i = Σ_j α_ij v_j.
#pragma once

#include "attn/kernels.hpp"
#include "attn/types.hpp"

namespace attn {

/// @brief context (h, n_q, d_h) = weights (h, n_q, n_k) · v (h, n_k, d_h), head by head.
tensor3 weighted_sum(const tensor3& weights, const tensor3& v, const kernel_set& kernels = simd_kernels());

}  // namespace attn
