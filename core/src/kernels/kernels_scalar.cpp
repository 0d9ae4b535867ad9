// The scalar twins: the obvious loops, kept as the oracle for attn::simd.
// Written as reductions on purpose, and compiled without auto-vectorisation (core/CMakeLists.txt),
// so they stay one multiply-add at a time on every target.
#include "attn/kernels.hpp"

#include <cmath>

namespace attn::scalar {

void matmul(float* out, const float* a, const float* b, std::size_t m, std::size_t k, std::size_t n) {
    for (std::size_t i = 0; i < m; ++i) {
        for (std::size_t j = 0; j < n; ++j) {
            float sum = 0.0f;
            for (std::size_t p = 0; p < k; ++p) sum += a[i * k + p] * b[p * n + j];
            out[i * n + j] = sum;
        }
    }
}

void matmul_bt(float* out, const float* a, const float* b, std::size_t m, std::size_t k, std::size_t n) {
    for (std::size_t i = 0; i < m; ++i) {
        for (std::size_t j = 0; j < n; ++j) {
            float sum = 0.0f;
            for (std::size_t p = 0; p < k; ++p) sum += a[i * k + p] * b[j * k + p];
            out[i * n + j] = sum;
        }
    }
}

void softmax_rows(float* weights, float* exp, float* row_max, float* row_sum,
                  const float* in, std::size_t rows, std::size_t cols) {
    for (std::size_t r = 0; r < rows; ++r) {
        const float* x = in + r * cols;
        float* e = exp + r * cols;
        float* w = weights + r * cols;
        // pass 1: the row maximum, subtracted so no exp overflows
        float mx = x[0];
        for (std::size_t c = 1; c < cols; ++c) mx = x[c] > mx ? x[c] : mx;
        // pass 2: exponentials and their sum
        float sum = 0.0f;
        for (std::size_t c = 0; c < cols; ++c) {
            e[c] = std::exp(x[c] - mx);
            sum += e[c];
        }
        // pass 3: normalise
        for (std::size_t c = 0; c < cols; ++c) w[c] = e[c] / sum;
        row_max[r] = mx;
        row_sum[r] = sum;
    }
}

}  // namespace attn::scalar

namespace attn {

const kernel_set& scalar_kernels() {
    static const kernel_set set{"scalar", scalar::matmul, scalar::matmul_bt, scalar::softmax_rows};
    return set;
}

}  // namespace attn
