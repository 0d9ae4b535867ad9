// The SIMD streaming attention, cache-blocked: four query rows share every load of a block of four
// keys (their 4 × 4 scores summed across lanes four at a time) and of the four value rows that
// follow; each row keeps its own running maximum, running sum and accumulator. e^x on four lanes.
#include <algorithm>
#include <cmath>
#include <vector>

#include "attn/streaming.hpp"
#include "simd4.hpp"

namespace attn {

namespace {

using namespace simd;

constexpr std::size_t R = 4;  // query rows per group

struct row_state {
    float m = -INFINITY, l = 0.0f;
};

}  // namespace

void attention_streaming(float* out, const float* q, const float* k, const float* v, std::size_t n_q, std::size_t n_k,
                         std::size_t d, std::size_t heads, bool causal) {
    const std::size_t dh = d / heads, dh4 = dh - dh % 4;
    const float scale = 1.0f / std::sqrt(float(dh));
    std::vector<float> acc(R * dh);
    for (std::size_t h = 0; h < heads; ++h) {
        const std::size_t col = h * dh;
        for (std::size_t i0 = 0; i0 < n_q; i0 += R) {
            const std::size_t rows = std::min(R, n_q - i0);
            // a short last group repeats its first row in the missing places (their results are not kept)
            const float* qr[R];
            std::size_t limit[R];  // keys row r sees: all, or j <= i with the causal mask
            for (std::size_t r = 0; r < R; ++r) {
                const std::size_t i = i0 + (r < rows ? r : 0);
                qr[r] = q + i * d + col;
                limit[r] = causal ? std::min(n_k, i + 1) : n_k;
            }
            const std::size_t keys = *std::max_element(limit, limit + R);
            row_state st[R];
            std::fill(acc.begin(), acc.end(), 0.0f);
            for (std::size_t j = 0; j < keys; j += 4) {
                const std::size_t block = std::min<std::size_t>(4, keys - j);
                const float* kt[4];
                const float* vt[4];
                for (std::size_t t = 0; t < 4; ++t) {
                    kt[t] = k + (j + (t < block ? t : 0)) * d + col;
                    vt[t] = v + (j + (t < block ? t : 0)) * d + col;
                }
                // scores of the four rows against the four keys: one load of each key serves four rows
                f32x4 c[R][4];
                for (std::size_t r = 0; r < R; ++r) c[r][0] = c[r][1] = c[r][2] = c[r][3] = splat(0);
                for (std::size_t p = 0; p < dh4; p += 4) {
                    const f32x4 k0 = load(kt[0] + p), k1 = load(kt[1] + p), k2 = load(kt[2] + p), k3 = load(kt[3] + p);
                    for (std::size_t r = 0; r < R; ++r) {
                        const f32x4 qv = load(qr[r] + p);
                        c[r][0] += qv * k0;
                        c[r][1] += qv * k1;
                        c[r][2] += qv * k2;
                        c[r][3] += qv * k3;
                    }
                }
                f32x4 e[R];
                float rescale[R];
                for (std::size_t r = 0; r < R; ++r) {
                    f32x4 s = hsum4(c[r][0], c[r][1], c[r][2], c[r][3]);
                    for (std::size_t t = 0; t < 4; ++t)
                        for (std::size_t p = dh4; p < dh; ++p) s[t] += qr[r][p] * kt[t][p];
                    s *= splat(scale);
                    // keys past the end, or past this row under the causal mask, weigh nothing
                    for (std::size_t t = 0; t < 4; ++t)
                        if (t >= block || j + t >= limit[r]) s[t] = -INFINITY;
                    const float top = std::max(std::max(s[0], s[1]), std::max(s[2], s[3]));
                    const float m_new = std::max(st[r].m, top);
                    if (m_new == -INFINITY) {  // this row sees none of these keys (it ended earlier)
                        e[r] = splat(0);
                        rescale[r] = 1.0f;
                        continue;
                    }
                    rescale[r] = m_new == st[r].m ? 1.0f : std::exp(st[r].m - m_new);
                    e[r] = exp4(s - splat(m_new));
                    st[r].l = st[r].l * rescale[r] + hsum(e[r]);
                    st[r].m = m_new;
                }
                // acc_r = acc_r·rescale_r + Σ_t e_rt·v_t: one load of each value row serves four rows
                std::size_t p = 0;
                for (; p + 4 <= dh; p += 4) {
                    const f32x4 v0 = load(vt[0] + p), v1 = load(vt[1] + p), v2 = load(vt[2] + p), v3 = load(vt[3] + p);
                    for (std::size_t r = 0; r < R; ++r) {
                        float* a = acc.data() + r * dh + p;
                        store(a, load(a) * splat(rescale[r]) + splat(e[r][0]) * v0 + splat(e[r][1]) * v1 + splat(e[r][2]) * v2 +
                                     splat(e[r][3]) * v3);
                    }
                }
                for (; p < dh; ++p)
                    for (std::size_t r = 0; r < R; ++r) {
                        float a = acc[r * dh + p] * rescale[r];
                        for (std::size_t t = 0; t < 4; ++t) a += e[r][t] * vt[t][p];
                        acc[r * dh + p] = a;
                    }
            }
            for (std::size_t r = 0; r < rows; ++r) {
                float* oi = out + (i0 + r) * d + col;
                const f32x4 inv = splat(1.0f / st[r].l);
                std::size_t p = 0;
                for (; p + 4 <= dh; p += 4) store(oi + p, load(acc.data() + r * dh + p) * inv);
                for (; p < dh; ++p) oi[p] = acc[r * dh + p] / st[r].l;
            }
        }
    }
}

}  // namespace attn
