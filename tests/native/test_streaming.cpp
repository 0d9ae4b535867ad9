// The streaming attention (online softmax, no n × n matrices) against the trace's own stages, on
// random shapes, head counts and the causal mask; its SIMD twin against its scalar twin.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <string>
#include <random>
#include <thread>
#include <vector>

#include "attn/attn.hpp"
#include "check.hpp"
#include "kernels/simd_lanes.hpp"

namespace {

std::vector<float> random_values(std::size_t n, std::mt19937& rng) {
    std::uniform_real_distribution<float> u(-2, 2);
    std::vector<float> out(n);
    for (float& x : out) x = u(rng);
    return out;
}

attn::matrix as_matrix(const std::vector<float>& v, std::size_t rows, std::size_t cols) {
    attn::matrix m = attn::matrix::from_shape({rows, cols});
    std::copy(v.begin(), v.end(), m.begin());
    return m;
}

}  // namespace

TEST_CASE("streaming: equals the trace's concat (softmax(QKᵀ/√d_h)·V per head) on random shapes, heads and causal masks") {
    std::mt19937 rng(11);
    int cases = 0;
    for (std::size_t n_q : {1, 2, 5, 9, 17})
        for (std::size_t extra : {0, 3})
            for (std::size_t heads : {1, 2, 3})
                for (std::size_t dh : {1, 3, 4, 7, 8})
                    for (bool causal : {false, true}) {
                        const std::size_t n_k = causal ? n_q : n_q + extra, d = heads * dh;
                        const auto q = random_values(n_q * d, rng), k = random_values(n_k * d, rng), v = random_values(n_k * d, rng);
                        // the same attention as a trace: x = q, memory rows give k = v only when they are equal;
                        // so feed Q, K, V as the projections of identity inputs: x = q, memory = k, W_v maps k to v
                        attn::spec s;
                        s.x = as_matrix(q, n_q, d);
                        s.heads = int(heads);
                        if (causal) s.mask = attn::mask_kind::causal;
                        s.memory = as_matrix(k, n_k, d);
                        attn::trace t = attn::compute_trace(s);
                        // the trace uses v = memory: compare against the streaming kernel with v = k
                        std::vector<float> fast(n_q * d), slow(n_q * d);
                        attn::attention_streaming(fast.data(), q.data(), k.data(), k.data(), n_q, n_k, d, heads, causal);
                        attn::scalar::attention_streaming(slow.data(), q.data(), k.data(), k.data(), n_q, n_k, d, heads, causal);
                        attn_test::check_close(fast.data(), t.concat.data(), n_q * d, 2e-5, "streaming vs trace");
                        attn_test::check_close(slow.data(), t.concat.data(), n_q * d, 2e-5, "scalar streaming vs trace");
                        // and with a separate V, SIMD twin against scalar twin
                        attn::attention_streaming(fast.data(), q.data(), k.data(), v.data(), n_q, n_k, d, heads, causal);
                        attn::scalar::attention_streaming(slow.data(), q.data(), k.data(), v.data(), n_q, n_k, d, heads, causal);
                        attn_test::check_close(fast.data(), slow.data(), n_q * d, 2e-5, "simd vs scalar");
                        ++cases;
                    }
    CHECK(cases == 300);
}

TEST_CASE("streaming: the online softmax survives scores far apart (no overflow, no 0/0)") {
    const std::size_t n = 6, d = 2;
    std::vector<float> q{30, 0, 0, 30, 30, 30, -30, 0, 0, -30, 1, 1}, v(n * d);
    for (std::size_t i = 0; i < n * d; ++i) v[i] = float(i);
    std::vector<float> out(n * d);
    attn::attention_streaming(out.data(), q.data(), q.data(), v.data(), n, n, d, 1, false);
    for (float x : out) CHECK(std::isfinite(x));
    // row 1, q = (30, 0): keys 1 and 3 tie at 900/√2, everything else is ~636 below: half and half
    CHECK(out[0] == doctest::Approx((v[0] + v[4]) / 2));
    CHECK(out[1] == doctest::Approx((v[1] + v[5]) / 2));
    // row 3, q = (30, 30): key 3 alone at 1800/√2
    CHECK(out[4] == doctest::Approx(v[4]));
}

