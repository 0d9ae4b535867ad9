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
template <class F, class I>
inline F select(I mask, F yes, F no) { return (F)((mask & (I)yes) | (~mask & (I)no)); }

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

/// e^x lane by lane for x ≤ 0 (what the online softmax takes, s − max): Cephes expf's polynomial as in
/// simd4.hpp's exp4, about 1 ulp, exactly 0 below about −87.3 and for −∞. x·log2(e) is rounded to a
/// whole number by adding and subtracting 1.5·2²³, which also leaves it in the low bits as an integer:
/// WebAssembly's saturating float ↔ int conversions cost V8 several instructions each, and there were
/// three (the streaming kernel became 1.15× faster in wasm at n = 512 and 2048, the same floats).
template <int N>
inline typename vec<N>::f exp_nonpositive(typename vec<N>::f x) {
    using F = typename vec<N>::f;
    using I = typename vec<N>::i;
    constexpr float magic = 12582912.0f;  // 1.5·2²³
    const I underflow = x < -87.3365447505f;
    x = select(underflow, splat<F>(0.0f), x);  // as exp4: e^0, zeroed at the end, never a subnormal product
    const F shifted = x * 1.44269504088896341f + magic;
    const F fx = shifted - magic;  // round(x·log2 e), from −126 to 0
    x = x - fx * 0.693359375f - fx * -2.12194440e-4f;
    F y = splat<F>(1.9875691500e-4f);
    y = y * x + 1.3981999507e-3f;
    y = y * x + 8.3334519073e-3f;
    y = y * x + 4.1665795894e-2f;
    y = y * x + 1.6666665459e-1f;
    y = y * x + 5.0000001201e-1f;
    y = y * (x * x) + x + 1.0f;
    const I n = (I)shifted - (I)splat<F>(magic);  // the same whole number as an integer
    y = y * (F)((n + 127) << 23);
    return (F)((I)y & ~underflow);
}

}  // namespace lanes
}  // namespace
}  // namespace attn
