// The guided path's figures that are not a trace (docs/figures.md): a small JSON request in, JSON out,
// every number computed here in double precision, so that the page draws and never computes.
//   rnn-limits         how much word t still moves a tanh RNN's last state (‖∂h_{n−1}/∂x_t‖_F, back-propagated
//                      through time) against self-attention's one step (‖∂c_{n−1}/∂x_t‖_F, the softmax's
//                      Jacobian), by distance n − 1 − t (seed 000, RNN的局限性)
//   why-sqrt-dk        softmax's largest weight, the size of its Jacobian and the scores' spread against d_k, with
//                      and without ÷√d_k, over random q and k (seed 002 §2.2)
//   cnn-rnn-attention  path length, sequential steps, multiply-adds and memory of one layer of each, counted, and
//                      its time, measured here (seed 000's table)
//
// The random draws (an independent implementation reproduces them: tests/oracle/figures_numpy.py):
//   splitmix64, state = seed: state += 0x9E3779B97F4A7C15; z = state; z = (z ^ (z >> 30)) · 0xBF58476D1CE4E5B9;
//     z = (z ^ (z >> 27)) · 0x94D049BB133111EB; the draw is z ^ (z >> 31) (all mod 2^64)
//   uniform u = (draw >> 11) · 2^−53, in [0, 1)
//   normal: Box–Muller on two uniforms u1 then u2 (u1 = 0 is taken as 2^−53): z0 = √(−2 ln u1)·cos(2π u2),
//     z1 = √(−2 ln u1)·sin(2π u2); z0 is the next normal, z1 the one after. One stream per request, so a normal
//     left over at the end of one matrix is the first of the next.
//   rnn-limits: W_x (d × hidden) row-major, then W_h (hidden × hidden) row-major, each normal times
//     gain/√fan_in (fan_in d for W_x, hidden for W_h); b = 0
//   why-sqrt-dk: for each d_k in the request's order, for each trial: q (d_k), then k (n_keys × d_k) row-major
//   cnn-rnn-attention: seed 1; x (n × d), W_x, W_h (d × d), then the convolution's W (kernel × d × d), each
//     row-major, times 1/√fan_in (fan_in d, or kernel·d for the convolution), for each n in order
//
// [SECTION] the generator
// [SECTION] rnn-limits
// [SECTION] why-sqrt-dk
// [SECTION] cnn-rnn-attention
// [SECTION] by name
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "attn/json.hpp"