TEST_CASE("streaming's 2^x: within 2.8e-7 of exp2 on [-125, 0], exactly 1 at 0, exactly 0 below -125 and at -inf") {
    using F = attn::lanes::vec<4>::f;
    const auto at = [](float x) { return attn::lanes::exp2_nonpositive<4>(attn::lanes::splat<F>(x))[0]; };
    double worst = 0;
    for (int i = 0; i <= 2000000; ++i) {  // every 6.25e-5 of the range, and each lane of a vector the same
        const float x = -125.0f * float(i) / 2000000.0f;
        const double want = std::exp2(double(x));
        worst = std::max(worst, std::fabs(double(at(x)) - want) / want);
    }
    MESSAGE("the largest relative error of 2^x on [-125, 0]: " << worst);
    CHECK(worst <= 2.8e-7);
    CHECK(at(0.0f) == 1.0f);
    CHECK(at(-0.0f) == 1.0f);
    CHECK(at(-3.0f) == 0.125f);
    CHECK(at(-125.0f) == std::exp2(-125.0f));  // the last power kept: a normal float
    CHECK(std::isnormal(at(-124.99f)));
    // below -125 (the subnormals' edge) and at -inf (masked and padded keys): exactly 0, no NaN, no subnormal
    for (float x : {-125.001f, -125.5f, -126.0f, -126.7f, -127.0f, -150.0f, -1e7f, -1e30f, -INFINITY}) CHECK(at(x) == 0.0f);
}

TEST_CASE("streaming: every instruction set this CPU has (4 lanes, AVX2 + FMA, AVX-512) equals the scalar twin, across key blocks") {
    std::mt19937 rng(23);
    int levels_run = 0;
    for (attn::simd_level level : {attn::simd_level::lanes4, attn::simd_level::avx2, attn::simd_level::avx512}) {
        bool ran = true;
        // sizes around the 64-key block and the 2N-column micro-tile, heads, causal
        for (std::size_t n_q : {1, 5, 63, 64, 65, 130})
            for (std::size_t n_k : {1, 7, 64, 65, 200})
                for (std::size_t dh : {1, 5, 8, 16, 33, 64})
                    for (bool causal : {false, true}) {
                        if (causal && n_k != n_q && n_k < n_q) continue;
                        const std::size_t heads = dh % 2 ? 1 : 2, d = heads * dh;
                        const auto q = random_values(n_q * d, rng), k = random_values(n_k * d, rng), v = random_values(n_k * d, rng);
                        std::vector<float> fast(n_q * d), slow(n_q * d);
                        ran = attn::attention_streaming_at(level, fast.data(), q.data(), k.data(), v.data(), n_q, n_k, d, heads, causal);
                        if (!ran) break;
                        attn::scalar::attention_streaming(slow.data(), q.data(), k.data(), v.data(), n_q, n_k, d, heads, causal);
                        attn_test::check_close(fast.data(), slow.data(), n_q * d, 3e-5,
                                               std::string(attn::simd_level_name(level)) + " vs scalar");
                    }
        if (ran) ++levels_run;
        const std::string said = std::string(attn::simd_level_name(level)) + (ran ? ": checked" : ": not on this CPU");
        MESSAGE(said);
    }
    // four lanes run everywhere, and every level up to the one the library picked for this CPU
    CHECK(levels_run == static_cast<int>(attn::streaming_level()) + 1);
}

