// Heads: seed 000's split_heads is view(n, h, d_h).transpose(0, 1), and merging is its inverse. Written
// as plain loops: these run on every trace and twice per training item, and xtensor's strided
// transpose-of-a-reshape assignment cost more than the copy itself (8% of a training step natively).
// Each head's row is d_h contiguous floats on both sides: one copy per row.
#include "attn/multi_head.hpp"

#include <algorithm>

namespace attn {

tensor3 split_heads(const matrix& m, std::size_t heads) {
    const std::size_t n = m.shape(0), d_h = m.shape(1) / heads;
    tensor3 out = tensor3::from_shape({heads, n, d_h});  // (n, d) -> (h, n, d_h): head h takes columns h·d_h …
    for (std::size_t h = 0; h < heads; ++h)
        for (std::size_t i = 0; i < n; ++i) {
            const float* from = m.data() + i * m.shape(1) + h * d_h;
            std::copy(from, from + d_h, out.data() + (h * n + i) * d_h);
        }
    return out;
}

matrix merge_heads(const tensor3& t) {
    const std::size_t heads = t.shape(0), n = t.shape(1), d_h = t.shape(2);
    matrix out = matrix::from_shape({n, heads * d_h});  // (h, n, d_h) -> (n, d): the heads side by side again
    for (std::size_t h = 0; h < heads; ++h)
        for (std::size_t i = 0; i < n; ++i) {
            const float* from = t.data() + (h * n + i) * d_h;
            std::copy(from, from + d_h, out.data() + i * heads * d_h + h * d_h);
        }
    return out;
}

}  // namespace attn
