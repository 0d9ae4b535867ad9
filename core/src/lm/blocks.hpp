// The blocks the character model's one forward pass (forward.cpp) and backward pass (backward.cpp) and the
// trainer of model folders (hf/train.cpp) share: causal attention (a cache's keys or the pass's own) over B sequences and its backward pass, LayerNorm's and a linear
// layer's backward passes, and the softmax cross-entropy of logit rows. Activations are (B·T, width) row-major.
#pragma once

#include <cstddef>

#include "ops/tap_emit.hpp"

namespace attn::lm::blocks {

/// B sequences of T positions (BT rows), width d = h heads of dh columns, the MLP's dm, V logits a row.
struct dims {
    std::size_t B, T, BT, d, h, dh, dm, V;
};

/// @brief One sequence's causal attention, scaled by 1/√dh: n queries at positions pos0 … pos0+n−1 (q rows
/// n × h·dh, head hd's columns from hd·dh) over the t = pos0 + n keys and values (rows t × h·dh, a cache's or
/// the pass's own); ctx (n × h·dh). `att`, when given, gets each head's weights (h × n × att_cols, 0 past a
/// query's position); `steps`, when given, every sub-step, a masked key's score −1e9 as the sequence core
/// writes it. A query's row is computed the same way whatever else is asked, so every mode has its bits.
void causal_attention(float* ctx, float* att, std::size_t att_cols, ops::attention_steps* steps, const float* q, const float* k,
                      const float* v, std::size_t n, std::size_t pos0, std::size_t h, std::size_t dh);
/// @brief ctx (BT, d) = softmax(q·kᵀ/√dh, causal)·v per sequence and head; att (B, h, T, T) keeps the weights.
void attention_forward(float* ctx, float* att, const float* q, const float* k, const float* v, const dims& s);
/// @brief dq, dk, dv (BT, d), overwritten, from dctx and the forward pass's att, q, k, v.
void attention_backward(float* dq, float* dk, float* dv, const float* dctx, const float* att, const float* q,
                        const float* k, const float* v, const dims& s);
/// @brief dx += LayerNorm's backward (llm.c's layernorm_backward); dw, db accumulate.
void layernorm_backward(float* dx, float* dw, float* db, const float* dout, const float* x, const float* mean,
                        const float* rstd, const float* w, std::size_t rows, std::size_t d);
/// @brief For y = x·W + b (W in × out): dx (may be null) += dy·Wᵀ, dW += xᵀ·dy, db (may be null) += Σ_rows dy.
void linear_backward(float* dx, float* dw, float* db, const float* dy, const float* x, const float* w, std::size_t rows,
                     std::size_t in_dim, std::size_t out_dim);
/// @brief The summed cross-entropy (nats) of rows of V logits against targets; with grad, each row becomes
/// (softmax − onehot) · per_row in place.
double softmax_cross_entropy(float* logits, const int* targets, std::size_t rows, std::size_t V, float per_row, bool grad);

}  // namespace attn::lm::blocks