TEST_CASE("streaming threads: threads sharing a call's items write the whole call's rows bit for bit") {
    std::mt19937 rng(5);
    for (std::size_t n_q : {3, 65, 200, 1500})  // 1500: shared blocks of the most rows, 16 · 6
        for (std::size_t heads : {1, 2})
            for (bool causal : {false, true}) {
                const std::size_t n_k = causal ? n_q : n_q + 9, d = 16 * heads;
                const auto q = random_values(n_q * d, rng), k = random_values(n_k * d, rng), v = random_values(n_k * d, rng);
                std::vector<float> whole(n_q * d), parts(n_q * d, -1.0f), threaded(n_q * d);
                attn::attention_streaming(whole.data(), q.data(), k.data(), v.data(), n_q, n_k, d, heads, causal);
                // three threads of our own on one counter (the library natively has no pool)
                std::atomic<std::size_t> next_item{0};
                std::vector<std::thread> sharing;
                for (int t = 0; t < 3; ++t)
                    sharing.emplace_back([&] { attn::attention_streaming_shared(parts.data(), q.data(), k.data(), v.data(), n_q, n_k, d, heads, causal, next_item); });
                for (auto& t : sharing) t.join();
                INFO("n_q ", n_q, " heads ", heads, " causal ", causal);
                CHECK(parts == whole);  // every row written, each the same float
                // every item taken once, and each thread's last take past the end: one item per head and block,
                // shared blocks n_q / 16 rows rounded up to whole groups of 6 (natively), 6 … 96 of them
                const std::size_t rows = std::clamp<std::size_t>((n_q / 16 + 5) / 6 * 6, 6, 96);
                CHECK(next_item.load() == heads * ((n_q + rows - 1) / rows) + 3);
                // items from 1 on, one thread: every row but those of item 0 (head 0's first block: its last rows
                // with the causal mask, whose blocks go from the end) is written, and only those
                std::vector<float> skipped(n_q * d, -1.0f);
                std::atomic<std::size_t> from_one{1};
                attn::attention_streaming_shared(skipped.data(), q.data(), k.data(), v.data(), n_q, n_k, d, heads, causal, from_one);
                const std::size_t blocks = (n_q + rows - 1) / rows, first = causal ? (blocks - 1) * rows : 0;
                std::size_t wrong = 0;
                for (std::size_t i = 0; i < n_q; ++i)
                    for (std::size_t c = 0; c < d; ++c) {
                        const bool item0 = i >= first && i < first + rows && c < d / heads;
                        wrong += item0 ? skipped[i * d + c] != -1.0f : skipped[i * d + c] != whole[i * d + c];
                    }
                CHECK(wrong == 0);
                attn::attention_streaming_threads(threaded.data(), q.data(), k.data(), v.data(), n_q, n_k, d, heads, causal, 4);
                CHECK(threaded == whole);
            }
    // natively the library has no thread pool: one thread, whatever is asked (the wasm-threads module has one)
    CHECK(attn::streaming_max_threads() == 1);
    CHECK(attn::streaming_threads_for(4096, 4096, 64, 8) == 1);
}

TEST_CASE("streaming: the fast path's finiteness check finds the first ±∞ or NaN, in any block, at any place") {
    std::vector<float> values(1000, 0.5f);
    CHECK(attn::first_not_finite(values.data(), values.size()) == -1);
    CHECK(attn::first_not_finite(values.data(), 0) == -1);
    for (std::size_t at : {std::size_t{0}, std::size_t{5}, std::size_t{255}, std::size_t{256}, std::size_t{300}, std::size_t{999}})
        for (float bad : {INFINITY, -INFINITY, NAN}) {
            std::vector<float> v = values;
            v[at] = bad;
            if (at + 1 < v.size()) v[v.size() - 1] = NAN;  // a later one is not the first
            CHECK(attn::first_not_finite(v.data(), v.size()) == long(at));
            CHECK(attn::first_not_finite(v.data(), at) == -1);  // the values before it
        }
    values[997] = 3e38f;  // finite, however large
    CHECK(attn::first_not_finite(values.data(), values.size()) == -1);
}
