// The op library against double-precision loops: linear (a SIMD register block and its plain twin for the rows
// and columns a block leaves) on shapes that are and are not multiples of the block and of an item of the helper
// threads (16 pairs of outputs), in every dtype; the kernels' exp4; attention, kept and not; softmax.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <random>

#include "io/guarded_json.hpp"
#include "kernels/simd4.hpp"
#include "ops/ops.hpp"

namespace {

attn::hf::weight make_weight(attn::hf::dtype type, std::size_t rows, std::size_t cols, std::mt19937& rng) {
    std::normal_distribution<float> normal(0.0f, 1.0f);
    attn::hf::weight w;
    w.type = type;
    w.rows = rows;
    w.cols = cols;
    const std::size_t width = type == attn::hf::dtype::f32 ? 4 : 2;
    w.bytes.resize(rows * cols * width);
    for (std::size_t i = 0; i < rows * cols; ++i) {
        const float v = normal(rng);
        if (type == attn::hf::dtype::f32) std::memcpy(w.bytes.data() + 4 * i, &v, 4);
        else {
            std::uint32_t bits;
            std::memcpy(&bits, &v, 4);
            const std::uint16_t h = type == attn::hf::dtype::f16 ? attn::io::float_to_half(v) : static_cast<std::uint16_t>(bits >> 16);
            std::memcpy(w.bytes.data() + 2 * i, &h, 2);
        }
    }
    return w;
}

/// ops::linear on random x, W and b of a shape, against a double-precision loop: the worst difference relative
/// to 1 + |the sum|, and relative to 1 + the sum of its terms' sizes (what a long float sum's rounding scales with).
struct linear_error {
    double of_value = 0, of_terms = 0;
};
linear_error linear_against_double(attn::hf::dtype type, std::size_t n, std::size_t in, std::size_t out, std::mt19937& rng) {
    std::normal_distribution<float> normal(0.0f, 1.0f);
    const attn::hf::weight w = make_weight(type, out, in, rng), b = make_weight(type, 1, out, rng);
    std::vector<float> x(n * in), y(n * out, NAN);
    for (float& v : x) v = normal(rng);
    attn::ops::linear(y.data(), x.data(), w, &b, n);
    linear_error worst;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t o = 0; o < out; ++o) {
            double want = b.at(o), terms = std::abs(b.at(o));
            for (std::size_t k = 0; k < in; ++k) {
                const double product = static_cast<double>(x[i * in + k]) * w.at(o * in + k);
                want += product;
                terms += std::abs(product);
            }
            const double off = std::abs(want - y[i * out + o]);  // NaN, where an output was never written
            worst.of_value = std::max(worst.of_value, std::isnan(off) ? INFINITY : off / (1 + std::abs(want)));
            worst.of_terms = std::max(worst.of_terms, std::isnan(off) ? INFINITY : off / (1 + terms));
        }
    return worst;
}

}  // namespace

TEST_CASE("ops.linear equals a double-precision loop on every shape and dtype") {
    std::mt19937 rng(7);
    for (const attn::hf::dtype type : {attn::hf::dtype::f32, attn::hf::dtype::f16, attn::hf::dtype::bf16})
        for (std::size_t n : {1u, 2u, 3u, 5u, 8u, 11u})
            for (std::size_t in : {1u, 3u, 4u, 7u, 16u, 33u})
                for (std::size_t out : {1u, 3u, 4u, 6u, 9u, 70u, 71u}) {
                    INFO("dtype " << attn::hf::dtype_name(type) << ", n " << n << ", in " << in << ", out " << out);
                    CHECK(linear_against_double(type, n, in, out, rng).of_value < 1e-5);
                }
}

TEST_CASE("ops.linear takes wide inputs' rows a tile at a time: the rows across a tile's edge equal the double loop") {
    // 8192 inputs: tiles of 16 rows (512 KB), so 37 rows are two whole tiles and five rows of a third
    std::mt19937 rng(11);
    for (const attn::hf::dtype type : {attn::hf::dtype::f32, attn::hf::dtype::bf16})
        for (std::size_t out : {5u, 34u}) {
            INFO("dtype " << attn::hf::dtype_name(type) << ", out " << out);
            CHECK(linear_against_double(type, 37, 8192, out, rng).of_terms < 1e-6);
        }
}

