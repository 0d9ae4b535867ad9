#include "attn/mask.hpp"

#include <limits>

#include <xtensor/xoperation.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xview.hpp>

namespace attn {

xt::xtensor<std::uint8_t, 2> mask_keep(const spec& s) {
    const std::size_t n_q = s.n_q(), n_k = s.n_k();
    xt::xtensor<std::uint8_t, 2> keep = xt::xtensor<std::uint8_t, 2>::from_shape({n_q, n_k});
    for (std::size_t i = 0; i < n_q; ++i)
        for (std::size_t j = 0; j < n_k; ++j) {
            bool k = true;
            switch (s.mask) {
                case mask_kind::none: break;
                case mask_kind::causal: k = j <= i; break;
                case mask_kind::window: k = j <= i && i - j < static_cast<std::size_t>(s.window); break;
                case mask_kind::matrix: k = s.mask_matrix(i, j) != 0.0f; break;
            }
            keep(i, j) = k ? 1 : 0;
        }
    return keep;
}

tensor3 apply_mask(const tensor3& scores, const xt::xtensor<std::uint8_t, 2>& keep, float mask_value) {
    // keep (n_q, n_k) broadcasts over the heads: scores.masked_fill(mask == 0, mask_value)
    return xt::where(xt::equal(keep, std::uint8_t{0}), mask_value, scores);
}

std::vector<std::size_t> rows_without_keys(const xt::xtensor<std::uint8_t, 2>& keep) {
    const xt::xtensor<bool, 1> empty = xt::equal(xt::amax(keep, {1}), std::uint8_t{0});  // no 1 in the row
    std::vector<std::size_t> rows;
    for (std::size_t i = 0; i < empty.size(); ++i)
        if (empty(i)) rows.push_back(i);
    return rows;
}

tensor3 softmax_input(const tensor3& masked, const xt::xtensor<std::uint8_t, 2>& keep) {
    // hidden where masked and the row keeps some key; an empty row keeps its mask_values (uniform)
    const xt::xtensor<bool, 2> sees_a_key = xt::view(xt::not_equal(xt::amax(keep, {1}), std::uint8_t{0}), xt::all(), xt::newaxis());
    const xt::xtensor<bool, 2> hide = xt::equal(keep, std::uint8_t{0}) && sees_a_key;
    return xt::where(hide, -std::numeric_limits<float>::infinity(), masked);
}

}  // namespace attn
