// Q/K/V/O projections: y = x·W + b (seed 002: Q = X·W_q).
#pragma once

#include "attn/kernels.hpp"
#include "attn/spec.hpp"

namespace attn {

/// @brief y (n, d) = x (n, d)·w (d, d) + b (d); an absent w is the identity, an absent b is zero.
matrix project(const matrix& x, const projection& p, const kernel_set& kernels = simd_kernels());

}  // namespace attn
