// Training (DESIGN "Gradients and training"): full-batch gradient descent on the parameters a spec
// names, over a data set of inputs with their targets, with PyTorch's Adam or plain SGD. Seed 002:
// trained, W_q and W_k learn which keys match a query. Deterministic: the same spec, the same steps.
#pragma once

#include <cstdint>

#include "attn/limits.hpp"

#include <string>
#include <vector>

#include "attn/grad.hpp"

namespace attn {

/// @brief One training example: its inputs and what the last stage should be for them.
struct train_item {
    matrix x;
    std::optional<matrix> memory;
    loss_spec loss;
};

/// @brief PyTorch's Adam (bias-corrected, eps added after the square root) or SGD.
struct optimizer_spec {
    enum class kind { adam, sgd };
    kind method = kind::adam;
    float lr = 1e-3f, beta1 = 0.9f, beta2 = 0.999f, eps = 1e-8f;
};

/// @brief The "train" field of a spec.
struct train_spec {
    std::vector<train_item> data;
    std::vector<std::string> params;  // "wq", "bq", …, "additive.w1", "bilinear", "learned"
    optimizer_spec optimizer;
    int steps = 1;
};

/// @brief A training run in progress: the spec (its parameters updated in place), the optimizer's state
/// and the step count. step() does one full-batch step and returns the loss before it.
class trainer {
public:
    trainer(attn::spec s, train_spec t);
    /// @brief Mean loss over the data at the current parameters, then one optimizer step.
    float step();
    /// @brief The mean loss at the current parameters (no step).
    float loss() const;
    const attn::spec& current() const { return spec_; }
    attn::spec& current() { return spec_; }  // the lab edits weights while it trains
    int steps_done() const { return done_; }
    /// @brief A new learning rate from the next step on (the page's slider); the optimizer's moments stay.
    /// Throws spec_error unless it is a positive finite number.
    void set_learning_rate(float lr);
    const train_spec& settings() const { return train_; }
    /// @brief The most steps one call may run (max_train_multiply_adds over one step's multiply-adds).
    std::uint64_t max_steps_per_call() const { return max_train_multiply_adds / step_multiply_adds_; }
    /// @brief Throws spec_error, naming the limit and what fits, if count steps are over it.
    void check_steps(std::uint64_t count) const;
    /// @brief The data items, editable between steps (the lab edits a sentence's inputs while it trains;
    /// keep their shapes: they were checked when the trainer was made).
    std::vector<train_item>& data() { return train_.data; }

private:
    /// Each named parameter of spec_ as a flat float array, with its Adam moments.
    struct slot {
        float* values;
        std::size_t size;
        std::vector<float> m, v;
    };
    attn::spec spec_;
    train_spec train_;
    int done_ = 0;
    std::uint64_t step_multiply_adds_ = 1;  // one step over every item: about 3 forward passes each
    std::vector<slot> slots_;
    void bind_slots();
};

/// @brief The spec with a data item's inputs in place of its own (its token labels and a matrix mask,
/// which belong to its own x, dropped): what each training step computes, and what parsing checks.
spec spec_for_item(const spec& s, const matrix& x, const std::optional<matrix>& memory);

/// @brief Reads a training spec: the sequence spec, its "loss", and "train" (refusals name the field).
std::pair<spec, train_spec> parse_train_spec(std::string_view text);

}  // namespace attn
