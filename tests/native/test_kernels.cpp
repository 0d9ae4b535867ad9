// Every SIMD kernel against its scalar twin, on many shapes, most of them not multiples
// of the vector width (4) or of the 16-column block.
#include <cmath>
#include <random>
#include <vector>

#include "attn/kernels.hpp"
#include "check.hpp"

namespace {

std::vector<float> random_values(std::size_t n, std::mt19937& rng, float lo = -1.0f, float hi = 1.0f) {
    std::uniform_real_distribution<float> u(lo, hi);
    std::vector<float> v(n);
    for (float& f : v) f = u(rng);
    return v;
}

const std::size_t sizes[] = {1, 2, 3, 4, 5, 7, 8, 13, 16, 17, 31, 32, 33, 64, 67};

}  // namespace

TEST_CASE("kernels.matmul: simd twin equals scalar twin") {
    std::mt19937 rng(1);
    for (std::size_t m : {1, 3, 8, 17})
        for (std::size_t k : sizes)
            for (std::size_t n : sizes) {
                const auto a = random_values(m * k, rng), b = random_values(k * n, rng);
                std::vector<float> fast(m * n, -7.0f), slow(m * n, 7.0f);
                attn::simd::matmul(fast.data(), a.data(), b.data(), m, k, n);
                attn::scalar::matmul(slow.data(), a.data(), b.data(), m, k, n);
                // different summation orders: allow a few ulps of a sum of k terms of size <= 1
                attn_test::check_close(fast, slow, 1e-6 * k,
                                       "matmul m=" + std::to_string(m) + " k=" + std::to_string(k) + " n=" + std::to_string(n));
            }
}

TEST_CASE("kernels.matmul_bt: simd twin equals scalar twin") {
    std::mt19937 rng(2);
    for (std::size_t m : {1, 2, 5, 16})
        for (std::size_t k : sizes)
            for (std::size_t n : sizes) {
                const auto a = random_values(m * k, rng), b = random_values(n * k, rng);
                std::vector<float> fast(m * n, -7.0f), slow(m * n, 7.0f);
                attn::simd::matmul_bt(fast.data(), a.data(), b.data(), m, k, n);
                attn::scalar::matmul_bt(slow.data(), a.data(), b.data(), m, k, n);
                attn_test::check_close(fast, slow, 1e-6 * k,
                                       "matmul_bt m=" + std::to_string(m) + " k=" + std::to_string(k) + " n=" + std::to_string(n));
            }
}

TEST_CASE("kernels.matmul: a known product") {
    const float a[] = {1, 2, 3, 4, 5, 6};        // (2, 3)
    const float b[] = {7, 8, 9, 10, 11, 12};     // (3, 2)
    float out[4];
    attn::simd::matmul(out, a, b, 2, 3, 2);
    CHECK(out[0] == 58);
    CHECK(out[1] == 64);
    CHECK(out[2] == 139);
    CHECK(out[3] == 154);
    attn::simd::matmul_bt(out, a, a, 2, 3, 2);   // a·aᵀ
    CHECK(out[0] == 14);
    CHECK(out[1] == 32);
    CHECK(out[3] == 77);
}

TEST_CASE("kernels.softmax_rows: simd twin equals scalar twin, sub-steps included") {
    std::mt19937 rng(3);
    for (std::size_t rows : {1, 2, 7})
        for (std::size_t cols : sizes) {
            auto in = random_values(rows * cols, rng, -20.0f, 20.0f);
            // a masked score in most rows, and a fully masked last row
            for (std::size_t r = 0; r < rows; ++r) in[r * cols + (r % cols)] = -1e9f;
            if (rows > 1)
                for (std::size_t c = 0; c < cols; ++c) in[(rows - 1) * cols + c] = -1e9f;
            std::vector<float> w1(rows * cols), e1(rows * cols), m1(rows), s1(rows);
            std::vector<float> w2(rows * cols), e2(rows * cols), m2(rows), s2(rows);
            attn::simd::softmax_rows(w1.data(), e1.data(), m1.data(), s1.data(), in.data(), rows, cols);
            attn::scalar::softmax_rows(w2.data(), e2.data(), m2.data(), s2.data(), in.data(), rows, cols);
            const std::string shape = " rows=" + std::to_string(rows) + " cols=" + std::to_string(cols);
            attn_test::check_close(m1, m2, 0.0, "row_max" + shape);
            attn_test::check_close(e1, e2, 3e-7, "exp" + shape);
            attn_test::check_close(s1, s2, 3e-7 * cols, "row_sum" + shape);
            attn_test::check_close(w1, w2, 3e-7, "weights" + shape);
            for (std::size_t r = 0; r < rows; ++r) {
                double sum = 0;
                for (std::size_t c = 0; c < cols; ++c) sum += w1[r * cols + c];
                CHECK(sum == doctest::Approx(1.0).epsilon(1e-6));
            }
            // a masked key next to real scores gets exactly zero, as std::exp gives
            if (cols > 1 && rows > 1) CHECK(w1[0] == 0.0f);
            if (rows > 1) CHECK(w1[(rows - 1) * cols] == doctest::Approx(1.0 / cols));
        }
}

TEST_CASE("kernels.softmax_rows: the vector exp is within 2 ulp of std::exp over its range") {
    std::vector<float> in;
    for (float x = -87.0f; x <= 0.0f; x += 0.0137f) in.push_back(x);
    in.push_back(0.0f);  // the row maximum, so exp(x - max) = exp(x)
    const std::size_t n = in.size();
    std::vector<float> w(n), e(n);
    float m, s;
    attn::simd::softmax_rows(w.data(), e.data(), &m, &s, in.data(), 1, n);
    double worst = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double exact = std::exp(static_cast<double>(in[i]));
        worst = std::max(worst, std::fabs(e[i] - exact) / exact);
    }
    INFO("worst relative error " << worst);
    CHECK(worst < 2.5e-7);
}
