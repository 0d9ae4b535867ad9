// Splitting d_model into heads and merging them back (seed 000 MultiHeadAttention.split_heads).
#pragma once

#include "attn/types.hpp"

namespace attn {

/// @brief (n, d) -> (h, n, d_h): head i takes the contiguous columns [i·d_h, (i+1)·d_h).
tensor3 split_heads(const matrix& m, std::size_t heads);

/// @brief (h, n, d_h) -> (n, d): the inverse of split_heads (seed 000: transpose(1, 2) then view).
matrix merge_heads(const tensor3& t);

}  // namespace attn
