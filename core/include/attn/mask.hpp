// Masks: which keys each query may see, and writing mask_value into the others
// (seed 000: scores.masked_fill(mask == 0, -1e9)).
#pragma once

#include <cstdint>

#include "attn/spec.hpp"

namespace attn {

/// @brief keep(i, j) = 1 where query i may see key j, 0 where it is masked: (n_q, n_k).
///   causal: j <= i; window k: i-k < j <= i; matrix: as given; none: all 1.
xt::xtensor<std::uint8_t, 2> mask_keep(const spec& s);

/// @brief The scores with mask_value written wherever keep is 0: (h, n_q, n_k).
tensor3 apply_mask(const tensor3& scores, const xt::xtensor<std::uint8_t, 2>& keep, float mask_value);

}  // namespace attn