namespace attn {

// [SECTION] the generator

/// @brief splitmix64 with Box–Muller normals, as the header says: small enough to write again anywhere.
class figure_random {
public:
    explicit figure_random(std::uint64_t seed) : state_(seed) {}
    /// @brief The next 64-bit draw.
    std::uint64_t next();
    /// @brief (next() >> 11) · 2^−53, in [0, 1).
    double uniform();
    /// @brief The next standard normal (z0 of a fresh pair, else the pair's z1).
    double normal();

private:
    std::uint64_t state_;
    double spare_ = 0;
    bool has_spare_ = false;
};

/// @brief A row-major double matrix (rows, cols): the figures' arithmetic is in double, whatever the page draws
/// with. A plain vector, not an xtensor: the figures ride in the learn part's download (wasm/CMakeLists.txt).
struct dmatrix {
    std::size_t rows = 0, cols = 0;
    std::vector<double> data;  // (rows, cols), row-major
    dmatrix() = default;
    dmatrix(std::size_t r, std::size_t c, double fill = 0) : rows(r), cols(c), data(r * c, fill) {}
    double& operator()(std::size_t i, std::size_t j) { return data[i * cols + j]; }
    double operator()(std::size_t i, std::size_t j) const { return data[i * cols + j]; }
};

// [SECTION] rnn-limits

/// @brief {"x": n × d (n 2..64, d 1..64), "hidden": 8 (1..64), "seed": 1, "gain": 0.9 (0 < gain ≤ 16)}.
struct rnn_limits_request {
    dmatrix x;  // (n, d)
    std::size_t hidden = 8;
    std::uint64_t seed = 1;
    double gain = 0.9;
};

/// @brief The tanh RNN's parameters, h_t = tanh(x_t·W_x + h_{t−1}·W_h + b) with h_{−1} = 0.
struct rnn_weights {
    dmatrix w_x;            // (d, hidden)
    dmatrix w_h;            // (hidden, hidden)
    std::vector<double> b;  // (hidden), zero
};

/// @brief W_x then W_h from the generator (seed), each normal × gain/√fan_in; b = 0.
rnn_weights rnn_draw_weights(std::size_t d, std::size_t hidden, std::uint64_t seed, double gain);
/// @brief h_{n−1}, the RNN's last state (hidden).
std::vector<double> rnn_last_state(const dmatrix& x, const rnn_weights& w);
/// @brief ∂h_{n−1}/∂x_t for t = 0..n−1, each (hidden, d), back-propagated through time.
std::vector<dmatrix> rnn_jacobians(const dmatrix& x, const rnn_weights& w);
/// @brief c_{n−1} = softmax(x_{n−1}·xᵀ/√d)·x: the last row of self-attention with Q = K = V = x (d).
std::vector<double> attention_last_row(const dmatrix& x);
/// @brief ∂c_{n−1}/∂x_t for t = 0..n−1, each (d, d): α_t·I + u_t ⊗ x_{n−1}/√d, plus Σ_k u_k ⊗ x_k/√d when
/// t = n − 1, where u_k = α_k·(x_k − c_{n−1}) (the softmax's Jacobian diag(α) − ααᵀ folded in).
std::vector<dmatrix> attention_jacobians(const dmatrix& x);

/// @brief Reads and checks a request; throws spec_error naming the field.
rnn_limits_request rnn_limits_request_from_json(const json& j);
/// @brief {influence_rnn, influence_attention (‖·‖_F by t), distance (n − 1 − t), steps: {rnn: n, attention: 1},
/// n, d, hidden, seed, gain}.
json rnn_limits(const rnn_limits_request& r);

// [SECTION] why-sqrt-dk

/// @brief {"d_k": [4, …, 512] (each 1..1024, 1..16 of them), "n_keys": 16 (2..256), "trials": 200 (1..1000), "seed": 1}.
struct why_sqrt_dk_request {
    std::vector<std::size_t> d_k{4, 8, 16, 32, 64, 128, 256, 512};
    std::size_t n_keys = 16, trials = 200;
    std::uint64_t seed = 1;
};

/// @brief Of one softmax row α: max_j α_j and ‖diag(α) − ααᵀ‖_F = √(Σα² − 2Σα³ + (Σα²)²).
struct softmax_facts {
    double max_weight, grad_norm;
};
softmax_facts softmax_row_facts(const std::vector<double>& scores);

why_sqrt_dk_request why_sqrt_dk_request_from_json(const json& j);
/// @brief {d_k, unscaled: {max_weight, grad_norm, score_std}, scaled: {…}, n_keys, trials, seed}: per d_k the mean
/// over trials; score_std is the population standard deviation of one trial's n_keys scores.
json why_sqrt_dk(const why_sqrt_dk_request& r);

// [SECTION] cnn-rnn-attention

/// @brief {"n": [8, …, 256] (each 2..1024, 1..12 of them), "d": 32 (1..256), "kernel": 3 (odd, 3..9)}.
struct cnn_rnn_attention_request {
    std::vector<std::size_t> n{8, 16, 32, 64, 128, 256};
    std::size_t d = 32, kernel = 3;
};

cnn_rnn_attention_request cnn_rnn_attention_request_from_json(const json& j);
/// @brief {n, rows: [{n, path_length, sequential_steps, multiply_adds, memory_floats, microseconds}]}, each
/// of those {rnn, cnn, attention}; microseconds: one layer on seeded data, the best of 3 runs.
json cnn_rnn_attention(const cnn_rnn_attention_request& r);

// [SECTION] by name

/// @brief "rnn-limits", "why-sqrt-dk", "cnn-rnn-attention".
const std::vector<std::string>& figure_ids();
/// @brief The figure `name` for a request's JSON text (empty or blank text: every default). Throws
/// spec_error for an unknown name or a bad request.
json figure_json(std::string_view name, std::string_view request_text);

}  // namespace attn
