// `attn bench`: single-head forward softmax(Q·Kᵀ/√d)·V at several n: the materialising kernels,
// the streaming kernel at every instruction set the CPU has, and their scalar twins, run in turns
// in one process so drift hits all alike.
// A benchmark, not a test: it prints figures and judges nothing.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
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


double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

/// One contender of the benchmark: a name and one forward pass over the workload.
struct contender {
    std::string name;
    std::function<void(workload&)> run;
};

/// The materialising kernels (SIMD and scalar twin), then the streaming kernel at every instruction
/// set this CPU runs (the widest is what attn::attention_streaming picks) and its scalar twin.
std::vector<contender> contenders() {
    std::vector<contender> out{
        {"materialising simd", [](workload& w) { forward(w, simd_kernels()); }},
        {"materialising scalar", [](workload& w) { forward(w, scalar_kernels()); }},
        {"streaming scalar", [](workload& w) {
             scalar::attention_streaming(w.out.data(), w.q.data(), w.k.data(), w.v.data(), w.n, w.n, w.d, 1, false);
         }}};
    for (simd_level level : {simd_level::lanes4, simd_level::avx2, simd_level::avx512}) {
        if (static_cast<int>(level) > static_cast<int>(streaming_level())) break;
        out.push_back({std::string("streaming ") + simd_level_name(level), [level](workload& w) {
                           attention_streaming_at(level, w.out.data(), w.q.data(), w.k.data(), w.v.data(), w.n, w.n, w.d, 1, false);
                       }});
    }
    return out;
}

/// Seconds per pass of c, averaged over reps back-to-back passes.
double seconds_of(workload& w, const contender& c, std::size_t reps) {
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t r = 0; r < reps; ++r) c.run(w);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / reps;
}

}  // namespace

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
    if (out.empty())
        throw spec_error(std::string(option) + " takes sizes from 1 to " + std::to_string(max_positions) + ", not an empty list.");
    return out;
}

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
    const std::vector<contender> all = contenders();
    json rows = json::array();
    if (!as_json)
        std::cout << "single-head forward softmax(Q·Kᵀ/√d)·V, d = " << d << "; median of alternating runs, ms and GFLOP/s (4·n²·d)\n"
                  << "this CPU's streaming kernel: " << simd_level_name(streaming_level()) << "\n";
    for (std::size_t n : sizes) {
        workload w = make_workload(n, d);
        // warm-up, which also sizes a sample: enough passes for about 2 ms of each contender
        std::vector<std::size_t> reps;
        for (const contender& c : all)
            reps.push_back(std::max<std::size_t>(1, static_cast<std::size_t>(2e-3 / seconds_of(w, c, 1))));
        std::vector<std::vector<double>> samples(all.size());
        double spent = 0;
        // take turns until there are ~1.5 s of samples (at least 3 each, at most 200)
        while (samples[0].size() < 3 || (spent < 1.5 && samples[0].size() < 200))
            for (std::size_t c = 0; c < all.size(); ++c) {
                samples[c].push_back(seconds_of(w, all[c], reps[c]));
                spent += samples[c].back() * reps[c];
            }
        const double flops = 4.0 * n * n * d;
        json row = {{"n", n}, {"d", d}, {"runs", samples[0].size()}};
        if (!as_json) std::cout << "\nn = " << n << "\n";
        for (std::size_t c = 0; c < all.size(); ++c) {
            const double t = median(samples[c]);
            row[all[c].name] = t;
            char line[160];
            std::snprintf(line, sizeof line, "  %-34s %10.3f ms %8.2f GFLOP/s\n", all[c].name.c_str(), t * 1e3, flops / t * 1e-9);
            if (!as_json) std::cout << line << std::flush;
        }
        row["simd_s"] = row["materialising simd"];
        row["scalar_s"] = row["materialising scalar"];
        row["streaming_s"] = row[all.back().name];
        rows.push_back(std::move(row));
    }
    if (as_json) std::cout << rows.dump() << '\n';
    return 0;
}

}  // namespace attn::cli
