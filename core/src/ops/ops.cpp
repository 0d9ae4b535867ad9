// The op library's loops: see ops.hpp. Each is the plain loop in float32, but linear, where a forward pass
// spends its time: a register block of four input rows × two weight rows on the 4-lane vectors the SIMD
// kernels use (kernels/simd4.hpp), the same block on one to three rows for a single token and the last rows, and a
// plain dot() for the last output of an odd width
// (tests/native/test_ops.cpp holds them to a double-precision loop). Weights are converted from their dtype
// two rows at a time.
#include "ops/ops.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <vector>

#include "kernels/parallel.hpp"
#include "kernels/simd4.hpp"

namespace attn::ops {
namespace {

float dot(const float* a, const float* b, std::size_t n) {
    float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    std::size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        s0 += a[i] * b[i];
        s1 += a[i + 1] * b[i + 1];
        s2 += a[i + 2] * b[i + 2];
        s3 += a[i + 3] * b[i + 3];
    }
    for (; i < n; ++i) s0 += a[i] * b[i];
    return (s0 + s1) + (s2 + s3);
}

std::vector<float> as_floats(const hf::weight& w) {
    std::vector<float> out(w.rows * w.cols);
    for (std::size_t r = 0; r < w.rows; ++r) w.row(r, out.data() + r * w.cols);
    return out;
}

/// y[j] = e^(x[j] − most) for j < n (y may be x), four lanes at a time through exp4 (about 1 ulp); returns their
/// sum: in float lanes over 64 terms, each at most 1, and in double across those (a vocabulary's 151,936 terms
/// summed in float lanes alone put a probability off by 1e-3 of itself; converting every term to double was a
/// good part of the work).
double exp_sum(float* y, const float* x, std::size_t n, float most) {
    const simd::f32x4 most4 = simd::splat(most);
    double sum = 0;
    std::size_t j = 0;
    for (; j + 4 <= n;) {
        simd::f32x4 block = simd::splat(0.0f);
        for (const std::size_t end = std::min(n - n % 4, j + 64); j < end; j += 4) {
            const simd::f32x4 e = simd::exp4(simd::load(x + j) - most4);
            simd::store(y + j, e);
            block += e;
        }
        sum += (static_cast<double>(block[0]) + block[1]) + (static_cast<double>(block[2]) + block[3]);
    }
    for (; j < n; ++j) sum += (y[j] = simd::exp4(simd::splat(x[j] - most))[0]);
    return sum;
}

/// Rows i0 … i0+R−1 of x against weight rows o0 … o0+C−1: R·C sums of `in` products, four lanes at a time (the
/// register block). Each output is summed the same way whatever R and C, so a row gives the same bits in any block.
template <int R, int C>
void block(float* y, const float* x, const float* const* wr, std::size_t i0, std::size_t o0, std::size_t in, std::size_t out,
           const float* bias) {
    using simd::f32x4;
    f32x4 acc[R][C] = {};
    const float* xr[R];
    for (int r = 0; r < R; ++r) xr[r] = x + (i0 + static_cast<std::size_t>(r)) * in;
    std::size_t k = 0;
    for (; k + 4 <= in; k += 4) {
        f32x4 a[R];
        for (int r = 0; r < R; ++r) a[r] = simd::load(xr[r] + k);
        for (int c = 0; c < C; ++c) {
            const f32x4 wv = simd::load(wr[c] + k);
            for (int r = 0; r < R; ++r) acc[r][c] = simd::madd(a[r], wv, acc[r][c]);
        }
    }
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c) {
            float s = simd::hsum(acc[r][c]);
            for (std::size_t t = k; t < in; ++t) s += xr[r][t] * wr[c][t];
            const std::size_t o = o0 + static_cast<std::size_t>(c);
            y[(i0 + static_cast<std::size_t>(r)) * out + o] = s + bias[o];
        }
}

/// block<R, C> with R = n_rows (0 … 4) chosen at run time: a tile's last rows, a group of queries.
template <int C>
void block_rows(std::size_t n_rows, float* y, const float* x, const float* const* wr, std::size_t i0, std::size_t o0, std::size_t in,
                std::size_t out, const float* bias) {
    switch (n_rows) {
        case 4: block<4, C>(y, x, wr, i0, o0, in, out, bias); break;
        case 3: block<3, C>(y, x, wr, i0, o0, in, out, bias); break;
        case 2: block<2, C>(y, x, wr, i0, o0, in, out, bias); break;
        case 1: block<1, C>(y, x, wr, i0, o0, in, out, bias); break;
        default: break;
    }
}

