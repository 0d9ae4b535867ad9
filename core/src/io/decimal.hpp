// A decimal's text read as the nearest double, in a few hundred bytes of WebAssembly: the wasm build's
// strtod (strtod_wasm.cpp) takes the numbers its fast path cannot to this instead of the C library's, whose
// scanner works in soft-float long double (7 KB gzipped of the core's wasm). Debian's fast_float is exact
// too, but its table of powers of five alone weighed 10 KB gzipped there (docs/toolchain.md, "Sizes").
// Compiled natively as well, where the tests hold it equal to glibc's strtod.
#pragma once

namespace attn {

/// strtod on the decimals a JSON number can be ([-]digits[.digits][e[±]digits]): the double nearest the
/// decimal (ties to even), ±inf past the largest double, ±0 below the smallest; *end (when given) just
/// after the number, or at text with 0 returned when text does not start with one.
double read_decimal(const char* text, char** end);

}  // namespace attn
