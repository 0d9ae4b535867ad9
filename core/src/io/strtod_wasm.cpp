// strtod for the WebAssembly build only, linked with -Wl,--wrap=strtod (core/CMakeLists.txt).
// Emscripten's C library converts a decimal in about 1.8 µs (glibc: 0.09 µs) and nlohmann's JSON
// reader calls strtod for every number of a spec, so reading the spec was most of a small
// example's a.trace() time. Most numbers people write have at most 15 significant digits and a
// small exponent: then the digits as an integer m and 10^|e| are both exact doubles and one
// multiply or divide gives the correctly rounded result (Clinger's fast path), exactly as strtod
// would. Anything else goes to read_decimal (io/decimal.hpp), as exact and without the C library's
// scanner, which computes in soft-float long double: 7 KB gzipped of the core's wasm.
#include <cstdint>

#include "io/decimal.hpp"

extern "C" double __wrap_strtod(const char* text, char** end) {
    static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                   1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const char* p = text;
    const bool negative = *p == '-';
    if (negative) ++p;
    if (*p < '0' || *p > '9') return attn::read_decimal(text, end);
    std::uint64_t m = 0;
    int digits = 0, exponent = 0;
    for (; *p >= '0' && *p <= '9'; ++p) {
        if (m == 0 && *p == '0') continue;  // leading zeros are not significant
        m = m * 10 + std::uint64_t(*p - '0');
        if (++digits > 15) return attn::read_decimal(text, end);
    }
    if (*p == '.') {
        for (++p; *p >= '0' && *p <= '9'; ++p) {
            if (m == 0 && *p == '0') {  // 0.000x: zeros after the point only move the exponent
                --exponent;
                continue;
            }
            m = m * 10 + std::uint64_t(*p - '0');
            --exponent;
            if (++digits > 15) return attn::read_decimal(text, end);
        }
    }
    if (*p == 'e' || *p == 'E') {
        const char* q = p + 1;
        const bool minus = *q == '-';
        if (*q == '+' || *q == '-') ++q;
        if (*q < '0' || *q > '9') return attn::read_decimal(text, end);
        int written = 0;
        for (; *q >= '0' && *q <= '9'; ++q) {
            written = written * 10 + (*q - '0');
            if (written > 400) return attn::read_decimal(text, end);
        }
        exponent += minus ? -written : written;
        p = q;
    }
    if (exponent < -22 || exponent > 22) return attn::read_decimal(text, end);
    double value = double(m);  // exact: m < 10^15 < 2^53
    value = exponent < 0 ? value / pow10[-exponent] : value * pow10[exponent];
    if (end) *end = const_cast<char*>(p);
    return negative ? -value : value;
}
