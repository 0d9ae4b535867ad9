// The SIMD streaming attention: four keys at a time (their four dot products summed across lanes
// at once), e^x on four lanes, the accumulator updated four values of d_h at a time.
#include <algorithm>
#include <cmath>
#include <vector>

#include "attn/streaming.hpp"
#include "simd4.hpp"
#include "streaming_rows.hpp"

namespace attn {

void attention_streaming(float* out, const float* q, const float* k, const float* v, std::size_t n_q, std::size_t n_k,
                         std::size_t d, std::size_t heads, bool causal) {
    using namespace simd;
    const std::size_t dh = d / heads, dh4 = dh - dh % 4;
    streaming_detail::for_each_row(out, q, n_q, n_k, d, heads, causal, [&](const float* qi, std::size_t col, std::size_t keys, float* acc, float scale) {
        float m = -INFINITY, l = 0.0f;
        for (std::size_t j = 0; j < keys; j += 4) {
            const std::size_t block = std::min<std::size_t>(4, keys - j);
            // the block's scores: four dot products over d_h, summed across lanes together;
            // a short last block reads its first key again in place of the missing ones
            const float* k0 = k + j * d + col;
            const float* k1 = block > 1 ? k0 + d : k0;
            const float* k2 = block > 2 ? k0 + 2 * d : k0;
            const float* k3 = block > 3 ? k0 + 3 * d : k0;
            f32x4 c0 = splat(0), c1 = splat(0), c2 = splat(0), c3 = splat(0);
            for (std::size_t p = 0; p < dh4; p += 4) {
                const f32x4 qv = load(qi + p);
                c0 += qv * load(k0 + p);
                c1 += qv * load(k1 + p);
                c2 += qv * load(k2 + p);
                c3 += qv * load(k3 + p);
            }
            f32x4 s = hsum4(c0, c1, c2, c3);
            for (std::size_t t = 0; t < block; ++t)
                for (std::size_t p = dh4; p < dh; ++p) s[t] += qi[p] * k[(j + t) * d + col + p];
            s *= splat(scale);
            for (std::size_t t = block; t < 4; ++t) s[t] = -INFINITY;  // keys past the end weigh nothing
            const float m_new = std::max(m, std::max(std::max(s[0], s[1]), std::max(s[2], s[3])));
            const float rescale = m_new == m ? 1.0f : std::exp(m - m_new);  // the maximum moved: shrink what is summed so far
            const f32x4 e = exp4(s - splat(m_new));
            l = l * rescale + hsum(e);
            // acc = acc·rescale + Σ_t e_t·v_t, four values of d_h at a time (a missing key's e_t is 0)
            const float* v0 = v + j * d + col;
            const float* v1 = block > 1 ? v0 + d : v0;
            const float* v2 = block > 2 ? v0 + 2 * d : v0;
            const float* v3 = block > 3 ? v0 + 3 * d : v0;
            const f32x4 e0 = splat(e[0]), e1 = splat(e[1]), e2 = splat(e[2]), e3 = splat(e[3]), r = splat(rescale);
            std::size_t p = 0;
            for (; p + 4 <= dh; p += 4)
                store(acc + p, load(acc + p) * r + e0 * load(v0 + p) + e1 * load(v1 + p) + e2 * load(v2 + p) + e3 * load(v3 + p));
            for (; p < dh; ++p) {
                float a = acc[p] * rescale;
                for (std::size_t t = 0; t < block; ++t) a += e[t] * v[(j + t) * d + col + p];
                acc[p] = a;
            }
            m = m_new;
        }
        return l;
    });
}

}  // namespace attn
