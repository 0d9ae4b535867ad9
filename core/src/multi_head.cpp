#include "attn/multi_head.hpp"

#include <xtensor/xmanipulation.hpp>
#include <xtensor/xview.hpp>

namespace attn {

tensor3 split_heads(const matrix& m, std::size_t heads) {
    const std::size_t n = m.shape(0), d_h = m.shape(1) / heads;
    // (n, d) -> (n, h, d_h) -> (h, n, d_h): seed 000's view(n, h, d_h).transpose(0, 1)
    return xt::transpose(xt::reshape_view(m, {n, heads, d_h}), {1, 0, 2});
}

matrix merge_heads(const tensor3& t) {
    const std::size_t heads = t.shape(0), n = t.shape(1), d_h = t.shape(2);
    // (h, n, d_h) -> (n, h, d_h) -> (n, d): seed 000's transpose(1, 2) then view
    const tensor3 by_position = xt::transpose(t, {1, 0, 2});
    return xt::reshape_view(by_position, {n, heads * d_h});
}

}  // namespace attn
