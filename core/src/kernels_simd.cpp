// The explicit-SIMD twins. One generic 4-lane code path written with GCC/Clang vector
// extensions: natively it compiles to SSE, with `em++ -msimd128` to WebAssembly f32x4.
// Plain loops would not do: compilers do not vectorise a float reduction without
// -ffast-math (see TOOLCHAIN.md), so the lanes are spelled out here.
#include "attn/kernels.hpp"

#include <cstdint>
#include <cstring>

namespace attn::simd {
namespace {

typedef float f32x4 __attribute__((vector_size(16)));
typedef std::int32_t i32x4 __attribute__((vector_size(16)));

inline f32x4 load(const float* p) {
    f32x4 v;
    std::memcpy(&v, p, sizeof v);  // unaligned load: movups / v128.load
    return v;
}
inline void store(float* p, f32x4 v) { std::memcpy(p, &v, sizeof v); }
inline f32x4 splat(float x) { return f32x4{x, x, x, x}; }
inline float hsum(f32x4 v) { return (v[0] + v[1]) + (v[2] + v[3]); }
inline f32x4 select(i32x4 mask, f32x4 yes, f32x4 no) {
    return (f32x4)((mask & (i32x4)yes) | (~mask & (i32x4)no));
}
inline f32x4 vmax(f32x4 a, f32x4 b) { return select(a > b, a, b); }
inline f32x4 vmin(f32x4 a, f32x4 b) { return select(a < b, a, b); }

/// e^x on four lanes (Cephes expf: range reduction to [-ln2/2, ln2/2], degree-6
/// polynomial, scale by 2^n through the exponent bits); about 1 ulp. Below the float
/// range it returns exactly 0, as std::exp does, so masked keys get weight 0, not 1e-38.
inline f32x4 exp4(f32x4 x) {
    const f32x4 hi = splat(88.3762626647949f), lo = splat(-87.3365447505f);
    const i32x4 underflow = x < lo;
    x = vmax(vmin(x, hi), lo);
    // pass 1: n = round(x / ln 2), as floor(x·log2e + 0.5)
    f32x4 fx = x * splat(1.44269504088896341f) + splat(0.5f);
    f32x4 t = __builtin_convertvector(__builtin_convertvector(fx, i32x4), f32x4);  // truncates
    fx = t - (f32x4)((i32x4)splat(1.0f) & (t > fx));                              // -> floor
    // pass 2: r = x - n·ln2 in two parts to keep the low bits
    x = x - fx * splat(0.693359375f) - fx * splat(-2.12194440e-4f);
    // pass 3: e^r by its polynomial
    f32x4 y = splat(1.9875691500e-4f);
    y = y * x + splat(1.3981999507e-3f);
    y = y * x + splat(8.3334519073e-3f);
    y = y * x + splat(4.1665795894e-2f);
    y = y * x + splat(1.6666665459e-1f);
    y = y * x + splat(5.0000001201e-1f);
    y = y * (x * x) + x + splat(1.0f);
    // pass 4: times 2^n, built in the exponent field
    i32x4 n = __builtin_convertvector(fx, i32x4);
    y = y * (f32x4)((n + 127) << 23);
    return (f32x4)((i32x4)y & ~underflow);
}

}  // namespace

void matmul(float* out, const float* a, const float* b, std::size_t m, std::size_t k, std::size_t n) {
    for (std::size_t i = 0; i < m; ++i) {
        const float* arow = a + i * k;
        float* orow = out + i * n;
        std::size_t j = 0;
        // 16 columns at a time in four accumulators: broadcast a[i][p], stream row p of b
        for (; j + 16 <= n; j += 16) {
            f32x4 c0 = splat(0), c1 = splat(0), c2 = splat(0), c3 = splat(0);
            for (std::size_t p = 0; p < k; ++p) {
                const f32x4 av = splat(arow[p]);
                const float* brow = b + p * n + j;
                c0 += av * load(brow);
                c1 += av * load(brow + 4);
                c2 += av * load(brow + 8);
                c3 += av * load(brow + 12);
            }
            store(orow + j, c0);
            store(orow + j + 4, c1);
            store(orow + j + 8, c2);
            store(orow + j + 12, c3);
        }
        for (; j + 4 <= n; j += 4) {
            f32x4 c = splat(0);
            for (std::size_t p = 0; p < k; ++p) c += splat(arow[p]) * load(b + p * n + j);
            store(orow + j, c);
        }
        for (; j < n; ++j) {  // the columns left over from the vector width
            float c = 0.0f;
            for (std::size_t p = 0; p < k; ++p) c += arow[p] * b[p * n + j];
            orow[j] = c;
        }
    }
}

void matmul_bt(float* out, const float* a, const float* b, std::size_t m, std::size_t k, std::size_t n) {
    const std::size_t k4 = k - k % 4;
    for (std::size_t i = 0; i < m; ++i) {
        const float* arow = a + i * k;
        std::size_t j = 0;
        // four rows of b at once share each load of a's row
        for (; j + 4 <= n; j += 4) {
            const float *b0 = b + j * k, *b1 = b0 + k, *b2 = b1 + k, *b3 = b2 + k;
            f32x4 c0 = splat(0), c1 = splat(0), c2 = splat(0), c3 = splat(0);
            for (std::size_t p = 0; p < k4; p += 4) {
                const f32x4 av = load(arow + p);
                c0 += av * load(b0 + p);
                c1 += av * load(b1 + p);
                c2 += av * load(b2 + p);
                c3 += av * load(b3 + p);
            }
            float s0 = hsum(c0), s1 = hsum(c1), s2 = hsum(c2), s3 = hsum(c3);
            for (std::size_t p = k4; p < k; ++p) {
                s0 += arow[p] * b0[p];
                s1 += arow[p] * b1[p];
                s2 += arow[p] * b2[p];
                s3 += arow[p] * b3[p];
            }
            float* o = out + i * n + j;
            o[0] = s0, o[1] = s1, o[2] = s2, o[3] = s3;
        }
        for (; j < n; ++j) {
            const float* brow = b + j * k;
            f32x4 c = splat(0);
            for (std::size_t p = 0; p < k4; p += 4) c += load(arow + p) * load(brow + p);
            float s = hsum(c);
            for (std::size_t p = k4; p < k; ++p) s += arow[p] * brow[p];
            out[i * n + j] = s;
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

const kernel_set& simd_kernels() {
    static const kernel_set set{"simd", simd::matmul, simd::matmul_bt, simd::softmax_rows};
    return set;
}

}  // namespace attn