namespace {

/// exp4's rounding as it was written before it rounded in float lanes: n through the float-to-integer conversion,
/// then the same passes. The faster form must give these bits for every float.
attn::simd::f32x4 exp4_by_conversion(attn::simd::f32x4 x) {
    using namespace attn::simd;
    const f32x4 hi = splat(88.3762626647949f), lo = splat(-87.3365447505f);
    const i32x4 underflow = x < lo;
    x = select(underflow, splat(0.0f), vmin(x, hi));
    f32x4 fx = x * splat(1.44269504088896341f) + splat(0.5f);
    const f32x4 t = __builtin_convertvector(__builtin_convertvector(fx, i32x4), f32x4);
    fx = t - (f32x4)((i32x4)splat(1.0f) & (t > fx));
    return (f32x4)((i32x4)exp4_reduced(x, fx, __builtin_convertvector(fx, i32x4)) & ~underflow);
}

}  // namespace

TEST_CASE("exp4: the float-to-integer form's bits on every 61st float and both sides of each rounding boundary; within 2 ulp of e^x") {
    const float lo = -87.3365447505f, hi = 88.3762626647949f;  // exp4's own clamps
    std::size_t checked = 0, same = 0, worst_ulp = 0;
    const auto check = [&](float x) {
        const float got = attn::simd::exp4(attn::simd::splat(x))[0], was = exp4_by_conversion(attn::simd::splat(x))[0];
        ++checked;
        same += std::memcmp(&got, &was, 4) == 0 || (std::isnan(got) && std::isnan(was));
        if (!std::isfinite(x) || x < lo || x > hi) return;
        const float want = static_cast<float>(std::exp(static_cast<double>(x)));
        std::int32_t gb, wb;
        std::memcpy(&gb, &got, 4);
        std::memcpy(&wb, &want, 4);
        // below e^lo the result is exactly 0, where e^x goes on through the subnormals
        if (want >= 1.1754944e-38f) worst_ulp = std::max<std::size_t>(worst_ulp, static_cast<std::size_t>(std::abs(static_cast<long long>(gb) - wb)));
    };
    for (std::uint64_t bits = 0; bits < (std::uint64_t(1) << 32); bits += 61) {
        float x;
        const std::uint32_t b = static_cast<std::uint32_t>(bits);
        std::memcpy(&x, &b, 4);
        check(x);
    }
    for (int n = -126; n <= 128; ++n) {  // x·log2e + 0.5 an integer: where the two roundings could part
        const float x = static_cast<float>((n - 0.5) * std::log(2.0));
        float e = std::nextafter(x, -INFINITY);
        for (int k = 0; k < 5; ++k, e = std::nextafter(e, INFINITY)) check(e);
    }
    for (const float x : {lo, std::nextafter(lo, -INFINITY), std::nextafter(lo, INFINITY), hi, std::nextafter(hi, INFINITY), -0.0f, 0.0f,
                          INFINITY, -INFINITY, NAN})
        check(x);
    CHECK(checked > 70000000);
    CHECK(same == checked);
    CHECK(worst_ulp <= 2);
    CHECK(attn::simd::exp4(attn::simd::splat(0.0f))[0] == 1.0f);
    CHECK(attn::simd::exp4(attn::simd::splat(std::nextafter(lo, -INFINITY)))[0] == 0.0f);
}

namespace {

/// Attention of n queries at positions pos0 … over the t = pos0 + n keys of a cache, in double: weights[h][i][j].
std::vector<double> attention_weights_double(const std::vector<float>& q, const std::vector<float>& k, std::size_t h, std::size_t g,
                                             std::size_t n, std::size_t pos0, std::size_t dh) {
    const std::size_t t = pos0 + n;
    std::vector<double> w(h * n * t, 0.0);
    for (std::size_t head = 0; head < h; ++head)
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t seen = pos0 + i + 1, kv = head / (h / g);
            std::vector<double> s(seen);
            double most = -INFINITY, sum = 0;
            for (std::size_t j = 0; j < seen; ++j) {
                for (std::size_t c = 0; c < dh; ++c) s[j] += static_cast<double>(q[(head * n + i) * dh + c]) * k[(j * g + kv) * dh + c];
                s[j] /= std::sqrt(static_cast<double>(dh));
                most = std::max(most, s[j]);
            }
            for (double& v : s) sum += (v = std::exp(v - most));
            for (std::size_t j = 0; j < seen; ++j) w[(head * n + i) * t + j] = s[j] / sum;
        }
    return w;
}

}  // namespace

