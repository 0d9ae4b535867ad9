#include "attn/mask.hpp"

#include <limits>

#include <xtensor/xoperation.hpp>
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
    // keep (n_q, n_k) broadcasts over the heads: scores.masked_fill(mask == 0, mask_value); a loop, as below
    tensor3 out = scores;
    const std::size_t heads = scores.shape(0), cells = keep.size();
    const std::uint8_t* k = keep.data();
    for (std::size_t h = 0; h < heads; ++h) {
        float* o = out.data() + h * cells;
        for (std::size_t c = 0; c < cells; ++c)
            if (!k[c]) o[c] = mask_value;
    }
    return out;
}

// apply_mask, rows_without_keys and softmax_input: loops on purpose. They run on every masked trace, and
// xtensor's broadcasting reducers and where() made a masked example's trace 1.6× slower in wasm.
std::vector<std::size_t> rows_without_keys(const xt::xtensor<std::uint8_t, 2>& keep) {
    std::vector<std::size_t> rows;
    for (std::size_t i = 0; i < keep.shape(0); ++i) {
        bool any = false;
        for (std::size_t j = 0; j < keep.shape(1) && !any; ++j) any = keep(i, j) != 0;
        if (!any) rows.push_back(i);
    }
    return rows;
}

tensor3 softmax_input(const tensor3& masked, const xt::xtensor<std::uint8_t, 2>& keep,
                      const std::vector<std::size_t>& empty) {
    // hidden where masked and the row keeps some key; an empty row keeps its mask_values (uniform)
    const std::size_t heads = masked.shape(0), n_q = masked.shape(1), n_k = masked.shape(2);
    const float hidden = -std::numeric_limits<float>::infinity();
    tensor3 out = masked;
    for (std::size_t i = 0, e = 0; i < n_q; ++i) {
        if (e < empty.size() && empty[e] == i) {
            ++e;
            continue;
        }
        for (std::size_t h = 0; h < heads; ++h)
            for (std::size_t j = 0; j < n_k; ++j)
                if (!keep(i, j)) out(h, i, j) = hidden;
    }
    return out;
}

}  // namespace attn