/// Scores of `n_rows` (1 … 4) queries, `dh` apart, against keys 0 … keys − 1, `stride` apart: scores[r · t + j] =
/// q_r · k_j, two keys at a time through the linear op's block.
void score_rows(float* scores, const float* q, const float* k, std::size_t stride, std::size_t n_rows, std::size_t keys, std::size_t dh,
                std::size_t t, const float* zeros) {
    std::size_t j = 0;
    for (; j + 2 <= keys; j += 2) {
        const float* kr[2] = {k + j * stride, k + (j + 1) * stride};
        block_rows<2>(n_rows, scores, q, kr, 0, j, dh, t, zeros);
    }
    if (j < keys) {
        const float* kr[1] = {k + j * stride};
        block_rows<1>(n_rows, scores, q, kr, 0, j, dh, t, zeros);
    }
}

/// Below this many multiply-adds a call runs on its own thread. A pass's calls come one after another, so the
/// helpers are awake (they spin for 2 ms after each call, kernels/parallel.cpp) and sharing costs microseconds:
/// a cached step's 768 × 768 projection, a read of 2.4 MB from memory, is faster on two threads than on one.
constexpr std::size_t min_parallel_work = std::size_t(1) << 19;

/// Work split between the helper threads: items from one atomic counter (as the streaming attention's), so
/// no two threads write the same outputs and a helper that wakes late takes fewer. Each thread gets its own
/// scratch of `scratch` floats, made here, on the calling thread.
template <typename Item>
void share(std::size_t items, std::size_t work, std::size_t scratch, const Item& item) {
    const std::size_t threads = work < min_parallel_work ? 1 : std::min(items, parallel::max_threads());
    std::vector<std::vector<float>> scratches(threads, std::vector<float>(scratch));
    std::atomic<std::size_t> next{0};
    parallel::run(threads, [&](std::size_t t) {
        for (std::size_t i = next.fetch_add(1, std::memory_order_relaxed); i < items; i = next.fetch_add(1, std::memory_order_relaxed))
            item(i, scratches[t].data());
    });
}

/// Elementwise work on `count` values, shared in spans of 4096 (a multiple of the four lanes, so that a value is
/// computed the same way whatever span it falls in); `cost` is one value's work in multiply-adds, for share's
/// threshold (an exp4 is some twenty vector operations).
template <typename Span>
void share_values(std::size_t count, std::size_t cost, const Span& span) {
    constexpr std::size_t step = 4096;
    share((count + step - 1) / step, count * cost, 0, [&](std::size_t item, float*) { span(item * step, std::min(count, (item + 1) * step)); });
}

}  // namespace

void linear(float* y, const float* x, const hf::weight& w, const hf::weight* b, std::size_t n) {
    // four input rows × two weight rows: of the blocks timed in V8 (web/bench/linear_blocks.cpp), the fastest; 2 × 4
    // loads as much per product and was slower, 3 × 4 and larger spill the 16 vector registers
    constexpr std::size_t rows = 4, outs = 2, pairs_per_item = 16;
    const std::size_t in = w.cols, out = w.rows, pairs = out / outs;
    // the input rows a pass over the weights takes at once: as many as fit in 512 KB, so that they are read from a
    // core's L2 cache for every pair of weight rows (256 rows of an MLP's 3072 inputs are 3 MB, read from L3)
    const std::size_t tile = std::max<std::size_t>(rows, 512u * 1024u / 4u / std::max<std::size_t>(in, 1) / rows * rows);
    const std::vector<float> bias = b ? as_floats(*b) : std::vector<float>(out, 0.0f);
    for (std::size_t i0 = 0; i0 < n; i0 += tile) {
        const std::size_t i_end = std::min(n, i0 + tile);
        // pass 1: two weight rows at a time (converted from their dtype into the thread's scratch), against the
        // tile's rows, four at a time; an item is 16 pairs of weight rows, each output written by one thread
        share((pairs + pairs_per_item - 1) / pairs_per_item, (i_end - i0) * in * out, outs * in, [&](std::size_t item, float* converted) {
            for (std::size_t p = item * pairs_per_item; p < std::min(pairs, (item + 1) * pairs_per_item); ++p) {
                const std::size_t o0 = p * outs;
                const float* wr[outs];
                for (std::size_t r = 0; r < outs; ++r) {
                    if (w.type == hf::dtype::f32) wr[r] = reinterpret_cast<const float*>(w.bytes.data()) + (o0 + r) * in;
                    else {
                        w.row(o0 + r, converted + r * in);
                        wr[r] = converted + r * in;
                    }
                }
                std::size_t i = i0;
                for (; i + rows <= i_end; i += rows) block<4, outs>(y, x, wr, i, o0, in, out, bias.data());
                // the rows a block of four leaves: a single token's pass, a prompt's last rows
                block_rows<outs>(i_end - i, y, x, wr, i, o0, in, out, bias.data());
            }
        });
    }
    // pass 2: the last output of an odd width
    if (out % outs) {
        std::vector<float> converted(in);
        w.row(out - 1, converted.data());
        for (std::size_t i = 0; i < n; ++i) y[i * out + out - 1] = dot(x + i * in, converted.data(), in) + bias[out - 1];
    }
}

