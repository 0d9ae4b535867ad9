// The explicit-SIMD twins. One generic 4-lane code path written with GCC/Clang vector
// extensions: natively it compiles to SSE, with `em++ -msimd128` to WebAssembly f32x4.
// Plain loops would not do: compilers do not vectorise a float reduction without
// -ffast-math (see docs/toolchain.md), so the lanes are spelled out here.
#include "attn/kernels.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>

#include "kernels/simd4.hpp"

namespace attn::simd {
namespace {

/// One or two rows of out, 16 columns from j: broadcast a[i][p], stream row p of b.
/// Two rows share every load of b, which is what bounds this loop.
template <int rows>
inline void matmul_block16(float* out, const float* a, const float* b, std::size_t k, std::size_t n, std::size_t j) {
    f32x4 c[rows][4];
    for (int r = 0; r < rows; ++r) c[r][0] = c[r][1] = c[r][2] = c[r][3] = splat(0);
    for (std::size_t p = 0; p < k; ++p) {
        const float* brow = b + p * n + j;
        const f32x4 b0 = load(brow), b1 = load(brow + 4), b2 = load(brow + 8), b3 = load(brow + 12);
        for (int r = 0; r < rows; ++r) {
            const f32x4 av = splat(a[r * k + p]);
            c[r][0] += av * b0;
            c[r][1] += av * b1;
            c[r][2] += av * b2;
            c[r][3] += av * b3;
        }
    }
    for (int r = 0; r < rows; ++r)
        for (int q = 0; q < 4; ++q) store(out + r * n + j + 4 * q, c[r][q]);
}

}  // namespace

void matmul(float* out, const float* a, const float* b, std::size_t m, std::size_t k, std::size_t n) {
    for (std::size_t i = 0; i < m; i += 2) {
        const bool pair = i + 1 < m;
        std::size_t j = 0;
        for (; j + 16 <= n; j += 16) {
            if (pair) matmul_block16<2>(out + i * n, a + i * k, b, k, n, j);
            else matmul_block16<1>(out + i * n, a + i * k, b, k, n, j);
        }
        for (std::size_t r = i; r < (pair ? i + 2 : i + 1); ++r) {
            const float* arow = a + r * k;
            float* orow = out + r * n;
            std::size_t jj = j;
            for (; jj + 4 <= n; jj += 4) {
                f32x4 c = splat(0);
                for (std::size_t p = 0; p < k; ++p) c += splat(arow[p]) * load(b + p * n + jj);
                store(orow + jj, c);
            }
            for (; jj < n; ++jj) {  // the columns left over from the vector width
                float c = 0.0f;
                for (std::size_t p = 0; p < k; ++p) c += arow[p] * b[p * n + jj];
                orow[jj] = c;
            }
        }
    }
}

/// out[i.., j..j+4) for one or two rows of a against four rows of b: each load of a row of b
/// serves both rows of a, each load of a serves four rows of b, and the sums leave as vectors.
template <int rows>
inline void matmul_bt_block(float* out, const float* a, const float* b, std::size_t k, std::size_t n, std::size_t j) {
    const std::size_t k4 = k - k % 4;
    const float* bj[4] = {b + j * k, b + (j + 1) * k, b + (j + 2) * k, b + (j + 3) * k};
    f32x4 c[rows][4];
    for (int r = 0; r < rows; ++r) c[r][0] = c[r][1] = c[r][2] = c[r][3] = splat(0);
    for (std::size_t p = 0; p < k4; p += 4) {
        const f32x4 b0 = load(bj[0] + p), b1 = load(bj[1] + p), b2 = load(bj[2] + p), b3 = load(bj[3] + p);
        for (int r = 0; r < rows; ++r) {
            const f32x4 av = load(a + r * k + p);
            c[r][0] += av * b0;
            c[r][1] += av * b1;
            c[r][2] += av * b2;
            c[r][3] += av * b3;
        }
    }
    for (int r = 0; r < rows; ++r) {
        f32x4 sums = hsum4(c[r][0], c[r][1], c[r][2], c[r][3]);
        for (std::size_t p = k4; p < k; ++p)  // the depth left over from the vector width
            sums += splat(a[r * k + p]) * f32x4{bj[0][p], bj[1][p], bj[2][p], bj[3][p]};
        store(out + r * n + j, sums);
    }
}

void matmul_bt(float* out, const float* a, const float* b, std::size_t m, std::size_t k, std::size_t n) {
    const std::size_t k4 = k - k % 4;
    for (std::size_t i = 0; i < m; i += 2) {
        const bool pair = i + 1 < m;
        std::size_t j = 0;
        for (; j + 4 <= n; j += 4) {
            if (pair) matmul_bt_block<2>(out + i * n, a + i * k, b, k, n, j);
            else matmul_bt_block<1>(out + i * n, a + i * k, b, k, n, j);
        }
        for (std::size_t r = i; r < (pair ? i + 2 : i + 1); ++r)
            for (std::size_t jj = j; jj < n; ++jj) {  // the rows of b left over from the block of four
                const float *arow = a + r * k, *brow = b + jj * k;
                f32x4 c = splat(0);
                for (std::size_t p = 0; p < k4; p += 4) c += load(arow + p) * load(brow + p);
                float s = hsum(c);
                for (std::size_t p = k4; p < k; ++p) s += arow[p] * brow[p];
                out[r * n + jj] = s;
            }
    }
}

void softmax_rows(float* weights, float* exp, float* row_max, float* row_sum,
                  const float* in, std::size_t rows, std::size_t cols) {
    const std::size_t c4 = cols - cols % 4;
    for (std::size_t r = 0; r < rows; ++r) {
        const float* x = in + r * cols;
        float* e = exp + r * cols;
        float* w = weights + r * cols;
        // pass 1: the row maximum, subtracted so no exp overflows
        float mx = x[0];
        if (c4) {
            f32x4 m4 = load(x);
            for (std::size_t c = 4; c < c4; c += 4) m4 = vmax(m4, load(x + c));
            for (int l = 0; l < 4; ++l) mx = m4[l] > mx ? m4[l] : mx;
        }
        for (std::size_t c = c4; c < cols; ++c) mx = x[c] > mx ? x[c] : mx;
        // pass 2: exponentials and their sum (the tail uses the same exp4, one lane)
        const f32x4 mx4 = splat(mx);
        f32x4 s4 = splat(0);
        for (std::size_t c = 0; c < c4; c += 4) {
            const f32x4 ev = exp4(load(x + c) - mx4);
            store(e + c, ev);
            s4 += ev;
        }
        float sum = hsum(s4);
        for (std::size_t c = c4; c < cols; ++c) {
            e[c] = exp4(splat(x[c] - mx))[0];
            sum += e[c];
        }
        // pass 3: normalise
        const f32x4 sum4 = splat(sum);
        for (std::size_t c = 0; c < c4; c += 4) store(w + c, load(e + c) / sum4);
        for (std::size_t c = c4; c < cols; ++c) w[c] = e[c] / sum;
        row_max[r] = mx;
        row_sum[r] = sum;
    }
}

}  // namespace attn::simd

namespace attn {

void attention_forward(float* out, float* scores, float* exp, float* weights, float* row_max, float* row_sum,
                       const float* q, const float* k, const float* v, std::size_t n, std::size_t d,
                       const kernel_set& kernels) {
    const float root = std::sqrt(static_cast<float>(d));
    kernels.matmul_bt(scores, q, k, n, d, n);
    for (std::size_t i = 0; i < n * n; ++i) scores[i] /= root;  // divided, as scale() does
    kernels.softmax_rows(weights, exp, row_max, row_sum, scores, n, n);
    kernels.matmul(out, weights, v, n, n, d);
}

const kernel_set& simd_kernels() {
    static const kernel_set set{"simd", simd::matmul, simd::matmul_bt, simd::softmax_rows};
    return set;
}

}  // namespace attn
