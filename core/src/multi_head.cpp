#include "attn/multi_head.hpp"

namespace attn {

tensor3 split_heads(const matrix& m, std::size_t heads) {
    const std::size_t n = m.shape(0), d = m.shape(1), d_h = d / heads;
    tensor3 t = tensor3::from_shape({heads, n, d_h});
    for (std::size_t h = 0; h < heads; ++h)
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t c = 0; c < d_h; ++c) t(h, i, c) = m(i, h * d_h + c);
    return t;
}

matrix merge_heads(const tensor3& t) {
    const std::size_t heads = t.shape(0), n = t.shape(1), d_h = t.shape(2);
    matrix m = matrix::from_shape({n, heads * d_h});
    for (std::size_t h = 0; h < heads; ++h)
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t c = 0; c < d_h; ++c) m(i, h * d_h + c) = t(h, i, c);
    return m;
}

}  // namespace attn