void layer_norm(float* y, const float* x, const hf::weight& gamma, const hf::weight& beta, std::size_t n, std::size_t d, float eps) {
    const std::vector<float> g = as_floats(gamma), b = as_floats(beta);
    for (std::size_t i = 0; i < n; ++i) {
        const float* xr = x + i * d;
        double mean = 0, var = 0;
        for (std::size_t k = 0; k < d; ++k) mean += xr[k];
        mean /= static_cast<double>(d);
        for (std::size_t k = 0; k < d; ++k) var += (xr[k] - mean) * (xr[k] - mean);
        var /= static_cast<double>(d);
        const double inv = 1.0 / std::sqrt(var + eps);
        for (std::size_t k = 0; k < d; ++k) y[i * d + k] = static_cast<float>((xr[k] - mean) * inv) * g[k] + b[k];
    }
}

void rms_norm(float* y, const float* x, const hf::weight& w, std::size_t n, std::size_t d, float eps) {
    const std::vector<float> g = as_floats(w);
    for (std::size_t i = 0; i < n; ++i) {
        const float* xr = x + i * d;
        double ms = 0;
        for (std::size_t k = 0; k < d; ++k) ms += static_cast<double>(xr[k]) * xr[k];
        const double inv = 1.0 / std::sqrt(ms / static_cast<double>(d) + eps);
        for (std::size_t k = 0; k < d; ++k) y[i * d + k] = static_cast<float>(xr[k] * inv) * g[k];
    }
}

// GELU and SiLU on four lanes through the kernels' exp4 (about 1 ulp), where libm's tanhf and expf per value were
// a tenth of a forward pass. 0.5·x·(1 + tanh u) is written as x / (1 + e^(−2u)): the same function, with no
// cancellation near 0, and for a very negative x e^(−2u) reaches exp4's largest value, not ∞, giving −0.
void gelu_tanh(float* x, std::size_t n) {
    using simd::f32x4;
    const float c = std::sqrt(2.0f / 3.14159265358979f);
    const auto gelu4 = [c](f32x4 v) {
        const f32x4 u = simd::splat(c) * (v + simd::splat(0.044715f) * v * v * v);
        return v / (simd::splat(1.0f) + simd::exp4(simd::splat(-2.0f) * u));
    };
    share_values(n, 20, [&](std::size_t i, std::size_t end) {
        for (; i + 4 <= end; i += 4) simd::store(x + i, gelu4(simd::load(x + i)));
        for (; i < end; ++i) x[i] = gelu4(simd::splat(x[i]))[0];
    });
}

void silu_mul(float* out, const float* gate, const float* up, std::size_t n) {
    using simd::f32x4;
    const auto silu4 = [](f32x4 z) { return z / (simd::splat(1.0f) + simd::exp4(-z)); };
    share_values(n, 20, [&](std::size_t i, std::size_t end) {
        for (; i + 4 <= end; i += 4) simd::store(out + i, silu4(simd::load(gate + i)) * simd::load(up + i));
        for (; i < end; ++i) out[i] = silu4(simd::splat(gate[i]))[0] * up[i];
    });
}

void split_heads(float* y, const float* x, std::size_t n, std::size_t heads, std::size_t dh) {
    for (std::size_t h = 0; h < heads; ++h)
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t k = 0; k < dh; ++k) y[(h * n + i) * dh + k] = x[i * heads * dh + h * dh + k];
}

void merge_heads(float* y, const float* x, std::size_t n, std::size_t heads, std::size_t dh) {
    for (std::size_t h = 0; h < heads; ++h)
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t k = 0; k < dh; ++k) y[i * heads * dh + h * dh + k] = x[(h * n + i) * dh + k];
}

