#include "kernels.hpp"

#include <cmath>
#include <cstring>

// x86-64 natively: a second copy of each loop for x86-64-v3 (AVX2; products and sums kept apart, as wasm has no
// FMA: core/CMakeLists.txt), chosen once by the dynamic loader (an
// ifunc); the SSE2 copy runs where the CPU lacks them. The same CPU always runs the same copy, so
// training is repeatable bit for bit on one machine.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__EMSCRIPTEN__)
#define ATTN_LM_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define ATTN_LM_CLONES
#endif

namespace attn::lm::kern {

namespace {

constexpr std::size_t tile_cols = 16;  // 4 rows × 16 columns of out: 8 AVX or 16 SSE/wasm registers of sums

/// Eight floats as one value: one AVX register, two SSE or wasm f32x4 ones (GCC and Clang vector extensions).
typedef float v8 __attribute__((vector_size(32)));

inline v8 load8(const float* p) {
    v8 v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
inline void store8(float* p, v8 v) { std::memcpy(p, &v, sizeof v); }

/// out[0..4)[0..16) += a's 4 rows (a row apart by lda, a step of the sum apart by a_step) · b's 16 columns
/// (a step of the sum apart by ldb): the 8 vectors of sums stay in registers across all of k, where a
/// plain row loop loads and stores out for every k.
ATTN_LM_CLONES inline void tile_4x16(float* out, std::size_t ldo, const float* a, std::size_t lda, std::size_t a_step,
                                     const float* b, std::size_t ldb, std::size_t k) {
    v8 c00 = load8(out), c01 = load8(out + 8), c10 = load8(out + ldo), c11 = load8(out + ldo + 8),
       c20 = load8(out + 2 * ldo), c21 = load8(out + 2 * ldo + 8), c30 = load8(out + 3 * ldo), c31 = load8(out + 3 * ldo + 8);
    for (std::size_t i = 0; i < k; ++i) {
        const v8 b0 = load8(b + i * ldb), b1 = load8(b + i * ldb + 8);
        const float* ai = a + i * a_step;
        const float x0 = ai[0], x1 = ai[lda], x2 = ai[2 * lda], x3 = ai[3 * lda];
        c00 += x0 * b0; c01 += x0 * b1;
        c10 += x1 * b0; c11 += x1 * b1;
        c20 += x2 * b0; c21 += x2 * b1;
        c30 += x3 * b0; c31 += x3 * b1;
    }
    store8(out, c00); store8(out + 8, c01);
    store8(out + ldo, c10); store8(out + ldo + 8, c11);
    store8(out + 2 * ldo, c20); store8(out + 2 * ldo + 8, c21);
    store8(out + 3 * ldo, c30); store8(out + 3 * ldo + 8, c31);
}

/// o (n) += x · row (n): the remainder rows and columns of the two products below.
inline void add_scaled(float* __restrict o, float x, const float* __restrict row, std::size_t n) {
    for (std::size_t j = 0; j < n; ++j) o[j] += x * row[j];
}

}  // namespace

ATTN_LM_CLONES void matmul_acc(float* __restrict out, const float* __restrict a, const float* __restrict b,
                               std::size_t m, std::size_t k, std::size_t n) {
    const std::size_t n_tiles = n / tile_cols * tile_cols;
    std::size_t r = 0;
    for (; r + 4 <= m; r += 4) {
        // a's rows r … r+3 step by lda = k; along i they step by 1
        for (std::size_t j = 0; j < n_tiles; j += tile_cols) tile_4x16(out + r * n + j, n, a + r * k, k, 1, b + j, n, k);
        for (std::size_t rr = r; rr < r + 4; ++rr)  // the columns past the last whole tile
            for (std::size_t i = 0; i < k; ++i) add_scaled(out + rr * n + n_tiles, a[rr * k + i], b + i * n + n_tiles, n - n_tiles);
    }
    for (; r < m; ++r)
        for (std::size_t i = 0; i < k; ++i) add_scaled(out + r * n, a[r * k + i], b + i * n, n);
}

ATTN_LM_CLONES void matmul_at_acc(float* __restrict out, const float* __restrict a, const float* __restrict b,
                                  std::size_t m, std::size_t k, std::size_t n) {
    const std::size_t n_tiles = n / tile_cols * tile_cols;
    std::size_t i = 0;
    for (; i + 4 <= k; i += 4) {
        // out's rows i … i+3 are a's columns: they step by 1 across the tile and by k along the sum over m
        for (std::size_t j = 0; j < n_tiles; j += tile_cols) tile_4x16(out + i * n + j, n, a + i, 1, k, b + j, n, m);
        for (std::size_t r = 0; r < m; ++r)
            for (std::size_t ii = i; ii < i + 4; ++ii) add_scaled(out + ii * n + n_tiles, a[r * k + ii], b + r * n + n_tiles, n - n_tiles);
    }
    for (; i < k; ++i)
        for (std::size_t r = 0; r < m; ++r) add_scaled(out + i * n, a[r * k + i], b + r * n, n);
}

void transpose(float* out, const float* in, std::size_t rows, std::size_t cols) {
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < cols; ++c) out[c * rows + r] = in[r * cols + c];
}

void linear(float* out, const float* in, const float* w, const float* b, std::size_t rows, std::size_t in_dim,
            std::size_t out_dim) {
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t j = 0; j < out_dim; ++j) out[r * out_dim + j] = b ? b[j] : 0.0f;
    matmul_acc(out, in, w, rows, in_dim, out_dim);
}

