#include "kernels.hpp"

#include <cmath>

// x86-64 natively: a second copy of each loop for AVX2 + FMA, chosen once by the dynamic loader (an
// ifunc); the SSE2 copy runs where the CPU lacks them. The same CPU always runs the same copy, so
// training is repeatable bit for bit on one machine.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__EMSCRIPTEN__)
#define ATTN_LM_CLONES __attribute__((target_clones("arch=haswell", "default")))
#else
#define ATTN_LM_CLONES
#endif

namespace attn::lm::kern {

ATTN_LM_CLONES void matmul_acc(float* __restrict out, const float* __restrict a, const float* __restrict b,
                               std::size_t m, std::size_t k, std::size_t n) {
    std::size_t r = 0;
    for (; r + 4 <= m; r += 4) {  // four rows of out stay in L1 while b streams past once
        float* __restrict o0 = out + r * n;
        float* __restrict o1 = o0 + n;
        float* __restrict o2 = o1 + n;
        float* __restrict o3 = o2 + n;
        const float* a0 = a + r * k;
        for (std::size_t i = 0; i < k; ++i) {
            const float x0 = a0[i], x1 = a0[k + i], x2 = a0[2 * k + i], x3 = a0[3 * k + i];
            const float* __restrict bi = b + i * n;
            for (std::size_t j = 0; j < n; ++j) {
                const float bj = bi[j];
                o0[j] += x0 * bj;
                o1[j] += x1 * bj;
                o2[j] += x2 * bj;
                o3[j] += x3 * bj;
            }
        }
    }
    for (; r < m; ++r) {
        float* __restrict o = out + r * n;
        for (std::size_t i = 0; i < k; ++i) {
            const float x = a[r * k + i];
            const float* __restrict bi = b + i * n;
            for (std::size_t j = 0; j < n; ++j) o[j] += x * bi[j];
        }
    }
}

ATTN_LM_CLONES void matmul_at_acc(float* __restrict out, const float* __restrict a, const float* __restrict b,
                                  std::size_t m, std::size_t k, std::size_t n) {
    std::size_t i = 0;
    for (; i + 4 <= k; i += 4) {
        float* __restrict o0 = out + i * n;
        float* __restrict o1 = o0 + n;
        float* __restrict o2 = o1 + n;
        float* __restrict o3 = o2 + n;
        for (std::size_t r = 0; r < m; ++r) {
            const float* ar = a + r * k + i;
            const float x0 = ar[0], x1 = ar[1], x2 = ar[2], x3 = ar[3];
            const float* __restrict br = b + r * n;
            for (std::size_t j = 0; j < n; ++j) {
                const float bj = br[j];
                o0[j] += x0 * bj;
                o1[j] += x1 * bj;
                o2[j] += x2 * bj;
                o3[j] += x3 * bj;
            }
        }
    }
    for (; i < k; ++i) {
        float* __restrict o = out + i * n;
        for (std::size_t r = 0; r < m; ++r) {
            const float x = a[r * k + i];
            const float* __restrict br = b + r * n;
            for (std::size_t j = 0; j < n; ++j) o[j] += x * br[j];
        }
    }
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

float gelu(float z) { return static_cast<float>(0.5 * z * (1.0 + std::erf(z * 0.7071067811865476))); }

float gelu_grad(float z) {
    const double cdf = 0.5 * (1.0 + std::erf(z * 0.7071067811865476));
    const double pdf = std::exp(-0.5 * static_cast<double>(z) * z) * 0.3989422804014327;
    return static_cast<float>(cdf + z * pdf);
}

}  // namespace attn::lm::kern