/// Softmax of each row of x into y (which may be x): the max subtracted, then exp_sum.
void softmax_rows(float* y, const float* x, std::size_t n, std::size_t cols) {
    // the rows shared between the threads: a trace's probabilities are a vocabulary's row for every token
    share(n, n * cols, 0, [&](std::size_t i, float*) {
        const float* r = x + i * cols;
        std::size_t j = 0;
        simd::f32x4 most4 = simd::splat(r[0]);
        for (; j + 4 <= cols; j += 4) most4 = simd::vmax(most4, simd::load(r + j));
        float most = simd::hmax(most4);
        for (; j < cols; ++j) most = std::max(most, r[j]);
        float* out = y + i * cols;
        const float inv = static_cast<float>(1.0 / exp_sum(out, r, cols, most));
        const simd::f32x4 inv4 = simd::splat(inv);
        for (j = 0; j + 4 <= cols; j += 4) simd::store(out + j, simd::load(out + j) * inv4);
        for (; j < cols; ++j) out[j] *= inv;
    });
}

}  // namespace attn::ops

namespace attn::ops {

void attention(float* context, const float* q, const float* k_cache, const float* v_cache, std::size_t h, std::size_t g,
               std::size_t n, std::size_t pos0, std::size_t dh, attention_steps* keep) {
    const std::size_t t = pos0 + n, group = h / g;
    const float scale = 1.0f / std::sqrt(static_cast<float>(dh));
    if (keep) {
        for (auto* v : {&keep->scores, &keep->scaled, &keep->masked, &keep->exp, &keep->weights}) v->assign(h * n * t, 0.0f);
        keep->row_max.assign(h * n, 0.0f);
        keep->row_sum.assign(h * n, 0.0f);
    }
    // a head is an item for the helper threads: each writes its own rows of context and of the kept steps; its
    // queries are taken four at a time, as the rows of a linear op, the keys as its weight rows
    constexpr std::size_t rows = 4;
    const std::vector<float> no_bias(t, 0.0f);
    share(h, h * n * t * dh, rows * t, [&](std::size_t head, float* scores) {
        const std::size_t kv = head / group;
        for (std::size_t i0 = 0; i0 < n; i0 += rows) {
            const std::size_t group_rows = std::min(rows, n - i0);
            // pass 1: q·k of the four queries and every key the last of them sees (every key, when kept)
            score_rows(scores, q + (head * n + i0) * dh, k_cache + kv * dh, g * dh, group_rows, keep ? t : pos0 + i0 + group_rows, dh, t,
                       no_bias.data());
            for (std::size_t r = 0; r < group_rows; ++r) {
                const std::size_t i = i0 + r;
                float* row = scores + r * t;
                const std::size_t at = (head * n + i) * t, seen = pos0 + i + 1;  // keys 0 … pos0+i are not masked
                // the scores scaled, the keys after the query masked; the row max of the keys the query sees (the
                // same max on both paths). Kept: each step a loop of its own, four lanes at a time
                if (keep) {
                    std::copy(row, row + t, keep->scores.begin() + static_cast<std::ptrdiff_t>(at));
                    float* scaled = keep->scaled.data() + at;
                    for (std::size_t j = 0; j < t; ++j) scaled[j] = row[j] * scale;
                }
                std::size_t j = 0;
                simd::f32x4 most4 = simd::splat(-INFINITY);
                for (const simd::f32x4 scale4 = simd::splat(scale); j + 4 <= seen; j += 4) {
                    const simd::f32x4 m = simd::load(row + j) * scale4;
                    simd::store(row + j, m);
                    most4 = simd::vmax(most4, m);
                }
                float most = simd::hmax(most4);
                for (; j < seen; ++j) most = std::max(most, row[j] *= scale);
                if (keep) {
                    std::fill(row + seen, row + t, -1e9f);
                    std::copy(row, row + t, keep->masked.begin() + static_cast<std::ptrdiff_t>(at));
                }
                // pass 2: exp(x − max) and the row sum; a masked key's is exactly 0 (kept as the zeros assigned above)
                const double sum = exp_sum(row, row, seen, most);
                if (keep) std::copy(row, row + seen, keep->exp.begin() + static_cast<std::ptrdiff_t>(at));
                // pass 3: the weights, and the values they weigh
                float* out = context + (head * n + i) * dh;
                for (std::size_t k = 0; k < dh; ++k) out[k] = 0;
                const double inv = 1.0 / sum;  // a product per key: a quotient per key waited on the divider
                for (j = 0; j < seen; ++j) row[j] = static_cast<float>(row[j] * inv);
                if (keep) std::copy(row, row + seen, keep->weights.begin() + static_cast<std::ptrdiff_t>(at));
                for (j = 0; j < seen; ++j) {
                    const float w = row[j];
                    const float* vj = v_cache + (j * g + kv) * dh;
                    for (std::size_t k = 0; k < dh; ++k) out[k] += w * vj[k];
                }
                if (keep) keep->row_max[head * n + i] = most, keep->row_sum[head * n + i] = static_cast<float>(sum);
            }
        }
    });
}

}  // namespace attn::ops
