// The 4-lane float vector the SIMD twins are written with (GCC/Clang vector extensions: SSE
// natively, WebAssembly f32x4 under -msimd128) and its few helpers. Internal to the library.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace attn::simd {

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
inline float hmax(f32x4 v) { return std::max(std::max(v[0], v[1]), std::max(v[2], v[3])); }
inline f32x4 select(i32x4 mask, f32x4 yes, f32x4 no) {
    return (f32x4)((mask & (i32x4)yes) | (~mask & (i32x4)no));
}
inline f32x4 vmax(f32x4 a, f32x4 b) { return select(a > b, a, b); }
inline f32x4 vmin(f32x4 a, f32x4 b) { return select(a < b, a, b); }

/// a·b + c. In the relaxed-SIMD twins of the model folders' modules (ATTN_RELAXED_MADD: wasm/CMakeLists.txt) one
/// f32x4.relaxed_madd, fused where the CPU has FMA: clang 14 only emits that instruction's prototype, whose
/// builtin reads (a, b, c) as a + b·c, and wasm/relaxed_simd.mjs rewrites it into the standard opcode, which reads
/// the same operands as a·b + c. Anywhere else (native, the plain modules) a multiply and an add, two roundings.
inline f32x4 madd(f32x4 a, f32x4 b, f32x4 c) {
#if defined(ATTN_RELAXED_MADD)
    return __builtin_wasm_fma_f32x4(a, b, c);
#else
    return a * b + c;
#endif
}


/// exp4's passes 2 to 4: x (within exp4's clamps) less n·ln2, where fx = n = round(x / ln 2) as a float and as an
/// integer, by the polynomial, times 2^n.
inline f32x4 exp4_reduced(f32x4 x, f32x4 fx, i32x4 n) {
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
    return y * (f32x4)((n + 127) << 23);
}

/// e^x on four lanes (Cephes expf: range reduction to [-ln2/2, ln2/2], degree-6
/// polynomial, scale by 2^n through the exponent bits); about 1 ulp. Below about -87.3
/// (where e^x leaves the normal floats) it returns exactly 0, which std::exp does not: it
/// goes on through the subnormals to 0 near -103.9. Softmax loses nothing by it (such a term
/// is below 1e-38 of the row's largest, which is 1), and masked keys get exactly 0.
inline f32x4 exp4(f32x4 x) {
    const f32x4 hi = splat(88.3762626647949f), lo = splat(-87.3365447505f);
    const i32x4 underflow = x < lo;
    // an underflowing lane (a masked key's −∞ among them) is computed as e^0 and zeroed at the end:
    // clamped to lo it would scale by 2^-126 into the subnormals, which x86 runs as a microcode
    // assist of a hundred cycles or more (half of a causal row's lanes; natively and in wasm alike)
    x = select(underflow, splat(0.0f), vmin(x, hi));
    // pass 1: n = round(x / ln 2), as floor(x·log2e + 0.5). Rounded to an integer by adding and taking away
    // 1.5·2^23 (where a float's unit in the last place is 1; |fx| < 2^22 here), then one less where that went
    // up: the same floor as truncating to i32 and back, without wasm's i32x4.trunc_sat_f32x4_s, which x86 has no
    // one instruction for (its saturation is a sequence)
    const f32x4 magic = splat(12582912.0f);
    f32x4 fx = x * splat(1.44269504088896341f) + splat(0.5f);
    f32x4 t = (fx + magic) - magic;                      // fx to the nearest integer
    fx = t - (f32x4)((i32x4)splat(1.0f) & (t > fx));  // -> floor
    // n read from the bits of fx + 1.5·2^23, whose low bits hold it (that sum is exact: fx is an integer of at
    // most 2^22)
    const i32x4 n = (i32x4)(fx + magic) - (i32x4)magic;
    return (f32x4)((i32x4)exp4_reduced(x, fx, n) & ~underflow);
}

/// Whether all n floats are finite: v − v is 0 for a finite v and NaN for ±∞ or NaN, and a NaN stays in
/// the lanes' sum. One vector pass, where std::isfinite per float was a tenth of a model's trace.
inline bool all_finite(const float* p, std::size_t n) {
    f32x4 acc = splat(0.0f);
    std::size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        const f32x4 v = load(p + i);
        acc += v - v;
    }
    float tail = 0.0f;
    for (; i < n; ++i) tail += p[i] - p[i];
    return hsum(acc) + tail == 0.0f;
}

/// (sum c0, sum c1, sum c2, sum c3) in one vector: the four horizontal sums at once.
inline f32x4 hsum4(f32x4 c0, f32x4 c1, f32x4 c2, f32x4 c3) {
    const f32x4 s01 = __builtin_shufflevector(c0, c1, 0, 4, 1, 5) + __builtin_shufflevector(c0, c1, 2, 6, 3, 7);
    const f32x4 s23 = __builtin_shufflevector(c2, c3, 0, 4, 1, 5) + __builtin_shufflevector(c2, c3, 2, 6, 3, 7);
    return __builtin_shufflevector(s01, s23, 0, 1, 4, 5) + __builtin_shufflevector(s01, s23, 2, 3, 6, 7);
}

}  // namespace attn::simd
