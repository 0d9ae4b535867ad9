// Positional encodings (seed 000): attention itself is blind to order, so a position
// signal is added to every input row.
#pragma once

#include "attn/types.hpp"

namespace attn {

/// @brief PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(pos / 10000^(2i/d)): (n, d).
/// Computed in double and rounded once, so every platform gets the same floats.
matrix sinusoidal_encoding(std::size_t n, std::size_t d);

/// @brief The first n rows of a learned table (>= n, d): seed 000's nn.Embedding(max_len, d_model).
matrix learned_encoding(const matrix& table, std::size_t n);

}  // namespace attn
