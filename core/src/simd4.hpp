// The 4-lane float vector the SIMD twins are written with (GCC/Clang vector extensions: SSE
// natively, WebAssembly f32x4 under -msimd128) and its few helpers. Internal to the library.
#pragma once

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
inline f32x4 select(i32x4 mask, f32x4 yes, f32x4 no) {
    return (f32x4)((mask & (i32x4)yes) | (~mask & (i32x4)no));
}
inline f32x4 vmax(f32x4 a, f32x4 b) { return select(a > b, a, b); }
inline f32x4 vmin(f32x4 a, f32x4 b) { return select(a < b, a, b); }

}  // namespace attn::simd
