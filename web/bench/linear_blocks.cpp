// Which register block ops::linear uses (core/src/ops/ops.cpp), timed in V8: y = x · Wᵀ over GPT-2 small's twelve
// layers of weights (768 → 2304, 768 → 768, 768 → 3072, 3072 → 768, each matrix its own memory, so the weights
// stream from memory as in a forward pass), on 64 and 256 input rows; blocks of R input rows × C weight rows on
// 4-lane vectors, all rows at once and a tile of rows at a time (as many as fit in a budget). GFLOP/s, the best
// of five passes. Figures, not pass/fail.
//
// usage (scripts/bench.sh): em++ -std=c++17 -O3 -msimd128 -sSINGLE_FILE=1 -sALLOW_MEMORY_GROWTH=1 \
//          web/bench/linear_blocks.cpp -o build/bench/linear_blocks.js && node build/bench/linear_blocks.js
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <tuple>
#include <vector>

namespace {

typedef float f32x4 __attribute__((vector_size(16)));
f32x4 load(const float* p) {
    f32x4 v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
float hsum(f32x4 v) { return (v[0] + v[1]) + (v[2] + v[3]); }

/// Rows i0 … i0+R−1 of x against weight rows o0 … o0+C−1, as ops.cpp's block (without its bias and tail).
template <int R, int C>
__attribute__((noinline)) void block(float* y, const float* x, const float* w, std::size_t i0, std::size_t o0, std::size_t in, std::size_t out) {
    f32x4 acc[R][C] = {};
    const float* xr[R];
    const float* wr[C];
    for (int r = 0; r < R; ++r) xr[r] = x + (i0 + r) * in;
    for (int c = 0; c < C; ++c) wr[c] = w + (o0 + c) * in;
    for (std::size_t k = 0; k + 4 <= in; k += 4) {
        f32x4 a[R];
        for (int r = 0; r < R; ++r) a[r] = load(xr[r] + k);
        for (int c = 0; c < C; ++c) {
            const f32x4 wv = load(wr[c] + k);
            for (int r = 0; r < R; ++r) acc[r][c] += a[r] * wv;
        }
    }
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c) y[(i0 + r) * out + o0 + c] = hsum(acc[r][c]);
}

/// y = x · Wᵀ with blocks of R × C, the rows a tile of at most `budget` bytes at a time (0: all at once).
template <int R, int C>
void linear(float* y, const float* x, const float* w, std::size_t n, std::size_t in, std::size_t out, std::size_t budget) {
    const std::size_t tile = budget ? std::max<std::size_t>(R, budget / 4 / in / R * R) : n;
    for (std::size_t i0 = 0; i0 < n; i0 += tile)
        for (std::size_t o0 = 0; o0 + C <= out; o0 += C)
            for (std::size_t i = i0; i + R <= std::min(n, i0 + tile); i += R) block<R, C>(y, x, w, i, o0, in, out);
}

}  // namespace

int main() {
    std::vector<std::tuple<std::size_t, std::size_t>> shapes;
    for (int l = 0; l < 12; ++l) shapes.insert(shapes.end(), {{768, 2304}, {768, 768}, {768, 3072}, {3072, 768}});
    std::vector<std::vector<float>> weights;
    for (const auto& [in, out] : shapes) {
        weights.emplace_back(in * out);
        for (std::size_t i = 0; i < weights.back().size(); ++i) weights.back()[i] = static_cast<float>(i % 5) * 0.1f;
    }
    for (const std::size_t n : {std::size_t(64), std::size_t(240)}) {  // 240: a multiple of every R here
        std::vector<float> x(n * 3072), y(n * 3072);
        for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 7) * 0.1f;
        double flop = 0;
        for (const auto& [in, out] : shapes) flop += 2.0 * n * in * out;
        const auto gflops = [&](auto run) {
            double best = 1e30;
            for (int pass = 0; pass < 5; ++pass) {
                const auto t0 = std::chrono::steady_clock::now();
                for (std::size_t m = 0; m < shapes.size(); ++m) run(weights[m].data(), std::get<0>(shapes[m]), std::get<1>(shapes[m]));
                best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
            }
            return flop / best / 1e9;
        };
        std::printf("n %zu, GFLOP/s:", n);
        const auto row = [&](const char* name, auto run) { std::printf("  %s %.1f", name, gflops(run)); };
        row("2x4", [&](const float* w, std::size_t in, std::size_t out) { linear<2, 4>(y.data(), x.data(), w, n, in, out, 0); });
        row("4x2", [&](const float* w, std::size_t in, std::size_t out) { linear<4, 2>(y.data(), x.data(), w, n, in, out, 0); });
        row("3x2", [&](const float* w, std::size_t in, std::size_t out) { linear<3, 2>(y.data(), x.data(), w, n, in, out, 0); });
        row("3x4", [&](const float* w, std::size_t in, std::size_t out) { linear<3, 4>(y.data(), x.data(), w, n, in, out, 0); });
        row("4x2 tiles of 256 KB", [&](const float* w, std::size_t in, std::size_t out) { linear<4, 2>(y.data(), x.data(), w, n, in, out, 256 * 1024); });
        row("512 KB", [&](const float* w, std::size_t in, std::size_t out) { linear<4, 2>(y.data(), x.data(), w, n, in, out, 512 * 1024); });
        row("1 MB", [&](const float* w, std::size_t in, std::size_t out) { linear<4, 2>(y.data(), x.data(), w, n, in, out, 1024 * 1024); });
        std::printf("\n");
    }
}
