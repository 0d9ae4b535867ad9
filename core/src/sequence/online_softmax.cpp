// online_softmax(): the streaming softmax of attn/streaming.hpp, one row at a time and keeping
// every tile's state. A teaching path on small inputs, so plain loops, no SIMD twin.
#include "attn/online_softmax.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace attn {

online_steps online_softmax(const tensor3& scores, const tensor3& v, std::size_t block, float nothing_yet) {
    const std::size_t heads = scores.shape(0), n_q = scores.shape(1), n_k = scores.shape(2), d_h = v.shape(2);
    const std::size_t tiles = tile_count(n_k, block);
    online_steps o{tensor3::from_shape({heads, n_q, tiles}), tensor3::from_shape({heads, n_q, tiles}),
                   tensor3::from_shape({heads, n_q, tiles}), tensor3::from_shape({heads, n_q, tiles * d_h}),
                   tensor3::from_shape({heads, n_q, d_h})};
    std::vector<float> acc(d_h);
    for (std::size_t h = 0; h < heads; ++h)
        for (std::size_t i = 0; i < n_q; ++i) {
            float m = -INFINITY, l = 0.0f;
            std::fill(acc.begin(), acc.end(), 0.0f);
            for (std::size_t t = 0; t < tiles; ++t) {
                const std::size_t first = t * block, last = std::min(n_k, first + block);
                float m_new = m;
                for (std::size_t j = first; j < last; ++j) m_new = std::max(m_new, scores(h, i, j));
                // nothing seen yet (every key so far masked): nothing to rescale
                const float r = std::isinf(m) ? 0.0f : std::exp(m - m_new);
                l *= r;
                for (float& a : acc) a *= r;
                for (std::size_t j = first; j < last; ++j) {
                    if (std::isinf(scores(h, i, j))) continue;  // a masked key
                    const float e = std::exp(scores(h, i, j) - m_new);
                    l += e;
                    for (std::size_t c = 0; c < d_h; ++c) acc[c] += e * v(h, j, c);
                }
                m = m_new;
                o.max(h, i, t) = std::isinf(m) ? nothing_yet : m;
                o.rescale(h, i, t) = r;
                o.sum(h, i, t) = l;
                std::copy(acc.begin(), acc.end(), &o.acc(h, i, t * d_h));
            }
            for (std::size_t c = 0; c < d_h; ++c) o.output(h, i, c) = acc[c] / l;
        }
    return o;
}

}  // namespace attn
