// Masks: which keys each query may see, and writing mask_value into the others
// (seed 000: scores.masked_fill(mask == 0, -1e9)).
#pragma once

#include <cstdint>
#include <vector>

#include "attn/spec.hpp"

namespace attn {

/// @brief keep(i, j) = 1 where query i may see key j, 0 where it is masked: (n_q, n_k).
///   causal: j <= i; window k: i-k < j <= i; matrix: as given; none: all 1.
xt::xtensor<std::uint8_t, 2> mask_keep(const spec& s);

/// @brief The scores with mask_value written wherever keep is 0: (h, n_q, n_k).
tensor3 apply_mask(const tensor3& scores, const xt::xtensor<std::uint8_t, 2>& keep, float mask_value);

/// @brief The query rows (0-based) that keep no key at all: their softmax is uniform, as in seed 000.
std::vector<std::size_t> rows_without_keys(const xt::xtensor<std::uint8_t, 2>& keep);

/// @brief What softmax reads: the masked scores with -inf on the masked keys of every row that
/// keeps a key, so those get weight exactly 0 even where a kept score is below mask_value
/// (e.g. -1e10 against -1e9). Rows that keep no key stay all mask_value: uniform, as in seed 000.
/// empty_rows: rows_without_keys(keep), which the trace keeps anyway.
tensor3 softmax_input(const tensor3& masked, const xt::xtensor<std::uint8_t, 2>& keep,
                      const std::vector<std::size_t>& empty_rows);

}  // namespace attn
