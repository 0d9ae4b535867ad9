// The trainer: full-batch steps over the data set, gradients from compute_grad, and the update of
// PyTorch's Adam (m, v moments; bias-corrected; eps after the square root) or SGD.
#include "attn/train.hpp"

#include "attn/spec_fields.hpp"

#include <algorithm>
#include <cmath>

#include "sequence/forward_pass.hpp"
#include "kernels/simd4.hpp"

namespace attn {
namespace {

/// The flat values of a parameter named as train.params names it (its row of attn/spec_fields.hpp), in a
/// spec or in its gradients; {nullptr, 0} when absent.
std::pair<float*, std::size_t> values_of(spec& s, const std::string& name) {
    const tensor_field* f = tensor_param(name);
    const float_span v = f ? f->in_spec(s) : float_span{};
    return {v.data, v.size};
}
std::pair<float*, std::size_t> values_of(param_grads& g, const std::string& name) {
    const tensor_field* f = tensor_param(name);
    const float_span v = f && f->in_grads ? f->in_grads(g) : float_span{};
    return {v.data, v.size};
}

}  // namespace

spec spec_for_item(const spec& s, const matrix& x, const std::optional<matrix>& memory) {
    spec out = s;
    out.x = x;
    out.memory = memory;
    out.query_tokens.clear(), out.key_tokens.clear();  // the spec's labels are for its own x
    if (out.mask == mask_kind::matrix) out.mask = mask_kind::none;  // its shape was the spec's own n_q × n_k
    return out;
}

trainer::trainer(attn::spec s, train_spec t) : spec_(std::move(s)), train_(std::move(t)) {
    // checked once here; each step then checks only that its loss and gradients stay finite
    check_differentiable(spec_);
    std::uint64_t work = 0;
    for (const train_item& item : train_.data) {
        const spec one = spec_for_item(spec_, item.x, item.memory);
        validate(one, grad_budget);  // each step takes every item's gradient
        work += 3 * multiply_adds(one);
    }
    step_multiply_adds_ = std::max<std::uint64_t>(work, 1);
    bind_slots();
}

void trainer::check_steps(std::uint64_t count) const {
    if (count <= max_steps_per_call()) return;
    throw spec_error(std::to_string(count) + " steps of this training run would be about " +
                     std::to_string(count * step_multiply_adds_ / 1000000) + " million multiply-adds, over the limit of " +
                     std::to_string(max_train_multiply_adds / 1000000) + " million one call may train for: ask for at most " +
                     std::to_string(max_steps_per_call()) + " steps at a time.");
}

void trainer::bind_slots() {
    slots_.clear();
    for (const std::string& name : train_.params) {
        const auto [values, size] = values_of(spec_, name);
        if (!values) throw spec_error("train.params names " + name + " but the spec has no " + name + ": give its starting values.");
        slots_.push_back({values, size, std::vector<float>(size, 0.0f), std::vector<float>(size, 0.0f)});
    }
}

void trainer::set_learning_rate(float lr) {
    if (!(lr > 0.0f) || !std::isfinite(lr)) throw spec_error("the learning rate must be a positive number.");
    train_.optimizer.lr = lr;
}

float trainer::loss() const {
    double total = 0;
    for (const train_item& item : train_.data) total += compute_grad(spec_for_item(spec_, item.x, item.memory), item.loss).loss;
    return float(total / double(train_.data.size()));
}

float trainer::step() {
    const double n = double(train_.data.size());
    std::vector<std::vector<double>> sum(slots_.size());
    for (std::size_t p = 0; p < slots_.size(); ++p) sum[p].assign(slots_[p].size, 0.0);
    double total = 0;
    const kernel_set& ks = simd_kernels();
    for (const train_item& item : train_.data) {
        grad_result r = backward_pass(forward_pass(spec_for_item(spec_, item.x, item.memory), ks), item.loss, ks);
        total += r.loss;
        // an overflow in Q, K or the scores would be clamped away by the softmax's exp; in V it reaches the loss
        const tensor3& e = r.trace.scores;
        if (!simd::all_finite(e.data(), e.size())) total = NAN;
        for (std::size_t p = 0; p < slots_.size(); ++p) {
            const float* g = values_of(r.grads, train_.params[p]).first;
            for (std::size_t i = 0; i < slots_[p].size; ++i) sum[p][i] += g[i];
        }
    }
    // an overflow anywhere in the passes reaches the scores, the loss or a gradient: stop before it reaches the weights
    bool finite = std::isfinite(total);
    for (const std::vector<double>& g : sum)
        for (double v : g) finite &= std::isfinite(v);
    if (!finite)
        throw spec_error("training overflowed the float range at step " + std::to_string(done_ + 1) +
                         ": the learning rate is too large for these weights; lower it and reset.");
    ++done_;
    const optimizer_spec& o = train_.optimizer;
    // the parameters may have been replaced since the last step (the lab edits them): look them up again
    const float correct1 = 1.0f - std::pow(o.beta1, float(done_)), correct2 = 1.0f - std::pow(o.beta2, float(done_));
    for (std::size_t p = 0; p < slots_.size(); ++p) {
        slot& s = slots_[p];
        s.values = values_of(spec_, train_.params[p]).first;
        for (std::size_t i = 0; i < s.size; ++i) {
            const float g = float(sum[p][i] / n);
            if (o.method == optimizer_spec::kind::sgd) {
                s.values[i] -= o.lr * g;
                continue;
            }
            s.m[i] = o.beta1 * s.m[i] + (1.0f - o.beta1) * g;
            s.v[i] = o.beta2 * s.v[i] + (1.0f - o.beta2) * g * g;
            const float m_hat = s.m[i] / correct1;
            const float v_hat = s.v[i] / correct2;
            s.values[i] -= o.lr * m_hat / (std::sqrt(v_hat) + o.eps);
        }
    }
    return float(total / n);
}

}  // namespace attn
