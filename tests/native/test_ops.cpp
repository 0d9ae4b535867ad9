// The op library's linear (a SIMD register block and its plain twin for the rows and columns a block leaves)
// against a double-precision loop, on shapes that are and are not multiples of the block and of an item of the
// helper threads (16 pairs of outputs), in every dtype.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "io/guarded_json.hpp"
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
