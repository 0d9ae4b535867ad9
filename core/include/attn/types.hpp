// Tensor types and the size letters used in every shape comment of the core.
//
// Size letters (fixed for the whole project):
//   n_q   query positions (rows of x)
//   n_k   key/value positions (rows of memory; n_k = n_q for self-attention)
//   d     d_model, the width of x, memory and every projection
//   h     number of heads
//   d_h   d / h, the width of one head
//   d_a   width of the additive (Bahdanau) score's hidden layer
#pragma once

#include <cstddef>
#include <xtensor/xtensor.hpp>

namespace attn {

/// @brief A row-major float matrix, e.g. x (n_q, d).
using matrix = xt::xtensor<float, 2>;
/// @brief A float vector, e.g. a bias (d).
using vector = xt::xtensor<float, 1>;
/// @brief A per-head stack of matrices, e.g. q (h, n_q, d_h).
using tensor3 = xt::xtensor<float, 3>;

}  // namespace attn
