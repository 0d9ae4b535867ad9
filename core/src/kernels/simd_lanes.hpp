// A float vector of N lanes (GCC/Clang vector extensions) and the few operations the streaming
// kernel needs, for N = 4 (SSE, WebAssembly SIMD128), 8 (AVX2) and 16 (AVX-512): one source,
// compiled once per instruction set. Everything here has internal linkage (an unnamed namespace)
// on purpose: each translation unit is built with its own -m flags, and an inline function with
// external linkage could be merged by the linker into the copy built for a wider instruction set
// than the CPU has. Internal to the library.
#pragma once

#include <cstdint>
#include <cstring>

namespace attn {
namespace {
namespace lanes {

template <int N>
struct vec {
    typedef float f __attribute__((vector_size(4 * N)));
    typedef std::int32_t i __attribute__((vector_size(4 * N)));
    typedef std::uint32_t u __attribute__((vector_size(4 * N)));  // bits shifted past the sign: defined
};

template <class V>
inline V load(const float* p) {
    V v;
    std::memcpy(&v, p, sizeof v);  // unaligned
    return v;
}
template <class V>
inline void store(float* p, V v) { std::memcpy(p, &v, sizeof v); }
/// x in every lane, written as an initialiser so every compiler emits one broadcast (V{} + x costs
/// an add, since 0 + x is not x for −0; a lane-by-lane loop became lane inserts in WebAssembly).
template <class V>
inline V splat(float x) {
    if constexpr (sizeof(V) == 16) return V{x, x, x, x};
    else if constexpr (sizeof(V) == 32) return V{x, x, x, x, x, x, x, x};
    else return V{x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x};
}

/// The larger of a and b lane by lane (neither is NaN here). In WebAssembly the pseudo-maximum, one
/// instruction, where f32x4.max's NaN rules cost V8 several.
template <class F>
inline F max(F a, F b) {
#if defined(__wasm_simd128__)  // the no-SIMD wasm build (the benchmark's) has no such instruction
    if constexpr (sizeof(F) == 16) return __builtin_wasm_pmax_f32x4(a, b);
#endif
    return a < b ? b : a;
}

/// The sum and the largest of v's lanes, halving the vector each step (a loop over the lanes went
/// through memory in WebAssembly, one lane at a time). Templates, so a translation unit built for
/// four lanes never compiles the wider ones.
template <int N>
inline float reduce_add(typename vec<N>::f v) {
    if constexpr (N == 4) {
        v += __builtin_shufflevector(v, v, 2, 3, 0, 1);
        return v[0] + v[1];
    } else {
        typename vec<N / 2>::f low, high;
        std::memcpy(&low, &v, sizeof low);
        std::memcpy(&high, reinterpret_cast<const char*>(&v) + sizeof low, sizeof high);
        return reduce_add<N / 2>(low + high);
    }
}
template <int N>
inline float reduce_max(typename vec<N>::f v) {
    if constexpr (N == 4) {
        v = max(v, __builtin_shufflevector(v, v, 2, 3, 0, 1));
        return v[0] < v[1] ? v[1] : v[0];
    } else {
        typename vec<N / 2>::f low, high;
        std::memcpy(&low, &v, sizeof low);
        std::memcpy(&high, reinterpret_cast<const char*>(&v) + sizeof low, sizeof high);
        return reduce_max<N / 2>(max(low, high));
    }
}

/// 2^x lane by lane for x ≤ 0: the online softmax's e^(s − max) with the scores already in base 2 (the
/// kernel folds log2 e into its 1/√d_h, as FlashAttention-2 does), so the range reduction is one
/// subtraction where e^x needed x·log2 e and two multiply-subtracts by ln 2's halves. x is rounded to a
/// whole number n by adding and subtracting 1.5·2²³, which also leaves n in the low bits of the sum:
/// shifted left 23 they are 2^n's exponent, added to the polynomial's bits (WebAssembly's saturating
/// float ↔ int conversions cost V8 several instructions each). 2^r for r in [−½, ½]: degree 5 with
/// 2^0 = 1 exactly, interpolated at Chebyshev nodes; at most 2.8e-7 from 2^x over 2·10⁷ points of
/// [−125, 0], about 3 ulp where it peaks (test_streaming.cpp holds it to that). Cephes' expf, which this
/// replaced, was 1 ulp at 10 more instructions a vector: a.attention became 1.07–1.10x faster in wasm at
/// n = 128 to 2048 (paired runs of one process).
/// Exactly 0 below −125 (near where 2^x leaves the normal floats) and for −∞: such a lane's bits are
/// cleared at the end, and nothing on the way is a subnormal, which x86 multiplies through a microcode
/// assist of a hundred cycles or more (half of a causal row's lanes). Softmax loses nothing by it: such
/// a term is below 1e-37 of the row's largest, which is 1.
template <int N>
inline typename vec<N>::f exp2_nonpositive(typename vec<N>::f x) {
    using F = typename vec<N>::f;
    using I = typename vec<N>::i;
    using U = typename vec<N>::u;
    constexpr float magic = 12582912.0f;  // 1.5·2²³
    // below −125 (n ≥ −125 keeps 2^n·y, y ≥ ½√2, a normal float), and −∞, whose r is NaN: every
    // operation on such a lane is exact or NaN, never subnormal, and its bits are cleared at the end
    const I underflow = x < -125.0f;
    const F shifted = x + magic;
    const F r = x - (shifted - magic);  // x − round(x), in [−½, ½]
    F y = splat<F>(1.33813021e-3f);
    y = y * r + 9.66636837e-3f;
    y = y * r + 5.55038117e-2f;
    y = y * r + 2.40223497e-1f;
    y = y * r + 6.93147182e-1f;
    y = y * r + 1.0f;
    return (F)(((U)y + ((U)shifted << 23)) & ~(U)underflow);  // the low bits of `shifted` hold n (mod 2⁹)
}

}  // namespace lanes
}  // namespace
}  // namespace attn
