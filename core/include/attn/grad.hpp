// Gradients of every stage (DESIGN "Gradients and training"): a loss on the last stage (output
// with W_o, else concat) and the backward pass through every stage to every parameter of the spec,
// and to x and memory. Seed 002: W_q, W_k and W_v are trainable; training teaches the model which
// keys match a query. The page's train mode and `attn train` build on this.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "attn/json.hpp"
#include "attn/spec.hpp"
#include "attn/trace.hpp"

namespace attn {

/// @brief What the loss compares the last stage (n_q × d_out) with.
struct loss_spec {
    /// upstream: the gradient dL/dy of a loss computed after this attention (a language model's next-character
    /// loss above its layer) is given; the loss is the linear stand-in Σ upstream ⊙ y, whose gradient at y is
    /// upstream, so every stage's gradient is that later loss's own.
    enum class kind { mse, cross_entropy, upstream };
    kind loss = kind::mse;
    matrix target;                    // mse: (n_q, d_out); mean over every element of (y − target)²; upstream: dL/dy
    std::vector<std::size_t> labels;  // cross_entropy: n_q column indices; mean over rows of −log softmax(y_i)[label_i]
};

/// @brief dL/d(parameter) for every parameter the spec has (absent ones stay absent), and for x and memory.
struct param_grads {
    matrix x;
    std::optional<matrix> memory;
    projection wq, wk, wv, wo;        // w and b, each present when the spec has it
    additive_params additive;         // w1, w2, v with score "additive"
    std::optional<matrix> bilinear;   // with score "bilinear"
    std::optional<matrix> learned;    // the learned positional table, every row (unused rows 0)
};

/// @brief The loss, the parameter gradients, and dL/d(stage) for every stage of the trace, held as a
/// trace of the same shapes (adjoint.stages() lists them; the online-softmax stages, which do not
/// feed the loss, are 0; the adjoint's spec field is empty: trace.spec is the one).
struct grad_result {
    float loss = 0;
    attn::trace trace;    // the forward pass
    param_grads grads;
    attn::trace adjoint;  // dL/d(stage), stage by stage
};

/// @brief Forward, loss and backward. Throws spec_error for a bad spec, or a target or labels that do
/// not fit the last stage.
grad_result compute_grad(const spec& s, const loss_spec& loss, const kernel_set& kernels = simd_kernels());

/// @brief Throws spec_error for a spec whose backward pass the core does not have: rotary positions and
/// shared key/value heads are traced and explained, not yet differentiated.
void check_differentiable(const spec& s);

/// @brief The loss fields of a grad spec ("loss", "target", "labels", "upstream"), read and checked against n_q
/// and d_out; the rest of the JSON is the sequence spec.
loss_spec loss_from_json(const json& j, std::size_t n_q, std::size_t d_out);
/// @brief A grad spec's JSON text: the sequence spec plus its loss fields.
std::pair<spec, loss_spec> parse_grad_spec(std::string_view text);
/// @brief The chain rule behind one cell of dL/d(stage), with the passes' own numbers, read like
/// explain_cell (the same cells; q, k and v merged n × d_model), e.g. "∂L/∂α[1][2] = Σ_c ∂L/∂c[1][c]·v[2][c]
/// = 0.1×0.2 + … = 0.05". Throws spec_error for a stage the trace lacks or a cell outside it.
std::string explain_grad_cell(const grad_result& g, const loss_spec& loss, stage_id id, std::size_t head, std::size_t i,
                              std::size_t j, bool detail = false);

/// @brief {"loss", "grads": {...}, "stage_grads": [{"id", "shape", "data"}...]} (DESIGN's format).
json grad_to_json(const grad_result& g);

}  // namespace attn
