// The character model's one forward pass. A trace, a training step and generation are its modes: a trace
// passes a tap, training keeps the activations its backward pass reads, generation passes a key/value cache.
// Internal to the core (the public calls are attn/lm.hpp's and attn/lm_train.hpp's).
#pragma once

#include <cstddef>
#include <vector>

#include "attn/lm.hpp"
#include "attn/tap.hpp"

namespace attn::lm {

/// What one layer's backward pass reads, rows (B·T, width).
struct layer_acts {
    std::vector<float> in, ln1, ln1_mean, ln1_rstd, q, k, v, att, ctx, mid, ln2, ln2_mean, ln2_rstd, pre, act;
};
/// What the whole backward pass reads; att per layer is (B, h, T, T).
struct activations {
    int B = 0, T = 0;
    std::vector<layer_acts> layers;
    std::vector<float> resid, lnf, lnf_mean, lnf_rstd, logits;  // resid: the last layer's output
};

/// Which rows' logits a pass computes: the unembedding is most of a row's work, so a prompt's rows skip it.
enum class logit_rows { all, last, none };

/// @brief What a pass does besides computing: every field may be left out.
struct pass {
    kv_cache* cache = nullptr;        // generation (B = 1): positions from cache->length; keys and values appended
    const tap* report = nullptr;      // a trace (B = 1): every intermediate, under the stage ids of DESIGN.md
    activations* keep = nullptr;      // training: what the backward pass reads (its logits are kept there)
    logit_rows logits = logit_rows::all;
    const float* unembedding = nullptr;  // wteᵀ (d × V) when the caller keeps one across passes (unembedding())
};

/// @brief B sequences of T characters through the model: the logits of the rows `p.logits` asks for (B·T × V,
/// B × V or none), or nothing when p.keep is given, which holds them then. Refuses a pass that would run past the context.
std::vector<float> forward(const model& m, const std::vector<int>& ids, int B, int T, const pass& p = {});

/// @brief wteᵀ (d × V): the tied unembedding as the pass's linear op reads it.
std::vector<float> unembedding(const model& m);

}  // namespace attn::lm
