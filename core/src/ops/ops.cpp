// The op library's loops: see ops.hpp. Each is the plain loop in float32, but linear, where a forward pass
// spends its time: a register block of two input rows × four weight rows on the 4-lane vectors the SIMD
// kernels use (kernels/simd4.hpp), its one-row twin for a single token and an odd last row, and a plain dot()
// for the last outputs of a width not a multiple of four
// (tests/native/test_ops.cpp holds them to a double-precision loop). Weights are converted from their dtype
// four rows at a time.
#include "ops/ops.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

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

}  // namespace

namespace {

/// Rows i0, i0+1 of x against four weight rows: eight sums of `in` products, four lanes at a time (the
/// register block: 8 accumulators and 6 loads fit SSE's and wasm's 16 vector registers).
void rows2_outs4(float* y, const float* x, const float* const* wr, std::size_t i0, std::size_t o0, std::size_t in, std::size_t out,
                 const float* bias) {
    using simd::f32x4;
    f32x4 acc[2][4] = {};
    const float* x0 = x + i0 * in;
    const float* x1 = x0 + in;
    std::size_t k = 0;
    for (; k + 4 <= in; k += 4) {
        const f32x4 a = simd::load(x0 + k), c = simd::load(x1 + k);
        for (int r = 0; r < 4; ++r) {
            const f32x4 wv = simd::load(wr[r] + k);
            acc[0][r] += a * wv;
            acc[1][r] += c * wv;
        }
    }
    for (int r = 0; r < 4; ++r) {
        float s0 = simd::hsum(acc[0][r]), s1 = simd::hsum(acc[1][r]);
        for (std::size_t t = k; t < in; ++t) s0 += x0[t] * wr[r][t], s1 += x1[t] * wr[r][t];
        y[i0 * out + o0 + static_cast<std::size_t>(r)] = s0 + bias[o0 + static_cast<std::size_t>(r)];
        y[(i0 + 1) * out + o0 + static_cast<std::size_t>(r)] = s1 + bias[o0 + static_cast<std::size_t>(r)];
    }
}

/// Row i of x against four weight rows: the block's one-row twin, for a single token (a cached step, where the
/// weights stream from memory once) and the odd row a block of two leaves.
void row1_outs4(float* y, const float* x, const float* const* wr, std::size_t i, std::size_t o0, std::size_t in, std::size_t out,
                const float* bias) {
    using simd::f32x4;
    f32x4 acc[4] = {};
    const float* xi = x + i * in;
    std::size_t k = 0;
    for (; k + 4 <= in; k += 4) {
        const f32x4 a = simd::load(xi + k);
        for (int r = 0; r < 4; ++r) acc[r] += a * simd::load(wr[r] + k);
    }
    for (int r = 0; r < 4; ++r) {
        float s = simd::hsum(acc[r]);
        for (std::size_t t = k; t < in; ++t) s += xi[t] * wr[r][t];
        y[i * out + o0 + static_cast<std::size_t>(r)] = s + bias[o0 + static_cast<std::size_t>(r)];
    }
}

}  // namespace

void linear(float* y, const float* x, const hf::weight& w, const hf::weight* b, std::size_t n) {
    const std::size_t in = w.cols, out = w.rows;
    const std::vector<float> bias = b ? as_floats(*b) : std::vector<float>(out, 0.0f);
    std::vector<float> block(4 * in);
    // pass 1: four weight rows at a time (converted once from their dtype), against every input row, two at a time
    for (std::size_t o0 = 0; o0 < out; o0 += 4) {
        const std::size_t outs = std::min<std::size_t>(4, out - o0);
        const float* wr[4];
        for (std::size_t r = 0; r < outs; ++r) {
            if (w.type == hf::dtype::f32) wr[r] = reinterpret_cast<const float*>(w.bytes.data()) + (o0 + r) * in;
            else {
                w.row(o0 + r, block.data() + r * in);
                wr[r] = block.data() + r * in;
            }
        }
        std::size_t i = 0;
        if (outs == 4) {
            for (; i + 2 <= n; i += 2) rows2_outs4(y, x, wr, i, o0, in, out, bias.data());
            if (i < n) row1_outs4(y, x, wr, i++, o0, in, out, bias.data());
        }
        // pass 2: what the blocks leave (the last outputs of a width not a multiple of 4)
        for (; i < n; ++i)
            for (std::size_t r = 0; r < outs; ++r) y[i * out + o0 + r] = dot(x + i * in, wr[r], in) + bias[o0 + r];
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

void gelu_tanh(float* x, std::size_t n) {
    const float c = std::sqrt(2.0f / 3.14159265358979f);
    for (std::size_t i = 0; i < n; ++i) {
        const float v = x[i];
        x[i] = 0.5f * v * (1.0f + std::tanh(c * (v + 0.044715f * v * v * v)));
    }
}

void silu_mul(float* out, const float* gate, const float* up, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) out[i] = gate[i] / (1.0f + std::exp(-gate[i])) * up[i];
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

void softmax_rows(float* x, std::size_t n, std::size_t cols) {
    for (std::size_t i = 0; i < n; ++i) {
        float* r = x + i * cols;
        float most = r[0];
        for (std::size_t j = 1; j < cols; ++j) most = std::max(most, r[j]);
        double sum = 0;
        for (std::size_t j = 0; j < cols; ++j) sum += (r[j] = std::exp(r[j] - most));
        for (std::size_t j = 0; j < cols; ++j) r[j] = static_cast<float>(r[j] / sum);
    }
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
    std::vector<float> row(t);
    for (std::size_t head = 0; head < h; ++head) {
        const std::size_t kv = head / group;
        for (std::size_t i = 0; i < n; ++i) {
            const float* qi = q + (head * n + i) * dh;
            const std::size_t at = (head * n + i) * t;
            // pass 1: q·k of every key, scaled, the keys after the query masked; the row max
            float most = -INFINITY;
            for (std::size_t j = 0; j < t; ++j) {
                const float s = dot(qi, k_cache + (j * g + kv) * dh, dh);
                const float m = j > pos0 + i ? -1e9f : s * scale;
                if (keep) keep->scores[at + j] = s, keep->scaled[at + j] = s * scale, keep->masked[at + j] = m;
                row[j] = m;
                most = std::max(most, m);
            }
            // pass 2: exp(x − max) and the row sum
            double sum = 0;
            for (std::size_t j = 0; j < t; ++j) {
                row[j] = std::exp(row[j] - most);
                sum += row[j];
                if (keep) keep->exp[at + j] = row[j];
            }
            // pass 3: the weights, and the values they weigh
            float* out = context + (head * n + i) * dh;
            for (std::size_t k = 0; k < dh; ++k) out[k] = 0;
            for (std::size_t j = 0; j < t; ++j) {
                const float w = static_cast<float>(row[j] / sum);
                if (keep) keep->weights[at + j] = w;
                const float* vj = v_cache + (j * g + kv) * dh;
                for (std::size_t k = 0; k < dh; ++k) out[k] += w * vj[k];
            }
            if (keep) keep->row_max[head * n + i] = most, keep->row_sum[head * n + i] = static_cast<float>(sum);
        }
    }
}

}  // namespace attn::ops
