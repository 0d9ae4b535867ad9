// read_decimal (core/src/io/decimal.hpp), the wasm strtod's exact path, against glibc's strtod: bit for
// bit and the same end, on long random decimals across the exponent range, exact halfway points between
// doubles (ties to even) and just off them, subnormals, and the edges (the largest double, 0, inf).
#include <doctest/doctest.h>

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

#include "io/decimal.hpp"

namespace {

void same_as_strtod(const std::string& text) {
    char* end_c = nullptr;
    char* end_ours = nullptr;
    const double want = std::strtod(text.c_str(), &end_c), got = attn::read_decimal(text.c_str(), &end_ours);
    INFO(text.substr(0, 120));
    CHECK(std::memcmp(&want, &got, sizeof want) == 0);
    CHECK(end_ours - text.c_str() == end_c - text.c_str());
}

}  // namespace

TEST_CASE("read_decimal is strtod, bit for bit, where strtod_wasm's fast path hands over") {
    for (const char* s : {"0", "-0", "1", "0.1", "1e308", "1.7976931348623157e308", "1.7976931348623158e308",
                          "1.7976931348623159e308", "1e309", "4.9e-324", "2.4703282292062327e-324", "2.4703282292062328e-324",
                          "5e-324", "1e-400", "123456789012345678901234567890", "0.000000000000000000000001234567890123456789",
                          "2.2250738585072011e-308", "2.2250738585072014e-308", "9007199254740993", "9007199254740992.5",
                          "9007199254740993.0000000000000000000001", "1e23", "12e+5", "1E-5", "0e5", "0.0e-99999", "1e99999", "-1e-99999"})
        same_as_strtod(s);
    std::mt19937_64 rng(7);
    for (int i = 0; i < 20000; ++i) {  // 16 to 30 digits, 10^-340 to 10^320
        std::string s = (rng() & 1) ? "-" : "";
        const int digits = 16 + int(rng() % 15);
        for (int k = 0; k < digits; ++k) s += (k == 1 ? "." : "") + std::string(1, char('0' + rng() % 10));
        same_as_strtod(s + "e" + std::to_string(int(rng() % 660) - 340));
    }
    if constexpr (LDBL_MANT_DIG >= 64) {  // a long double holds the halfway point of two doubles exactly
        for (int i = 0; i < 5000; ++i) {
            double x = 0;
            const bool subnormal = i % 5 == 0;
            do {
                const std::uint64_t bits = subnormal ? rng() % (std::uint64_t(1) << 52) : rng() & 0x7fefffffffffffffULL;
                std::memcpy(&x, &bits, sizeof x);
            } while (x == 0);
            const long double mid = (static_cast<long double>(x) + static_cast<long double>(std::nextafter(x, INFINITY))) / 2;
            char buf[1200];
            std::snprintf(buf, sizeof buf, "%.800Le", mid);  // 801 digits: past the 800 read_decimal keeps
            same_as_strtod(buf);
            std::string text = buf;
            std::string mantissa = text.substr(0, text.find('e'));
            const std::string exponent = text.substr(text.find('e'));
            while (mantissa.back() == '0') mantissa.pop_back();
            same_as_strtod(mantissa + exponent);            // the tie itself
            same_as_strtod(mantissa + "0000001" + exponent);  // just above it
            if (mantissa.back() > '0' && mantissa.back() <= '9') {
                mantissa.back()--;
                same_as_strtod(mantissa + "9999" + exponent);  // just below it
            }
        }
    }
}
