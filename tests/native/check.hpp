// Test helpers: comparisons that say what differs (the first differing value and the largest
// difference), and the sentence a refused spec gets.
#pragma once

#include <cmath>
#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "attn/json.hpp"
#include "attn/trace.hpp"

namespace attn_test {

/// @brief The sentence parsing and tracing text throws, or "" when the spec is accepted.
inline std::string refusal(const std::string& text) {
    try {
        attn::compute_trace(attn::parse_spec(text));
    } catch (const attn::spec_error& e) {
        return e.what();
    }
    return "";
}

/// @brief Fails the test unless |a[i] - b[i]| <= tol for every i, printing the first miss and the max difference.
inline void check_close(const float* a, const float* b, std::size_t n, double tol, const std::string& what) {
    double worst = 0;
    std::size_t first = n, worst_at = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double diff = std::fabs(static_cast<double>(a[i]) - static_cast<double>(b[i]));
        if (!(diff <= tol) && first == n) first = i;
        if (!(diff <= worst)) worst = diff, worst_at = i;
    }
    if (first != n) {
        std::ostringstream os;
        os << what << ": first difference at [" << first << "]: " << a[first] << " vs " << b[first]
           << "; max |diff| " << worst << " at [" << worst_at << "] (tolerance " << tol << ")";
        FAIL_CHECK(os.str());
    }
}

template <class A, class B>
void check_close(const A& a, const B& b, double tol, const std::string& what) {
    REQUIRE_MESSAGE(a.size() == b.size(), what << ": sizes differ");
    check_close(a.data(), b.data(), a.size(), tol, what);
}

}  // namespace attn_test
