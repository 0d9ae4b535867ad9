// The SIMD twins of attn/vision_kernels.hpp, four lanes at a time (simd4.hpp), the tail scalar.
// Row reductions keep four partial sums/maxima; column reductions and the gates run across four
// neighbouring columns at once.
#include <algorithm>

#include "attn/vision_kernels.hpp"
#include "kernels/simd4.hpp"

namespace attn::simd {
namespace {

float row_sum(const float* p, std::size_t n) {
    f32x4 acc = splat(0);
    std::size_t i = 0;
    for (; i + 4 <= n; i += 4) acc += load(p + i);
    float sum = hsum(acc);
    for (; i < n; ++i) sum += p[i];
    return sum;
}

void row_mean(float* out, const float* in, std::size_t rows, std::size_t cols) {
    for (std::size_t r = 0; r < rows; ++r) out[r] = row_sum(in + r * cols, cols) / float(cols);
}

void row_max(float* out, const float* in, std::size_t rows, std::size_t cols) {
    for (std::size_t r = 0; r < rows; ++r) {
        const float* p = in + r * cols;
        float best = p[0];
        std::size_t i = 0;
        if (cols >= 4) {
            f32x4 m = load(p);
            for (i = 4; i + 4 <= cols; i += 4) m = vmax(m, load(p + i));
            best = hmax(m);
        }
        for (; i < cols; ++i) best = std::max(best, p[i]);
        out[r] = best;
    }
}

/// Column reductions: `combine` on four columns at a time down the rows, the last columns one by one.
template <class Vec, class One>
void col_reduce(float* out, const float* in, std::size_t rows, std::size_t cols, Vec combine4, One combine1) {
    std::size_t c = 0;
    for (; c + 4 <= cols; c += 4) {
        f32x4 acc = load(in + c);
        for (std::size_t r = 1; r < rows; ++r) acc = combine4(acc, load(in + r * cols + c));
        store(out + c, acc);
    }
    for (; c < cols; ++c) {
        float acc = in[c];
        for (std::size_t r = 1; r < rows; ++r) acc = combine1(acc, in[r * cols + c]);
        out[c] = acc;
    }
}

void col_mean(float* out, const float* in, std::size_t rows, std::size_t cols) {
    col_reduce(out, in, rows, cols, [](f32x4 a, f32x4 b) { return a + b; }, [](float a, float b) { return a + b; });
    for (std::size_t c = 0; c < cols; ++c) out[c] /= float(rows);
}

void col_max(float* out, const float* in, std::size_t rows, std::size_t cols) {
    col_reduce(out, in, rows, cols, vmax, [](float a, float b) { return std::max(a, b); });
}

void axpy(float* y, const float* x, float a, std::size_t n) {
    const f32x4 av = splat(a);
    std::size_t i = 0;
    for (; i + 4 <= n; i += 4) store(y + i, load(y + i) + av * load(x + i));
    for (; i < n; ++i) y[i] += a * x[i];
}

void scale_rows(float* out, const float* in, const float* s, std::size_t rows, std::size_t cols) {
    for (std::size_t r = 0; r < rows; ++r) {
        const f32x4 sv = splat(s[r]);
        std::size_t c = 0;
        for (; c + 4 <= cols; c += 4) store(out + r * cols + c, load(in + r * cols + c) * sv);
        for (; c < cols; ++c) out[r * cols + c] = in[r * cols + c] * s[r];
    }
}

void mul_rows(float* out, const float* in, const float* v, std::size_t rows, std::size_t cols) {
    for (std::size_t r = 0; r < rows; ++r) {
        std::size_t c = 0;
        for (; c + 4 <= cols; c += 4) store(out + r * cols + c, load(in + r * cols + c) * load(v + c));
        for (; c < cols; ++c) out[r * cols + c] = in[r * cols + c] * v[c];
    }
}

}  // namespace
}  // namespace attn::simd

namespace attn {

const vision_kernel_set& simd_vision_kernels() {
    static const vision_kernel_set set{"simd", simd::row_mean, simd::row_max, simd::col_mean, simd::col_max,
                                       simd::axpy, simd::scale_rows, simd::mul_rows};
    return set;
}

}  // namespace attn
