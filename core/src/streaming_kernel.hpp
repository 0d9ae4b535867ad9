// The streaming attention of attn/streaming.hpp as one template over the vector width N, the way
// FlashAttention blocks it: per head, K is packed transposed once (d_h × n_k, padded); a block of
// 64 query rows walks the blocks of 64 keys together (so each block of K and V is read once for all
// of them), and for each group of R = 6 of its rows and each key block
//   1. the R × 64 scores, a micro-tile of R rows × 2N keys at a time, kept in registers while the
//      d_h products accumulate (each q value broadcast, each packed K row loaded once for R rows);
//   2. the online softmax of each row over the block: new running max, rescale factor, e^(s − m);
//   3. acc = acc·rescale + P·V, 2N columns of the R accumulators in registers across the block's keys.
// The accumulators stay in the cache (R × d_h floats); nothing n × n is ever allocated. Internal:
// included by one translation unit per instruction set (streaming_simd.cpp, streaming_avx2.cpp, …).
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "simd_lanes.hpp"

namespace attn {
namespace {

/// The kernel's choices unless told otherwise: 6 query rows a group (12 accumulators, two key loads and
/// a broadcast: 15 of the 16 vector registers of SSE, AVX2 and V8's wasm), and q and P pre-broadcast
/// for 4 lanes (SSE has no broadcast load; native SSE went from 14 to 21 GFLOP/s, wasm unchanged).
constexpr std::size_t default_rows = 6;
template <int N>
constexpr bool default_pre = N == 4;

/// Floats of scratch streaming_kernel<N, R, PRE> allocates for heads of d_h columns and n_k keys (what
/// attention_streaming_bytes reports: the kernel sizes its buffers from the same numbers).
struct scratch_sizes {
    std::size_t kt, acc, p_block, q_splat, p_splat;  // floats each
    std::size_t floats() const { return kt + acc + p_block + q_splat + p_splat; }
};
template <int N, std::size_t R, bool PRE>
scratch_sizes scratch_for(std::size_t dh, std::size_t n_k) {
    constexpr std::size_t QB = 16 * R, BK = 64, W = 2 * N;
    const std::size_t padded = (n_k + W - 1) / W * W;  // a micro-tile never reads past it
    return {dh * padded, QB * dh, R * BK, PRE ? R * dh * N : 0, PRE ? R * BK * N : 0};
}

/// N lanes; R query rows a group; PRE: keep q and P already broadcast in memory (a plain load in the
/// inner loops instead of a load and a shuffle, which SSE needs; AVX's broadcast loads need no help).
template <int N, std::size_t R = default_rows, bool PRE = default_pre<N>>
void streaming_kernel(float* out, const float* q, const float* k, const float* v, std::size_t n_q, std::size_t n_k,
                      std::size_t d, std::size_t heads, bool causal) {
    if (n_q == 0 || n_k == 0) return;
    using F = typename lanes::vec<N>::f;
    using lanes::load;
    using lanes::splat;
    using lanes::store;
    constexpr std::size_t QB = 16 * R, BK = 64, W = 2 * N;  // query rows a block, keys a block and a micro-tile
    const std::size_t dh = d / heads;
    const scratch_sizes sizes = scratch_for<N, R, PRE>(dh, n_k);
    const std::size_t padded = sizes.kt / dh;
    const float scale = 1.0f / std::sqrt(float(dh));
    std::vector<float> kt(sizes.kt, 0.0f);  // one head's K, transposed: kt[p·padded + j] = k[j][p]
    struct group_state {
        const float* q[R];
        std::size_t limit[R];  // keys row r sees: all, or j <= i with the causal mask
        float m[R], l[R];      // running maximum and running sum
        std::size_t rows;
    };
    group_state state[QB / R];
    std::vector<float> acc(sizes.acc), p_block(sizes.p_block);
    std::vector<F> q_splat(sizes.q_splat / N), p_splat(sizes.p_splat / N);  // a group's q values and P, each already in every lane
    for (std::size_t h = 0; h < heads; ++h) {
        const std::size_t col = h * dh;
        for (std::size_t j = 0; j < n_k; ++j)
            for (std::size_t p = 0; p < dh; ++p) kt[p * padded + j] = k[j * d + col + p];
        for (std::size_t b0 = 0; b0 < n_q; b0 += QB) {
            // a block of QB query rows, in groups of R, walks the key blocks together: each block of
            // K and V is read from memory once for QB rows and stays in the cache while they use it
            const std::size_t block_rows = std::min(QB, n_q - b0), groups = (block_rows + R - 1) / R;
            std::size_t keys = 0;
            for (std::size_t g = 0; g < groups; ++g) {
                group_state& st = state[g];
                st.rows = std::min(R, block_rows - g * R);
                for (std::size_t r = 0; r < R; ++r) {
                    const std::size_t i = b0 + g * R + (r < st.rows ? r : 0);  // a short group repeats its first row
                    st.q[r] = q + i * d + col;
                    st.limit[r] = causal ? std::min(n_k, i + 1) : n_k;
                    st.m[r] = -INFINITY;
                    st.l[r] = 0.0f;
                    keys = std::max(keys, st.limit[r]);
                }
            }
            std::fill(acc.begin(), acc.begin() + groups * R * dh, 0.0f);
            for (std::size_t j0 = 0; j0 < keys; j0 += BK) {
                const std::size_t nb = std::min(BK, keys - j0), nb_w = (nb + W - 1) / W * W;
                for (std::size_t g = 0; g < groups; ++g) {
                    group_state& st = state[g];
                    float* const ga = acc.data() + g * R * dh;
                    if (*std::max_element(st.limit, st.limit + R) <= j0) continue;  // causal: past every row's keys
                    // pass 1: scores of the R rows against the block's keys, W keys at a time
                    if constexpr (PRE)
                        for (std::size_t p = 0; p < dh; ++p)
                            for (std::size_t r = 0; r < R; ++r) q_splat[p * R + r] = splat<F>(st.q[r][p]);
                    for (std::size_t jj = 0; jj < nb_w; jj += W) {
                        F c[R][2];
                        for (std::size_t r = 0; r < R; ++r) c[r][0] = c[r][1] = splat<F>(0.0f);
                        const float* kp = kt.data() + j0 + jj;
                        const F* qs = q_splat.data();
                        for (std::size_t p = 0; p < dh; ++p, kp += padded, qs += R) {
                            const F k0 = load<F>(kp), k1 = load<F>(kp + N);
                            for (std::size_t r = 0; r < R; ++r) {
                                const F qv = PRE ? qs[r] : splat<F>(st.q[r][p]);
                                c[r][0] += qv * k0;
                                c[r][1] += qv * k1;
                            }
                        }
                        for (std::size_t r = 0; r < R; ++r) {
                            store(p_block.data() + r * BK + jj, c[r][0] * scale);
                            store(p_block.data() + r * BK + jj + N, c[r][1] * scale);
                        }
                    }
                    // pass 2: each row's online softmax over the block (keys past its limit weigh nothing)
                    float rescale[R];
                    for (std::size_t r = 0; r < R; ++r) {
                        float* s = p_block.data() + r * BK;
                        const std::size_t seen = st.limit[r] > j0 ? std::min(nb, st.limit[r] - j0) : 0;
                        std::fill(s + seen, s + nb_w, -INFINITY);
                        float top = st.m[r];
                        for (std::size_t t = 0; t < seen; ++t) top = std::max(top, s[t]);
                        if (top == -INFINITY) {  // nothing seen yet (cannot happen with j = 0 ≤ i, kept for safety)
                            std::fill(s, s + nb_w, 0.0f);
                            if constexpr (PRE)
                                for (std::size_t t = 0; t < nb; ++t) p_splat[t * R + r] = splat<F>(0.0f);
                            rescale[r] = 1.0f;
                            continue;
                        }
                        rescale[r] = top == st.m[r] ? 1.0f : std::exp(st.m[r] - top);
                        F sum = splat<F>(0.0f);
                        for (std::size_t t = 0; t < nb_w; t += N) {
                            const F e = lanes::exp<N>(load<F>(s + t) - top);
                            store(s + t, e);
                            sum += e;
                        }
                        float total = 0.0f;
                        for (int lane = 0; lane < N; ++lane) total += sum[lane];
                        if constexpr (PRE)
                            for (std::size_t t = 0; t < nb; ++t) p_splat[t * R + r] = splat<F>(s[t]);
                        st.l[r] = st.l[r] * rescale[r] + total;
                        st.m[r] = top;
                    }
                    // pass 3: acc = acc·rescale + P·V, W columns of the R accumulators at a time
                    const float* vb = v + j0 * d + col;
                    std::size_t p = 0;
                    for (; p + W <= dh; p += W) {
                        F a[R][2];
                        for (std::size_t r = 0; r < R; ++r) {
                            a[r][0] = load<F>(ga + r * dh + p) * rescale[r];
                            a[r][1] = load<F>(ga + r * dh + p + N) * rescale[r];
                        }
                        for (std::size_t t = 0; t < nb; ++t) {
                            const F v0 = load<F>(vb + t * d + p), v1 = load<F>(vb + t * d + p + N);
                            for (std::size_t r = 0; r < R; ++r) {
                                const F w = PRE ? p_splat[t * R + r] : splat<F>(p_block[r * BK + t]);
                                a[r][0] += w * v0;
                                a[r][1] += w * v1;
                            }
                        }
                        for (std::size_t r = 0; r < R; ++r) {
                            store(ga + r * dh + p, a[r][0]);
                            store(ga + r * dh + p + N, a[r][1]);
                        }
                    }
                    for (; p < dh; ++p)  // the columns past the last whole 2N
                        for (std::size_t r = 0; r < R; ++r) {
                            float a = ga[r * dh + p] * rescale[r];
                            for (std::size_t t = 0; t < nb; ++t) a += p_block[r * BK + t] * vb[t * d + p];
                            ga[r * dh + p] = a;
                        }
                }
            }
            for (std::size_t g = 0; g < groups; ++g)
                for (std::size_t r = 0; r < state[g].rows; ++r) {
                    float* oi = out + (b0 + g * R + r) * d + col;
                    const float* a = acc.data() + (g * R + r) * dh;
                    const float inv = 1.0f / state[g].l[r];
                    for (std::size_t p = 0; p < dh; ++p) oi[p] = a[p] * inv;
                }
        }
    }
}

}  // namespace
}  // namespace attn
