// The scalar twin of the streaming attention: one key at a time, the online softmax spelled out.
#include <algorithm>
#include <cmath>
#include <vector>

#include "attn/streaming.hpp"

namespace attn::scalar {

void attention_streaming(float* out, const float* q, const float* k, const float* v, std::size_t n_q, std::size_t n_k,
                         std::size_t d, std::size_t heads, bool causal) {
    const std::size_t dh = d / heads;
    const float scale = 1.0f / std::sqrt(float(dh));
    std::vector<float> acc(dh);
    for (std::size_t h = 0; h < heads; ++h)
        for (std::size_t i = 0; i < n_q; ++i) {
            const float* qi = q + i * d + h * dh;
            const std::size_t col = h * dh, keys = causal ? std::min(n_k, i + 1) : n_k;
            std::fill(acc.begin(), acc.end(), 0.0f);
            float m = -INFINITY, l = 0.0f;
            for (std::size_t j = 0; j < keys; ++j) {
                const float* kj = k + j * d + col;
                float s = 0.0f;
                for (std::size_t p = 0; p < dh; ++p) s += qi[p] * kj[p];
                s *= scale;
                const float m_new = std::max(m, s);
                const float rescale = std::exp(m - m_new);  // e^(m_old − m_new): 0 for the first key
                const float e = std::exp(s - m_new);
                l = l * rescale + e;
                const float* vj = v + j * d + col;
                for (std::size_t p = 0; p < dh; ++p) acc[p] = acc[p] * rescale + e * vj[p];
                m = m_new;
            }
            float* oi = out + i * d + col;
            for (std::size_t p = 0; p < dh; ++p) oi[p] = acc[p] / l;
        }
}

}  // namespace attn::scalar