void layernorm(float* out, float* mean, float* rstd, const float* in, const float* w, const float* b,
               std::size_t rows, std::size_t d, float eps) {
    for (std::size_t r = 0; r < rows; ++r) {
        const float* x = in + r * d;
        double s = 0.0;  // the statistics in double: the same mean and σ as numpy's float64 oracle, to float
        for (std::size_t i = 0; i < d; ++i) s += x[i];
        const double mu = s / static_cast<double>(d);
        double v = 0.0;
        for (std::size_t i = 0; i < d; ++i) v += (x[i] - mu) * (x[i] - mu);
        const float m = static_cast<float>(mu);
        const float rs = static_cast<float>(1.0 / std::sqrt(v / static_cast<double>(d) + eps));
        if (mean) mean[r] = m;
        if (rstd) rstd[r] = rs;
        for (std::size_t i = 0; i < d; ++i) out[r * d + i] = (x[i] - m) * rs * w[i] + b[i];
    }
}

namespace {

/// erf on eight lanes: x·P(x²)/Q(x²) on x clamped to [−4, 4] (beyond, erf is ±1 in float), the
/// rational form Eigen and XLA use for float erf; within 4.2e-7 of the exact erf (checked against
/// Python's math.erf over [−6, 6] in steps of 6e-5). It replaced std::erf, which took a twelfth of a
/// trace: a branchy scalar call per activation, where this is straight-line f32x4/AVX code.
inline v8 erf8(v8 x) {
    const v8 four = v8{} + 4.0f;
    x = x < four ? x : four;
    x = x > -four ? x : -four;
    const v8 x2 = x * x;
    v8 p = x2 * -2.72614225801306e-10f + 2.77068142495902e-08f;
    p = x2 * p + -2.10102402082508e-06f;
    p = x2 * p + -5.69250639462346e-05f;
    p = x2 * p + -7.34990630326855e-04f;
    p = x2 * p + -2.95459980854025e-03f;
    p = x2 * p + -1.60960333262415e-02f;
    v8 q = x2 * -1.45660718464996e-05f + -2.13374055278905e-04f;
    q = x2 * q + -1.68282697438203e-03f;
    q = x2 * q + -7.37332916720468e-03f;
    q = x2 * q + -1.42647390514189e-02f;
    return x * p / q;
}

/// Runs f on eight lanes at a time; the tail goes through the same f in a zero-padded vector, so every
/// element gets the same bits wherever it sits.
template <class F>
void map8(float* out, const float* in, std::size_t n, F f) {
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) store8(out + i, f(load8(in + i), load8(out + i)));
    if (i < n) {
        float a[8] = {}, b[8] = {};
        std::memcpy(a, in + i, (n - i) * sizeof(float));
        std::memcpy(b, out + i, (n - i) * sizeof(float));
        const v8 r = f(load8(a), load8(b));
        std::memcpy(out + i, &r, (n - i) * sizeof(float));
    }
}

}  // namespace

ATTN_LM_CLONES void gelu_rows(float* out, const float* in, std::size_t n) {
    map8(out, in, n, [](v8 z, v8) { return 0.5f * z * (1.0f + erf8(z * 0.70710678f)); });
}

ATTN_LM_CLONES void gelu_grad_times(float* grad, const float* pre, std::size_t n) {
    // d/dz of 0.5·z·(1 + erf(z/√2)) = Φ(z) + z·φ(z), with the same erf as the forward pass
    map8(grad, pre, n, [](v8 z, v8 g) {
        v8 pdf;
        for (int l = 0; l < 8; ++l) pdf[l] = std::exp(-0.5f * z[l] * z[l]) * 0.39894228f;
        return g * (0.5f * (1.0f + erf8(z * 0.70710678f)) + z * pdf);
    });
}

}  // namespace attn::lm::kern
