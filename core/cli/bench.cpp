// `attn bench`: single-head forward softmax(Q·Kᵀ/√d)·V at several n, the SIMD kernels
// against their scalar twins, run alternately in one process so drift hits both alike.
// A benchmark, not a test: it prints figures and judges nothing.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <random>
#include <sstream>

#include "attn/attn.hpp"
#include "cli.hpp"

namespace attn::cli {
namespace {

struct workload {
    std::size_t n, d;
    std::vector<float> q, k, v;                       // (n, d) each
    std::vector<float> scores, exp, weights, out;     // (n, n), (n, n), (n, n), (n, d)
    std::vector<float> row_max, row_sum;              // (n)
};

workload make_workload(std::size_t n, std::size_t d) {
    workload w{n, d, {}, {}, {}, std::vector<float>(n * n), std::vector<float>(n * n), std::vector<float>(n * n),
               std::vector<float>(n * d), std::vector<float>(n), std::vector<float>(n)};
    std::mt19937 rng(42);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (auto* m : {&w.q, &w.k, &w.v}) {
        m->resize(n * d);
        for (float& f : *m) f = u(rng);
    }
    return w;
}

void forward(workload& w, const kernel_set& ks) {
    attention_forward(w.out.data(), w.scores.data(), w.exp.data(), w.weights.data(), w.row_max.data(),
                      w.row_sum.data(), w.q.data(), w.k.data(), w.v.data(), w.n, w.d, ks);
}

/// Seconds per forward pass, averaged over reps back-to-back passes (small n needs many to time).
double seconds_of(workload& w, const kernel_set& ks, std::size_t reps) {
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t r = 0; r < reps; ++r) forward(w, ks);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / reps;
}

/// "128,512": sizes from 1 to max_positions; option names the flag in the refusal.
std::vector<std::size_t> parse_list(const std::string& text, const char* option) {
    std::vector<std::size_t> out;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');) {
        char* end = nullptr;
        const unsigned long v = std::strtoul(item.c_str(), &end, 10);
        if (item.empty() || *end || v == 0 || v > max_positions)
            throw spec_error(std::string(option) + " takes sizes from 1 to " + std::to_string(max_positions) +
                             ", not \"" + user_text(item) + "\".");
        out.push_back(v);
    }
    return out;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

int run_bench(const std::vector<std::string>& args) {
    std::vector<std::size_t> sizes{128, 512, 2048};
    std::size_t d = 64;
    bool as_json = false;  // for the node benchmark, which puts native beside wasm and JS
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--n" && i + 1 < args.size()) sizes = parse_list(args[++i], "--n");
        else if (args[i] == "--d" && i + 1 < args.size()) d = parse_list(args[++i], "--d").at(0);
        else if (args[i] == "--json") as_json = true;
        else throw spec_error("bench does not know the argument \"" + user_text(args[i]) + "\" (use --n 128,512, --d 64, --json).");
    }
    char line[160];
    json rows = json::array();
    std::snprintf(line, sizeof line, "single-head forward softmax(Q·Kᵀ/√d)·V, d = %zu; median of alternating runs\n", d);
    if (!as_json) std::cout << line;
    std::snprintf(line, sizeof line, "%6s %6s %12s %12s %10s %14s %14s\n", "n", "runs", "simd ms", "scalar ms",
                  "scalar/simd", "simd GFLOP/s", "scalar GFLOP/s");
    if (!as_json) std::cout << line << std::flush;
    for (std::size_t n : sizes) {
        workload w = make_workload(n, d);
        // warm-up, which also sizes a sample: enough passes for about 2 ms of the faster twin
        const std::size_t reps = std::max<std::size_t>(1, static_cast<std::size_t>(2e-3 / seconds_of(w, simd_kernels(), 1)));
        seconds_of(w, scalar_kernels(), 1);
        std::vector<double> simd_s, scalar_s;
        double spent = 0;
        // alternate the twins until both have ~0.6 s of samples (at least 3 each, at most 200)
        while (simd_s.size() < 3 || (spent < 1.2 && simd_s.size() < 200)) {
            simd_s.push_back(seconds_of(w, simd_kernels(), reps));
            scalar_s.push_back(seconds_of(w, scalar_kernels(), reps));
            spent += (simd_s.back() + scalar_s.back()) * reps;
        }
        const double a = median(simd_s), b = median(scalar_s), flops = 4.0 * n * n * d;
        std::snprintf(line, sizeof line, "%6zu %6zu %12.3f %12.3f %9.2fx %14.2f %14.2f\n", n, simd_s.size(), a * 1e3,
                      b * 1e3, b / a, flops / a * 1e-9, flops / b * 1e-9);
        if (as_json) rows.push_back({{"n", n}, {"d", d}, {"simd_s", a}, {"scalar_s", b}, {"runs", simd_s.size()}});
        else std::cout << line << std::flush;
    }
    if (as_json) std::cout << rows.dump() << '\n';
    return 0;
}

}  // namespace attn::cli
