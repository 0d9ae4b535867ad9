// The streaming attention of attn/streaming.hpp as one template over the vector width N, the way
// FlashAttention blocks it: per head, K is packed in panels of 2N keys (once per thread that works on the
// head); a block of up to 16·R query rows walks the blocks of 64 keys together (so each block of K and V
// is read once for all of them),
// and for each group of R of its rows (6 natively, 4 in WebAssembly) and each key block
//   1. the R × 64 scores, a micro-tile of R rows × 2N keys at a time, kept in registers while the
//      d_h products accumulate (each q value broadcast, each packed K row loaded once for R rows);
//   2. the online softmax of each row over the block: new running max, rescale factor, e^(s − m)
//      (in base 2: the scores are scaled by log2 e / √d_h);
//   3. acc = acc·rescale + P·V, 2N columns of the R accumulators in registers across the block's keys.
// The accumulators stay in the cache (R × d_h floats); nothing n × n is ever allocated. Internal:
// included by one translation unit per instruction set (streaming_simd.cpp, streaming_avx2.cpp, …).
#pragma once

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>

#include "kernels/simd_lanes.hpp"

namespace attn {
namespace {

/// The kernel's choices unless told otherwise. Natively 6 query rows a group (12 accumulators, two key
/// loads and a broadcast: 15 of the 16 vector registers of SSE and AVX2), and for SSE q and P
/// pre-broadcast (it has no broadcast load; native SSE went from 14 to 21 GFLOP/s). In WebAssembly
/// 4 rows and broadcast loads: V8 keeps a vector register for itself and spilled at 6 rows; 4 took
/// n = 512 and 2048 from 11–15 to 19–21 GFLOP/s here (Node 20, best of 12 runs).
#if defined(__wasm__)
constexpr std::size_t default_rows = 4;
template <int N>
constexpr bool default_pre = false;
#else
constexpr std::size_t default_rows = 6;
template <int N>
constexpr bool default_pre = N == 4;
#endif

/// Floats of each scratch buffer of streaming_kernel<N, R, PRE> for heads of d_h columns and n_k keys (the
/// kernel sizes its buffers from these numbers; heap_floats_for, below, says which of them are on the heap).
struct scratch_sizes {
    std::size_t kt, acc, p_block, q_pack, p_splat;  // floats each
    std::size_t floats() const { return kt + acc + p_block + q_pack + p_splat; }
};
template <int N, std::size_t R, bool PRE>
scratch_sizes scratch_for(std::size_t dh, std::size_t n_k) {
    constexpr std::size_t QB = 16 * R, BK = 64, W = 2 * N;
    const std::size_t padded = (n_k + W - 1) / W * W;  // a micro-tile never reads past it
    return {dh * padded, QB * dh, R * BK, PRE ? QB * dh * N : QB * dh, PRE ? R * BK * N : 0};
}

/// Floats of scratch each thread keeps for small calls (thread_local, in the module's memory from its start):
/// a call whose buffers fit takes them from there and holds no heap for them.
constexpr std::size_t kept_scratch_floats = 8192;

/// Floats of the heap one streaming_kernel<N, R, PRE> call holds beside its arguments (what
/// attention_streaming_bytes reports): its buffers when they do not fit the kept scratch, and PRE's
/// broadcast copies, which are always allocated.
template <int N, std::size_t R, bool PRE>
std::size_t heap_floats_for(std::size_t dh, std::size_t n_k) {
    const scratch_sizes sizes = scratch_for<N, R, PRE>(dh, n_k);
    const std::size_t buffers = sizes.kt + sizes.acc + sizes.p_block + (PRE ? 0 : sizes.q_pack);
    return (buffers > kept_scratch_floats ? buffers : 0) + (PRE ? sizes.q_pack + sizes.p_splat : 0);
}

/// The work is items, each one head's block of query rows (head-major; 16·R rows, fewer when shared). Alone
/// (shared null) a call does every item in order; threads sharing a call each take the next item from
/// `shared`, so one that starts late or runs slower takes fewer (a fixed split into halves left the other
/// thread waiting), and each thread packs a head's K only when its next item is of a new head. With the
/// causal mask a head's blocks go from the last rows to the first: the longest come first and the last
/// items taken are the shortest, so no thread is left waiting long for another's. N lanes; R query rows a group;
/// PRE: keep q and P already broadcast in memory (a plain load in the inner loops instead of a load and a
/// shuffle, which SSE needs; AVX's broadcast loads need no help).
template <int N, std::size_t R = default_rows, bool PRE = default_pre<N>>
void streaming_kernel(float* out, const float* q, const float* k, const float* v, std::size_t n_q, std::size_t n_k,
                      std::size_t d, std::size_t heads, bool causal, std::atomic<std::size_t>* shared) {
    if (n_q == 0 || n_k == 0) return;
    using F = typename lanes::vec<N>::f;
    using lanes::load;
    using lanes::splat;
    using lanes::store;
    constexpr std::size_t QB = 16 * R, BK = 64, W = 2 * N;  // query rows a block, keys a block and a micro-tile
    const std::size_t dh = d / heads;
    const scratch_sizes sizes = scratch_for<N, R, PRE>(dh, n_k);
    // the scores in base 2: log2 e folded into 1/√d_h, so that e^(s − m) is 2^(s' − m') (exp2_nonpositive)
    const float scale = 1.4426950408889634f / std::sqrt(float(dh));
    // the scratch, one block: a small call's from a buffer each thread keeps (at n = 16 its four allocations
    // were a fifth of a call), a larger call's from the heap. Buffers written before they are read, so none
    // is zeroed first: at n = 16 the zeroing (memset) was 15 % of a call. Only kt's last panel is zeroed,
    // once: its keys past n_k are never packed (and their scores are replaced by −∞ anyway), and they sit
    // between the packed ones.
    alignas(64) thread_local float kept[kept_scratch_floats];
    const std::size_t scratch_floats = sizes.kt + sizes.acc + sizes.p_block + (PRE ? 0 : sizes.q_pack);
    std::unique_ptr<float[]> heap(scratch_floats > kept_scratch_floats ? new float[scratch_floats] : nullptr);
    float* const kt = heap ? heap.get() : kept;  // one head's K, packed in panels (below)
    float* const acc = kt + sizes.kt;
    float* const p_block = acc + sizes.acc;
    float* const q_pack = p_block + sizes.p_block;
    std::fill(kt + n_k / W * W * dh, kt + sizes.kt, 0.0f);
    struct group_state {
        const float* q[R];
        std::size_t limit[R];  // keys row r sees: all, or j <= i with the causal mask
        float m[R], l[R];      // running maximum and running sum
        std::size_t rows;
    };
    group_state state[QB / R];
    // q_pack: the block's q values scaled by log2 e/√d_h, a group's interleaved (q_pack[g·R·d_h + p·R + r]: the R
    // values of one p side by side, so the micro-tile reaches them from one pointer), packed once per
    // block of rows, or already in every lane (PRE); P likewise
    // (new F[n], not a std::vector: a vector zeroes its lanes first, a fifth of a native call at n = 16)
    const std::unique_ptr<F[]> q_splat(PRE ? new F[sizes.q_pack / N] : nullptr), p_splat(PRE ? new F[sizes.p_splat / N] : nullptr);
    // shared between threads, blocks of fewer rows (n_q / 16 rounded up to whole groups, so about 16 items
    // a head; R to 16·R rows): a thread that finishes early then waits for at most a short block of the
    // other's (at n = 512 a whole one was 0.3 ms of wasm, a sixth of a two-thread call)
    const std::size_t rows = shared ? std::clamp((n_q / 16 + R - 1) / R * R, R, QB) : QB;
    const std::size_t blocks = (n_q + rows - 1) / rows, items = heads * blocks;
    const auto next = [&](std::size_t done) { return shared ? shared->fetch_add(1, std::memory_order_relaxed) : done + 1; };
    std::size_t packed = heads;  // the head whose K is in kt: none yet
    for (std::size_t item = shared ? next(0) : 0; item < items; item = next(item)) {
        const std::size_t h = item / blocks, col = h * dh, b = item % blocks, b0 = (causal ? blocks - 1 - b : b) * rows;
        if (h != packed) {
            packed = h;
            // K in panels of W keys, kt[(j / W)·d_h·W + p·W + j % W] = k[j][p]: a micro-tile reads its W keys'
            // values for every p from one contiguous run. (A row-major Kᵀ put a block's d_h rows a power-of-two
            // stride apart at n = 512 or 2048, where they fought over a few L1 sets: 1.3–1.5× slower.)
            for (std::size_t j = 0; j < n_k; ++j)
                for (std::size_t p = 0; p < dh; ++p) kt[(j / W) * dh * W + p * W + j % W] = k[j * d + col + p];
        }
        // a block of `rows` (≤ QB) query rows, in groups of R, walks the key blocks together: each block of
        // K and V is read from memory once for all of them and stays in the cache while they use it
        const std::size_t block_rows = std::min(rows, n_q - b0), groups = (block_rows + R - 1) / R;
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
            for (std::size_t p = 0; p < dh; ++p)
                for (std::size_t r = 0; r < R; ++r)
                    if constexpr (PRE) q_splat[(g * dh + p) * R + r] = splat<F>(st.q[r][p] * scale);
                    else q_pack[(g * dh + p) * R + r] = st.q[r][p] * scale;
        }
        std::fill(acc, acc + groups * R * dh, 0.0f);
        for (std::size_t j0 = 0; j0 < keys; j0 += BK) {
            const std::size_t nb = std::min(BK, keys - j0), nb_w = (nb + W - 1) / W * W;
            for (std::size_t g = 0; g < groups; ++g) {
                group_state& st = state[g];
                float* const ga = acc + g * R * dh;
                if (*std::max_element(st.limit, st.limit + R) <= j0) continue;  // causal: past every row's keys
                // pass 1: scores of the R rows against the block's keys, W keys at a time
                for (std::size_t jj = 0; jj < nb_w; jj += W) {
                    F c[R][2];
                    for (std::size_t r = 0; r < R; ++r) c[r][0] = c[r][1] = splat<F>(0.0f);
                    const float* kp = kt + (j0 + jj) * dh;
                    const F* qs = q_splat.get() + (PRE ? g * dh * R : 0);
                    const float* qp = q_pack + (PRE ? 0 : g * dh * R);
                    for (std::size_t p = 0; p < dh; ++p, kp += W, qs += PRE ? R : 0, qp += PRE ? 0 : R) {
                        const F k0 = load<F>(kp), k1 = load<F>(kp + N);
                        for (std::size_t r = 0; r < R; ++r) {
                            const F qv = PRE ? qs[r] : splat<F>(qp[r]);
                            c[r][0] += qv * k0;
                            c[r][1] += qv * k1;
                        }
                    }
                    for (std::size_t r = 0; r < R; ++r) {
                        store(p_block + r * BK + jj, c[r][0]);
                        store(p_block + r * BK + jj + N, c[r][1]);
                    }
                }
                // pass 2: each row's online softmax over the block (keys past its limit weigh nothing)
                float rescale[R];
                std::size_t seen_of[R];
                for (std::size_t r = 0; r < R; ++r) {
                    float* s = p_block + r * BK;
                    const std::size_t seen = seen_of[r] = st.limit[r] > j0 ? std::min(nb, st.limit[r] - j0) : 0;
                    std::fill(s + seen, s + nb_w, -INFINITY);
                    F top_lanes = splat<F>(st.m[r]);
                    for (std::size_t t = 0; t < nb_w; t += N) top_lanes = lanes::max(top_lanes, load<F>(s + t));
                    const float top = lanes::reduce_max<N>(top_lanes);
                    if (top == -INFINITY) {  // nothing seen yet (cannot happen with j = 0 ≤ i, kept for safety)
                        std::fill(s, s + nb_w, 0.0f);
                        if constexpr (PRE)
                            for (std::size_t t = 0; t < nb; ++t) p_splat[t * R + r] = splat<F>(0.0f);
                        rescale[r] = 1.0f;
                        continue;
                    }
                    // a row's first block has nothing to rescale (acc is 0): no exp call, which at n = 16 (one block,
                    // a libm call a row) were about a third of the kernel in wasm
                    rescale[r] = top == st.m[r] ? 1.0f : st.m[r] == -INFINITY ? 0.0f : std::exp2(st.m[r] - top);
                    F sum = splat<F>(0.0f);
                    for (std::size_t t = 0; t < nb_w; t += N) {
                        const F e = lanes::exp2_nonpositive<N>(load<F>(s + t) - top);
                        store(s + t, e);
                        sum += e;
                    }
                    const float total = lanes::reduce_add<N>(sum);
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
                    // V's rows by an offset stepped d floats a key: an index t·d cost an integer multiply
                    // per key in V8's code (d kept on the stack), on the port the float multiplies use
                    std::size_t at = p;
                    const float* pt = p_block;  // row r's weight of key t at pt[r·BK]: one pointer
                    for (std::size_t t = 0; t < nb; ++t, at += d, ++pt) {
                        const F v0 = load<F>(vb + at), v1 = load<F>(vb + at + N);
                        for (std::size_t r = 0; r < R; ++r) {
                            const F w = PRE ? p_splat[t * R + r] : splat<F>(pt[r * BK]);
                            a[r][0] += w * v0;
                            a[r][1] += w * v1;
                        }
                    }
                    for (std::size_t r = 0; r < R; ++r) {
                        store(ga + r * dh + p, a[r][0]);
                        store(ga + r * dh + p + N, a[r][1]);
                    }
                }
                for (; p < dh; ++p)  // the columns past the last whole 2N (each row over the keys it sees)
                    for (std::size_t r = 0; r < R; ++r) {
                        float a = ga[r * dh + p] * rescale[r];
                        for (std::size_t t = 0; t < seen_of[r]; ++t) a += p_block[r * BK + t] * vb[t * d + p];
                        ga[r * dh + p] = a;
                    }
            }
        }
        for (std::size_t g = 0; g < groups; ++g)
            for (std::size_t r = 0; r < state[g].rows; ++r) {
                float* oi = out + (b0 + g * R + r) * d + col;
                const float* a = acc + (g * R + r) * dh;
                const float inv = 1.0f / state[g].l[r];
                for (std::size_t p = 0; p < dh; ++p) oi[p] = a[p] * inv;
            }
    }
}

}  // namespace
}  // namespace attn
