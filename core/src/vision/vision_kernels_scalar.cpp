// The scalar twins of attn/vision_kernels.hpp: one value at a time, the oracle for the SIMD ones.
#include <algorithm>

#include "attn/vision_kernels.hpp"

namespace attn {
namespace {

void row_mean(float* out, const float* in, std::size_t rows, std::size_t cols) {
    for (std::size_t r = 0; r < rows; ++r) {
        float sum = 0;
        for (std::size_t c = 0; c < cols; ++c) sum += in[r * cols + c];
        out[r] = sum / float(cols);
    }
}

void row_max(float* out, const float* in, std::size_t rows, std::size_t cols) {
    for (std::size_t r = 0; r < rows; ++r) out[r] = *std::max_element(in + r * cols, in + (r + 1) * cols);
}

void col_mean(float* out, const float* in, std::size_t rows, std::size_t cols) {
    for (std::size_t c = 0; c < cols; ++c) {
        float sum = 0;
        for (std::size_t r = 0; r < rows; ++r) sum += in[r * cols + c];
        out[c] = sum / float(rows);
    }
}

void col_max(float* out, const float* in, std::size_t rows, std::size_t cols) {
    for (std::size_t c = 0; c < cols; ++c) {
        float best = in[c];
        for (std::size_t r = 1; r < rows; ++r) best = std::max(best, in[r * cols + c]);
        out[c] = best;
    }
}

void axpy(float* y, const float* x, float a, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) y[i] += a * x[i];
}

void scale_rows(float* out, const float* in, const float* s, std::size_t rows, std::size_t cols) {
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < cols; ++c) out[r * cols + c] = in[r * cols + c] * s[r];
}

void mul_rows(float* out, const float* in, const float* v, std::size_t rows, std::size_t cols) {
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < cols; ++c) out[r * cols + c] = in[r * cols + c] * v[c];
}

}  // namespace

const vision_kernel_set& scalar_vision_kernels() {
    static const vision_kernel_set set{"scalar", row_mean, row_max, col_mean, col_max, axpy, scale_rows, mul_rows};
    return set;
}

}  // namespace attn
