// read_decimal (decimal.hpp): a first guess from the leading 19 digits, then corrected by comparing the
// decimal exactly with the halfway points between neighbouring doubles, in big integers (the comparison
// strtod implementations call bigcomp). Slow, a few microseconds, and only for the numbers the fast path of
// strtod_wasm.cpp leaves: more than 15 significant digits, or an exponent past ±22.
#include "io/decimal.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace attn {
namespace {

/// A non-negative big integer, 32 bits a word, least significant first.
struct big {
    std::vector<std::uint32_t> w;

    void mul_add(std::uint32_t m, std::uint32_t add) {
        std::uint64_t carry = add;
        for (std::uint32_t& x : w) {
            const std::uint64_t t = std::uint64_t(x) * m + carry;
            x = std::uint32_t(t);
            carry = t >> 32;
        }
        if (carry) w.push_back(std::uint32_t(carry));
    }
    void mul_pow10(int n) {
        for (; n >= 9; n -= 9) mul_add(1000000000u, 0);
        static const std::uint32_t small[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
        if (n > 0) mul_add(small[n], 0);
    }
    void shift_left(int bits) {
        if (bits <= 0 || w.empty()) return;
        w.insert(w.begin(), std::size_t(bits / 32), 0u);
        if (const int r = bits % 32) {
            std::uint32_t carry = 0;
            for (std::size_t i = std::size_t(bits / 32); i < w.size(); ++i) {
                const std::uint32_t x = w[i];
                w[i] = (x << r) | carry;
                carry = x >> (32 - r);
            }
            if (carry) w.push_back(carry);
        }
    }
    void trim() {
        while (!w.empty() && w.back() == 0) w.pop_back();
    }
};

int compare(big a, big b) {
    a.trim();
    b.trim();
    if (a.w.size() != b.w.size()) return a.w.size() < b.w.size() ? -1 : 1;
    for (std::size_t i = a.w.size(); i-- > 0;)
        if (a.w[i] != b.w[i]) return a.w[i] < b.w[i] ? -1 : 1;
    return 0;
}

/// A non-negative double as m·2^e, m an integer of at most 53 bits; +inf as 2^1024 (the double after the
/// largest, were there one), so that the halfway point to it is where strtod starts to answer inf.
void split(double x, std::uint64_t& m, int& e) {
    if (x == std::numeric_limits<double>::infinity()) {
        m = std::uint64_t(1) << 52;
        e = 972;
        return;
    }
    std::uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    const int field = int(bits >> 52);
    m = bits & ((std::uint64_t(1) << 52) - 1);
    if (field == 0) {
        e = -1074;
    } else {
        m |= std::uint64_t(1) << 52;
        e = field - 1075;
    }
}

bool odd(double x) {
    std::uint64_t m;
    int e;
    split(x, m, e);
    return m & 1;
}

/// The decimal digits·10^exp10 against the point halfway between lo < hi, doubles next to each other
/// (0 and +inf included): -1, 0 or 1. sticky: digits not zero were dropped after the ones given.
int against_halfway(const big& digits, int exp10, bool sticky, double lo, double hi) {
    std::uint64_t ml, mh;
    int el, eh;
    split(lo, ml, el);
    split(hi, mh, eh);
    const int e = el < eh ? el : eh;
    // halfway = (ml·2^(el-e) + mh·2^(eh-e)) · 2^(e-1), the sum at most 55 bits
    const std::uint64_t sum = (ml << (el - e)) + (mh << (eh - e));
    big d = digits, h;
    h.w = {std::uint32_t(sum), std::uint32_t(sum >> 32)};
    if (exp10 >= 0) d.mul_pow10(exp10); else h.mul_pow10(-exp10);
    if (e - 1 >= 0) h.shift_left(e - 1); else d.shift_left(1 - e);
    const int c = compare(d, h);
    return c == 0 && sticky ? 1 : c;
}

}  // namespace

double read_decimal(const char* text, char** end) {
    const char* p = text;
    const bool negative = *p == '-';
    if (negative) ++p;
    if (*p < '0' || *p > '9') {
        if (end) *end = const_cast<char*>(text);
        return 0;
    }
    // the significant digits (up to 800: the 768th decides any double, the rest only whether any is not 0)
    big digits;
    std::uint64_t lead = 0;  // the first 19 of them, for the guess
    int kept = 0, lead_count = 0, exp10 = 0;
    bool sticky = false;
    const auto digit = [&](int d, bool after_point) {
        if (kept == 0 && d == 0) {  // a leading zero only moves the point
            if (after_point) --exp10;
            return;
        }
        if (kept < 800) {
            digits.mul_add(10, std::uint32_t(d));
            ++kept;
            if (lead_count < 19) lead = lead * 10 + std::uint64_t(d), ++lead_count;
            if (after_point) --exp10;
        } else {
            sticky |= d != 0;
            if (!after_point) ++exp10;
        }
    };
    for (; *p >= '0' && *p <= '9'; ++p) digit(*p - '0', false);
    if (*p == '.' && p[1] >= '0' && p[1] <= '9')
        for (++p; *p >= '0' && *p <= '9'; ++p) digit(*p - '0', true);
    if ((*p == 'e' || *p == 'E')) {
        const char* q = p + 1;
        const bool minus = *q == '-';
        if (*q == '+' || *q == '-') ++q;
        if (*q >= '0' && *q <= '9') {
            long written = 0;
            for (; *q >= '0' && *q <= '9'; ++q)
                if (written < 100000) written = written * 10 + (*q - '0');
            exp10 += int(minus ? -written : written);
            p = q;
        }
    }
    if (end) *end = const_cast<char*>(p);
    const double inf = std::numeric_limits<double>::infinity();
    double value;
    if (kept == 0) {
        value = 0;
    } else if (exp10 + kept > 310) {  // at least 10^310
        value = inf;
    } else if (exp10 + kept < -330) {  // below 10^-330, under half the smallest double (4.9e-324)
        value = 0;
    } else {
        // the guess, within a few ulps: the leading digits times a power of ten (in two factors: each finite)
        const int lead_exp = exp10 + (kept - lead_count);
        const int half = lead_exp / 2;
        double guess = double(lead) * std::pow(10.0, half) * std::pow(10.0, lead_exp - half);
        // then the double whose halfway points to its neighbours enclose the decimal; a tie goes to the even
        // significand (0's and inf's are even)
        for (;;) {
            if (guess < inf) {
                const double up = std::nextafter(guess, inf);
                const int c = against_halfway(digits, exp10, sticky, guess, up);
                if (c > 0 || (c == 0 && odd(guess))) {
                    guess = up;
                    continue;
                }
            }
            if (guess > 0) {
                const double down = std::nextafter(guess, 0.0);
                const int c = against_halfway(digits, exp10, sticky, down, guess);
                if (c < 0 || (c == 0 && odd(guess))) {
                    guess = down;
                    continue;
                }
            }
            break;
        }
        value = guess;
    }
    return negative ? -value : value;
}

}  // namespace attn