TEST_CASE("ops.attention: kept or not, the same context; its kept steps are the masked softmax a double loop gives") {
    std::mt19937 rng(5);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    // heads sharing keys (4 over 2), a first pass and a pass after a cache, a head width that is not a multiple of 4
    for (const auto& [h, g, n, pos0, dh] : std::vector<std::array<std::size_t, 5>>{{4, 2, 9, 0, 8}, {4, 2, 3, 6, 8}, {3, 3, 7, 0, 5}, {2, 1, 1, 13, 16}}) {
        INFO("h " << h << ", g " << g << ", n " << n << ", pos0 " << pos0 << ", dh " << dh);
        const std::size_t t = pos0 + n;
        std::vector<float> q(h * n * dh), k(t * g * dh), v(t * g * dh);
        for (auto* x : {&q, &k, &v})
            for (float& e : *x) e = 2 * normal(rng);
        std::vector<float> fast(h * n * dh, NAN), traced(h * n * dh, NAN);
        attn::ops::attention(fast.data(), q.data(), k.data(), v.data(), h, g, n, pos0, dh, nullptr);
        attn::ops::attention_steps s;
        attn::ops::attention(traced.data(), q.data(), k.data(), v.data(), h, g, n, pos0, dh, &s);
        CHECK(std::memcmp(fast.data(), traced.data(), fast.size() * 4) == 0);
        const std::vector<double> want = attention_weights_double(q, k, h, g, n, pos0, dh);
        const float scale = 1.0f / std::sqrt(static_cast<float>(dh));
        double worst = 0;
        for (std::size_t head = 0; head < h; ++head)
            for (std::size_t i = 0; i < n; ++i) {
                double sum = 0;
                for (std::size_t j = 0; j < t; ++j) {
                    const std::size_t at = (head * n + i) * t + j;
                    const bool seen = j <= pos0 + i;
                    CHECK(s.scaled[at] == s.scores[at] * scale);
                    CHECK(s.masked[at] == (seen ? s.scaled[at] : -1e9f));
                    if (!seen) CHECK((s.exp[at] == 0.0f && s.weights[at] == 0.0f));
                    worst = std::max(worst, std::abs(s.weights[at] - want[at]));
                    sum += s.weights[at];
                }
                CHECK(std::abs(sum - 1) < 1e-6);
                CHECK(s.row_sum[head * n + i] >= 1.0f);  // the row max's own term is e^0
            }
        CHECK(worst < 1e-6);
    }
}

TEST_CASE("ops.softmax_rows: into another buffer or in place the same bits, a vocabulary's row within 1e-6 of a double loop") {
    std::mt19937 rng(3);
    std::normal_distribution<float> normal(0.0f, 4.0f);
    const std::size_t rows = 2, cols = 151939;  // Qwen's vocabulary, and three more than a multiple of 4
    std::vector<float> x(rows * cols);
    for (float& e : x) e = normal(rng);
    std::vector<float> out(x.size(), NAN), in_place = x;
    attn::ops::softmax_rows(out.data(), x.data(), rows, cols);
    attn::ops::softmax_rows(in_place.data(), in_place.data(), rows, cols);
    CHECK(std::memcmp(out.data(), in_place.data(), out.size() * 4) == 0);
    double worst = 0;
    for (std::size_t r = 0; r < rows; ++r) {
        double most = -INFINITY, sum = 0;
        for (std::size_t j = 0; j < cols; ++j) most = std::max(most, static_cast<double>(x[r * cols + j]));
        // each term from the float difference the op takes the exp of: what is left is exp4's ulp and the sum's rounding
        const auto term = [&](std::size_t j) { return std::exp(static_cast<double>(x[r * cols + j] - static_cast<float>(most))); };
        for (std::size_t j = 0; j < cols; ++j) sum += term(j);
        for (std::size_t j = 0; j < cols; ++j) {
            const double want = term(j) / sum;
            worst = std::max(worst, std::abs(out[r * cols + j] - want) / want);
        }
    }
    CHECK(worst < 1e-6);
}
