// The op library: the blocks every architecture is built from (DESIGN.md's maths), one function each, outputs
// first, then inputs, then sizes, as llm.c writes them. Size letters: n rows (tokens), d features, h query
// heads, g key/value heads, dh head width, t keys (positions so far). Row-major; y = x·Wᵀ with W out × in.
// Internal to the library.
#pragma once

#include <cstddef>
#include <vector>

#include "attn/hf.hpp"
#include "ops/tap_emit.hpp"

namespace attn::ops {

/// @brief y (n × out) = x (n × in) · Wᵀ + b; W out × in in its own dtype (b may be null).
void linear(float* y, const float* x, const hf::weight& w, const hf::weight* b, std::size_t n);
/// @brief LayerNorm of each row: (x − mean) / √(var + eps) · γ + β (biased variance).
void layer_norm(float* y, const float* x, const hf::weight& gamma, const hf::weight& beta, std::size_t n, std::size_t d, float eps);
/// @brief RMSNorm of each row: x / √(mean(x²) + eps) · w.
void rms_norm(float* y, const float* x, const hf::weight& w, std::size_t n, std::size_t d, float eps);
/// @brief GPT-2's gelu_new: 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))), in place over n values.
void gelu_tanh(float* x, std::size_t n);
/// @brief SwiGLU's product: out = silu(gate) ⊙ up, silu(z) = z·σ(z).
void silu_mul(float* out, const float* gate, const float* up, std::size_t n);
/// @brief Rotary positions, Hugging Face's convention: for head vectors x (heads × n × dh) at positions
/// pos0 … pos0+n−1, rot(x) = x·cos + rotate_half(x)·sin, angle p·θ^(−2i/dh) repeated over both halves.
void rope(float* y, const float* x, std::size_t heads, std::size_t n, std::size_t dh, std::size_t pos0, double theta);
/// The angle pair i (0 ≤ i < dh/2) of position p turns by: p·θ^(−2i/dh), in float32 as rope() computes it.
float rope_angle(std::size_t p, std::size_t i, std::size_t dh, double theta);
/// @brief Rows (n × heads·dh) as head-major (heads × n × dh), and back.
void split_heads(float* y, const float* x, std::size_t n, std::size_t heads, std::size_t dh);
void merge_heads(float* y, const float* x, std::size_t n, std::size_t heads, std::size_t dh);
/// @brief Softmax of each row of x into y, which may be x (max subtracted first).
void softmax_rows(float* y, const float* x, std::size_t n, std::size_t cols);

}  // namespace attn::ops

namespace attn::ops {

/// @brief Causal scaled-dot attention of n new queries over t = pos0 + n keys, with g ≤ h key/value heads
/// (query head i reads key/value head ⌊i / (h/g)⌋): context (h × n × dh) from q (h × n × dh) and the cache's
/// keys and values ([position][g][dh], t positions). A key after its query is masked with −1e9. `keep`,
/// when given, receives every sub-step; without it the same loop keeps one row at a time.
void attention(float* context, const float* q, const float* k_cache, const float* v_cache, std::size_t h, std::size_t g,
               std::size_t n, std::size_t pos0, std::size_t dh, attention_steps* keep);

}  // namespace attn::ops
